import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { UserStats } from '@portal/contracts'
import { createHarness, type Harness, type TestUser } from '../../harness.test-support.ts'

let h: Harness
let tech: TestUser
let other: TestUser

beforeAll(async () => {
  h = await createHarness()
  tech = await h.user()
  other = await h.user()
})
afterAll(async () => {
  await h?.close()
})

/** A course with `n` ready PDF modules, written straight to the tables (the upload path has its own tests). */
const course = async (title: string, n: number) => {
  const [{ id }] = await h.sql<{ id: number }>('insert into courses (title, is_assigned_to_all, created_at, updated_at) values (?, true, now(), now()) returning id', [title])
  const modules: number[] = []
  for (let i = 1; i <= n; i++) {
    const [m] = await h.sql<{ id: number }>(
      `insert into course_modules (course_id, title, position, original_name, content_type, size, is_scorm, storage_key, processing_status, created_at, updated_at)
       values (?, ?, ?, 'm.pdf', 'application/pdf', 10, false, ?, 'ready', now(), now()) returning id`,
      [id, `M${i}`, i, `uploads/x/${id}-${i}.pdf`],
    )
    modules.push(m!.id)
  }
  return { id, modules }
}
const progress = (userId: string, courseId: number, moduleId: number, value: number, opts: { started?: string | null; accessed?: string | null; completed?: string | null } = {}) =>
  h.sql('insert into module_progress (user_id, module_id, course_id, progress, started_at, completed_at, last_accessed) values (?, ?, ?, ?, ?, ?, ?)', [
    userId,
    moduleId,
    courseId,
    value,
    opts.started === undefined ? '2026-01-01T00:00:00Z' : opts.started,
    opts.completed ?? null,
    opts.accessed ?? null,
  ])

describe('the course half of GET /users/{id}/stats', () => {
  it('counts started and completed courses and averages course progress over all modules', async () => {
    const a = await course('Alpha', 4) // 100 + 50 + 0 + 0 → 38 %
    const b = await course('Bravo', 2) // completed: 100 + 100 → 100 %
    const c = await course('Charlie', 3) // opened, never started: not counted
    await course('Delta', 1) // untouched
    await progress(tech.id, a.id, a.modules[0]!, 100, { accessed: '2026-03-01T10:00:00Z', completed: '2026-03-01T10:00:00Z' })
    await progress(tech.id, a.id, a.modules[1]!, 50, { accessed: '2026-03-05T10:00:00Z' })
    await progress(tech.id, b.id, b.modules[0]!, 100, { accessed: '2026-02-01T10:00:00Z', completed: '2026-02-01T10:00:00Z' })
    await progress(tech.id, b.id, b.modules[1]!, 100, { accessed: '2026-02-02T10:00:00Z', completed: '2026-02-02T10:00:00Z' })
    await h.sql("insert into course_completions (user_id, course_id, completed_at) values (?, ?, '2026-02-02T10:00:00Z')", [tech.id, b.id])
    await progress(tech.id, c.id, c.modules[0]!, 0, { started: null, accessed: '2026-04-01T10:00:00Z' })
    await progress(other.id, a.id, a.modules[2]!, 80, { accessed: '2026-05-01T10:00:00Z' })

    const stats = UserStats.parse((await h.call('GET', `/users/${tech.id}/stats`, { token: tech.token })).body)
    expect(stats).toMatchObject({ coursesStarted: 2, coursesCompleted: 1, averageCourseProgress: 69 })
    expect(stats.courseHistory).toEqual([
      { courseId: a.id, courseName: 'Alpha', progress: 38, completedAt: null, lastAccessed: '2026-03-05T10:00:00.000Z' },
      { courseId: b.id, courseName: 'Bravo', progress: 100, completedAt: '2026-02-02T10:00:00.000Z', lastAccessed: '2026-02-02T10:00:00.000Z' },
    ])
    const theirs = UserStats.parse((await h.call('GET', `/users/${other.id}/stats`, { token: other.token })).body)
    expect(theirs).toMatchObject({ coursesStarted: 1, coursesCompleted: 0, averageCourseProgress: 20 })
  })
})
