import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Course, CourseSummary } from '@portal/contracts'
import { silentLogger } from '@portal/server-kit/testing'
import { createCourseService, createIngestWorker } from '../courses/index.ts'
import { storedFiles } from '../storage.test-support.ts'
import { createGarbageCleaner } from '@portal/server-kit'
import { createHarness, type Harness } from '../harness.test-support.ts'
import { DEMO_COURSE_TITLE, seedDemoCourse } from './demo-course.ts'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(async () => {
  await h?.close()
})

describe('the demo course', () => {
  it('is created once, assigned to everyone without an event, and its lesson package is ingested as SCORM 1.2', async () => {
    const ctx = { ...h.ctx, logger: silentLogger }
    const worker = createIngestWorker(ctx)
    const courses = createCourseService(ctx, { garbage: createGarbageCleaner(ctx), ingest: worker })
    expect(await seedDemoCourse(h.orm, courses)).toBe(DEMO_COURSE_TITLE)
    expect(await seedDemoCourse(h.orm, courses)).toBeNull()
    expect(await worker.drain()).toBe(1)

    const admin = await h.user({ admin: true })
    const tech = await h.user()
    const [course] = ((await h.call('GET', '/admin/courses', { token: admin.token })).body as unknown[]).map((c) => Course.parse(c))
    expect(course).toMatchObject({ title: DEMO_COURSE_TITLE, is_assigned_to_all: true })
    expect(course!.modules.map((m) => [m.order, m.file_path, m.is_scorm, m.content_type, m.processing_status, m.scorm_version, m.sco_count])).toEqual([
      [1, 'field-safety-essentials-scorm12.zip', true, 'application/zip', 'ready', '1.2', 1],
      [2, 'field-safety-handbook.pdf', false, 'application/pdf', 'ready', null, 0],
    ])
    const [row] = await h.sql('select manifest from course_modules where id = ?', [course!.modules[0]!.id])
    const manifest = typeof row!.manifest === 'string' ? JSON.parse(row!.manifest) : row!.manifest
    expect(manifest).toMatchObject({ title: 'Field Safety Essentials', items: [{ identifier: 'field-safety-lesson', href: 'index.html', mastery_score: 80 }] })
    const files = await storedFiles(h)
    for (const f of ['index.html', 'sco.js', 'style.css', 'imsmanifest.xml', 'pages/4-summary.html']) expect(files).toContain(`modules/${course!.modules[0]!.id}/content/${f}`)

    const visible = (await h.call('GET', '/courses', { token: tech.token })).body.map((c: unknown) => CourseSummary.parse(c))
    expect(visible.map((c: CourseSummary) => [c.title, c.module_count])).toEqual([[DEMO_COURSE_TITLE, 2]])
    expect(await h.sql('select * from storage_garbage')).toEqual([])
    // Seeded data is nobody's news: no assignment event.
    expect(await h.events('learning.course.assigned.v1')).toEqual([])
  })
})
