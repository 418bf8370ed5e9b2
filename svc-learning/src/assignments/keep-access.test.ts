import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AssignResponse, Exam } from '@portal/contracts'
import { createHarness, examInput, type Harness } from '../harness.test-support.ts'
import { assignmentFixture, type Person } from './fixture.test-support.ts'

// An admin's manual assignment (the spec's userIds replace the list) and an item no longer assigned
// to everyone never take away what a live assignment rule gives (issue 24, decision 0051).
let h: Harness
let f: ReturnType<typeof assignmentFixture>
let admin: Person
beforeAll(async () => {
  h = await createHarness()
  f = assignmentFixture(h)
  admin = await f.person({ admin: true })
})
afterAll(async () => {
  await h?.close()
})

const rule = (body: unknown) => f.createRule(admin, body)
const assign = async (kind: 'courses' | 'exams', id: number, userIds: string[]) => {
  const res = await h.call('POST', `/${kind}/${id}/assign`, { token: admin.token, body: { userIds } })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return AssignResponse.parse(res.body)
}
const holders = async (kind: 'course' | 'exam', id: number) =>
  (await h.sql<{ user_id: string }>(`select user_id from ${kind}_assignments where ${kind}_id = ? order by user_id`, [id])).map((r) => r.user_id)
const opens = async (p: Person, c: { id: number }) => (await h.call('GET', `/modules/course/${c.id}/progress`, { token: p.token })).status
const opensExam = async (p: Person, e: { id: number }) => (await h.call('GET', `/exams/${e.id}`, { token: p.token })).status
const sorted = (ids: string[]) => [...ids].sort()

describe('POST /courses/{id}/assign and POST /exams/{id}/assign', () => {
  it('keep the people a live rule assigns the course, say so in the answer, and drop them once the rule no longer does', async () => {
    const c = await f.course('Kept Course')
    const ruled = await f.person({ group: 'Kept by rule' })
    const chosen = await f.person()
    const r = await rule(f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'group', group: 'Kept by rule' } }))
    expect(await holders('course', c.id)).toEqual([ruled.id])

    const answer = await assign('courses', c.id, [chosen.id])
    expect(answer).toEqual({
      message: 'Course assigned to 2 user(s), 1 of them kept because an assignment rule gives it to them',
      assigned: 2,
      kept_by_rules: [ruled.id],
    })
    expect(await holders('course', c.id)).toEqual(sorted([ruled.id, chosen.id]))
    expect(await opens(ruled, c)).toBe(200)
    // Chosen as well: nothing said of them.
    expect(await assign('courses', c.id, [chosen.id, ruled.id])).toMatchObject({ assigned: 2, kept_by_rules: [] })
    // Only the newly given are announced, and a kept person is not new.
    const announced = (await h.events('learning.course.assigned.v1')).filter((e) => e.data.courseId === c.id).map((e) => e.data.userIds)
    expect(announced).toEqual([[ruled.id], [chosen.id]])

    // A person the rule no longer assigns (moved out of the group), or a deleted rule, keeps nothing through it.
    await f.person({ id: ruled.id, name: ruled.name, group: 'Elsewhere' })
    expect(await f.row(r.id, ruled.id)).toMatchObject({ removed: true })
    expect(await assign('courses', c.id, [chosen.id])).toEqual({ message: 'Course assigned to 1 user(s)', assigned: 1, kept_by_rules: [] })
    expect(await opens(ruled, c)).toBe(403)
  })

  it('keep the people a live rule assigns the exam', async () => {
    const e = await f.exam(admin, 'Kept Exam')
    const ruled = await f.person()
    const chosen = await f.person()
    const gone = await f.person()
    await rule(f.ruleBody({ kind: 'exam', id: e.id }, { audience: { kind: 'users', user_ids: [ruled.id] } }))
    const deleted = await rule(f.ruleBody({ kind: 'exam', id: e.id }, { audience: { kind: 'users', user_ids: [gone.id] } }))
    expect((await h.call('DELETE', `/admin/assignment-rules/${deleted.id}`, { token: admin.token })).status).toBe(200)

    expect(await assign('exams', e.id, [chosen.id])).toEqual({
      message: 'Exam assigned to 2 user(s), 1 of them kept because an assignment rule gives it to them',
      assigned: 2,
      kept_by_rules: [ruled.id],
    })
    expect(await holders('exam', e.id)).toEqual(sorted([ruled.id, chosen.id]))
    expect(await opensExam(ruled, e)).toBe(200)
    expect(await opensExam(gone, e)).toBe(403)
    // The assign dialog shows them selected.
    const listed = Exam.parse((await h.call('GET', `/exams/${e.id}`, { token: admin.token })).body).assigned_user_ids
    expect(sorted(listed)).toEqual(sorted([ruled.id, chosen.id]))
  })
})

describe('switching "assigned to everyone" off', () => {
  it('keeps a course for the people its live rules assign, and only for them', async () => {
    const c = await f.course('Everyone’s Course', { toAll: true })
    const ruled = await f.person({ group: 'Course Everyone Rule' })
    const other = await f.person()
    await rule(f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'group', group: 'Course Everyone Rule' } }))
    // Everyone's: the rule needed no rows.
    expect(await holders('course', c.id)).toEqual([])
    const form = new FormData()
    form.append('title', 'Everyone’s Course')
    form.append('is_assigned_to_all', 'false')
    form.append('existingModules', '[]')
    form.append('newModuleData', '[]')
    const res = await h.app.request(`/courses/${c.id}`, { method: 'PUT', body: form, headers: { authorization: `Bearer ${admin.token}` } })
    expect(res.status, await res.clone().text()).toBe(200)
    expect(await holders('course', c.id)).toEqual([ruled.id])
    expect(await opens(ruled, c)).toBe(200)
    expect(await opens(other, c)).toBe(403)
    // They had it already: nobody is announced as newly assigned.
    expect((await h.events('learning.course.assigned.v1')).filter((e) => e.data.courseId === c.id)).toEqual([])
  })

  it('keeps an exam for the people its live rules assign, and only for them', async () => {
    const e = await f.exam(admin, 'Everyone’s Exam', { toAll: true })
    const ruled = await f.person({ group: 'Exam Everyone Rule' })
    const other = await f.person()
    await rule(f.ruleBody({ kind: 'exam', id: e.id }, { audience: { kind: 'group', group: 'Exam Everyone Rule' } }))
    expect(await holders('exam', e.id)).toEqual([])
    const res = await h.call('PUT', `/exams/${e.id}`, { token: admin.token, body: examInput({ name: 'Everyone’s Exam', exam_type: 'practice', is_assigned_to_all: false }) })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(await holders('exam', e.id)).toEqual([ruled.id])
    expect(await opensExam(ruled, e)).toBe(200)
    expect(await opensExam(other, e)).toBe(403)
  })
})
