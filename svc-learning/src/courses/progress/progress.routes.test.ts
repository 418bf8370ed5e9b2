import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COURSE_MESSAGES, CompleteModuleResponse, CourseModulesProgress, CourseWithProgress, ModuleLaunch } from '@portal/contracts'
import { createHarness, type Harness, type TestUser } from '../../harness.test-support.ts'
import { insertCourse, insertModule, putModuleFile } from './course-runtime.test-support.ts'

let h: Harness
let admin: TestUser
let learner: TestUser
let stranger: TestUser

beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true })
  learner = await h.user()
  stranger = await h.user()
})
afterAll(async () => {
  await h?.close()
})

/** A course assigned to `learner` only, with `n` PDF modules. */
const course = async (n = 2, opts: { toAll?: boolean } = {}) => {
  const id = await insertCourse(h, { title: `Course ${Math.random().toString(36).slice(2, 6)}`, assignedTo: opts.toAll ? [] : [learner.id], toAll: opts.toAll })
  const modules: number[] = []
  for (let i = 0; i < n; i++) modules.push(await insertModule(h, id, { title: `Part ${i + 1}`, position: i + 1 }))
  return { id, modules }
}
const put = (who: TestUser, path: string, body: unknown) => h.call('PUT', path, { token: who.token, body })

describe('GET /courses/with-progress', () => {
  it('lists the courses assigned to the caller or to everyone, with module progress and status', async () => {
    const mine = await course(2)
    const all = await course(1, { toAll: true })
    const notMine = await insertCourse(h, { assignedTo: [stranger.id] })
    await put(learner, `/modules/${mine.modules[0]}/progress`, { progress: 40, courseId: mine.id })
    const res = await h.call('GET', '/courses/with-progress', { token: learner.token })
    expect(res.status).toBe(200)
    const list = CourseWithProgress.array().parse(res.body)
    const ids = list.map((c) => c.id)
    expect(ids).toContain(mine.id)
    expect(ids).toContain(all.id)
    expect(ids).not.toContain(notMine)
    const c = list.find((x) => x.id === mine.id)!
    expect(c).toMatchObject({ status: 'in-progress', progress: 20, completed_at: null })
    expect(c.modules.map((m) => [m.title, m.order, m.progress, m.is_unlocked, m.processing_status])).toEqual([
      ['Part 1', 1, 40, true, 'ready'],
      ['Part 2', 2, 0, true, 'ready'],
    ])
    expect(c.modules[0]!.started_at).not.toBeNull()
    expect(list.find((x) => x.id === all.id)).toMatchObject({ status: 'not-started', progress: 0 })
  })
  it('lists every course for admins, and needs a signed-in caller', async () => {
    const other = await insertCourse(h, { assignedTo: [stranger.id] })
    const res = await h.call('GET', '/courses/with-progress', { token: admin.token })
    expect(
      CourseWithProgress.array()
        .parse(res.body)
        .map((c) => c.id),
    ).toContain(other)
    expect((await h.call('GET', '/courses/with-progress')).status).toBe(401)
  })
})

describe('GET /modules/course/{id}/progress', () => {
  it('answers the course with the caller’s module progress', async () => {
    const c = await course(2)
    const res = await h.call('GET', `/modules/course/${c.id}/progress`, { token: learner.token })
    expect(res.status).toBe(200)
    const { data } = CourseModulesProgress.parse(res.body)
    expect(data).toMatchObject({ courseId: c.id, status: 'not-started', progress: 0, completed_at: null })
    expect(data.modules.map((m) => m.id)).toEqual(c.modules)
  })
  it('answers 404 for a missing course and 403 for a course not assigned to the caller', async () => {
    const c = await course(1)
    expect((await h.call('GET', '/modules/course/999999/progress', { token: learner.token })).body).toMatchObject({ message: 'Course not found' })
    const res = await h.call('GET', `/modules/course/${c.id}/progress`, { token: stranger.token })
    expect(res.status).toBe(403)
    expect(res.body.message).toBe(COURSE_MESSAGES.courseNotAssigned)
    expect((await h.call('GET', `/modules/course/${c.id}/progress`, { token: admin.token })).status).toBe(200)
  })
})

describe('PUT /modules/{id}/progress', () => {
  it('starts the module once, never lowers progress and keeps it at most 99', async () => {
    const c = await course(1)
    const m = c.modules[0]!
    const first = await put(learner, `/modules/${m}/progress`, { progress: 30, courseId: c.id })
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ moduleId: m, progress: 30, completed_at: null })
    h.advance(5_000)
    const lower = await put(learner, `/modules/${m}/progress`, { progress: 10, courseId: c.id })
    expect(lower.body).toMatchObject({ progress: 30, started_at: first.body.started_at })
    expect((await put(learner, `/modules/${m}/progress`, { progress: 100, courseId: c.id })).body.progress).toBe(99)
    const [row] = await h.sql('select last_accessed, started_at from module_progress where user_id = ? and module_id = ?', [learner.id, m])
    expect(new Date(row!.last_accessed).getTime()).toBeGreaterThan(new Date(row!.started_at).getTime())
  })
  it('rejects a course that is not the module’s, a missing module, a stranger and bad bodies', async () => {
    const c = await course(1)
    const other = await course(1)
    const m = c.modules[0]!
    const wrong = await put(learner, `/modules/${m}/progress`, { progress: 10, courseId: other.id })
    expect([wrong.status, wrong.body.code]).toEqual([400, 'module_course_mismatch'])
    const missing = await put(learner, '/modules/999999/progress', { progress: 10, courseId: c.id })
    expect([missing.status, missing.body.message]).toEqual([404, 'Module not found'])
    expect((await put(stranger, `/modules/${m}/progress`, { progress: 10, courseId: c.id })).status).toBe(403)
    expect((await put(learner, `/modules/${m}/progress`, { progress: 101, courseId: c.id })).status).toBe(400)
    expect((await put(learner, `/modules/${m}/progress`, { progress: 5 })).status).toBe(400)
    expect(await h.sql('select * from module_progress where module_id = ?', [m])).toEqual([])
  })
})

describe('PUT /modules/{id}/complete', () => {
  it('blocks a manual completion without enough engagement, with the manual message', async () => {
    const c = await course(1)
    const m = c.modules[0]!
    const none = await put(learner, `/modules/${m}/complete`, { courseId: c.id, trigger: 'manual' })
    expect([none.status, none.body.code, none.body.message]).toEqual([422, 'engagement_too_short', COURSE_MESSAGES.engageMoreManual])
    await put(learner, `/modules/${m}/progress`, { progress: 25, courseId: c.id })
    h.advance(200_000)
    // 200 s but progress 25 < 30
    expect((await put(learner, `/modules/${m}/complete`, { courseId: c.id })).body.message).toBe(COURSE_MESSAGES.engageMoreManual)
    await put(learner, `/modules/${m}/progress`, { progress: 30, courseId: c.id })
    const ok = await put(learner, `/modules/${m}/complete`, { courseId: c.id })
    expect(ok.status).toBe(200)
    expect(CompleteModuleResponse.parse(ok.body)).toMatchObject({ moduleId: m, newly_completed: true, course_completed: true })
  })
  it('blocks other triggers under one minute or 20 percent with the other message, then accepts them', async () => {
    const c = await course(2)
    const m = c.modules[0]!
    await put(learner, `/modules/${m}/progress`, { progress: 20, courseId: c.id })
    h.advance(30_000)
    const early = await put(learner, `/modules/${m}/complete`, { courseId: c.id, trigger: 'tracker' })
    expect([early.status, early.body.message]).toEqual([422, COURSE_MESSAGES.engageMore])
    h.advance(31_000)
    const ok = await put(learner, `/modules/${m}/complete`, { courseId: c.id, trigger: 'tracker' })
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ newly_completed: true, course_completed: false, course_completed_at: null })
    const [row] = await h.sql('select progress, completion_trigger from module_progress where user_id = ? and module_id = ?', [learner.id, m])
    expect(row).toEqual({ progress: 100, completion_trigger: 'tracker' })
  })
  it('records a completion once, with one event, and the course completion once when every module is complete', async () => {
    const c = await course(2)
    const before = (await h.events('learning.module.completed.v1')).length
    const beforeCourse = (await h.events('learning.course.completed.v1')).length
    for (const m of c.modules) await put(learner, `/modules/${m}/progress`, { progress: 50, courseId: c.id })
    h.advance(181_000)
    const first = await put(learner, `/modules/${c.modules[0]}/complete`, { courseId: c.id })
    const again = await put(learner, `/modules/${c.modules[0]}/complete`, { courseId: c.id })
    expect(again.body).toMatchObject({ newly_completed: false, completed_at: first.body.completed_at, course_completed: false })
    const last = await put(learner, `/modules/${c.modules[1]}/complete`, { courseId: c.id, trigger: 'media-ended' })
    expect(last.body).toMatchObject({ newly_completed: true, course_completed: true })
    const repeat = await put(learner, `/modules/${c.modules[1]}/complete`, { courseId: c.id })
    expect(repeat.body).toMatchObject({ newly_completed: false, course_completed: true, course_completed_at: last.body.course_completed_at })
    const events = (await h.events('learning.module.completed.v1')).slice(before)
    expect(events.map((e) => [e.data.moduleId, e.data.trigger, e.data.userId])).toEqual([
      [c.modules[0], 'manual', learner.id],
      [c.modules[1], 'media-ended', learner.id],
    ])
    const courseEvents = (await h.events('learning.course.completed.v1')).slice(beforeCourse)
    expect(courseEvents.map((e) => e.data)).toEqual([{ userId: learner.id, courseId: c.id, courseTitle: expect.any(String), completedAt: last.body.course_completed_at }])
    // The first completion left the course half done: its progress (the mean of its modules') is announced once.
    const progressed = (await h.events('learning.course.progressed.v1')).filter((e) => e.data.courseId === c.id)
    expect(progressed.map((e) => [e.data.userId, e.data.progress, e.data.at])).toEqual([[learner.id, 75, first.body.completed_at]])
    // progress after completion stays 100
    expect((await put(learner, `/modules/${c.modules[0]}/progress`, { progress: 10, courseId: c.id })).body.progress).toBe(100)
    const list = CourseWithProgress.array().parse((await h.call('GET', '/courses/with-progress', { token: learner.token })).body)
    expect(list.find((x) => x.id === c.id)).toMatchObject({ status: 'completed', progress: 100, completed_at: last.body.course_completed_at })
  })
  it('opens a completed course again when a module is added, and completes it again with the new module', async () => {
    const c = await course(1)
    const beforeCourse = (await h.events('learning.course.completed.v1')).length
    await put(learner, `/modules/${c.modules[0]}/progress`, { progress: 50, courseId: c.id })
    h.advance(181_000)
    expect((await put(learner, `/modules/${c.modules[0]}/complete`, { courseId: c.id })).body).toMatchObject({ course_completed: true })
    const added = await insertModule(h, c.id, { position: 2 })
    const listed = async () =>
      CourseWithProgress.array()
        .parse((await h.call('GET', '/courses/with-progress', { token: learner.token })).body)
        .find((x) => x.id === c.id)
    expect(await listed()).toMatchObject({ status: 'in-progress', progress: 50, completed_at: null })
    const stats = async () =>
      (await h.call('GET', `/users/${learner.id}/stats`, { token: learner.token })).body.courseHistory.find((x: { courseId: number }) => x.courseId === c.id)
    expect((await stats()).completedAt).toBeNull()
    expect((await put(learner, `/modules/${c.modules[0]}/complete`, { courseId: c.id })).body).toMatchObject({ newly_completed: false, course_completed: false })
    await put(learner, `/modules/${added}/progress`, { progress: 50, courseId: c.id })
    h.advance(181_000)
    const last = await put(learner, `/modules/${added}/complete`, { courseId: c.id })
    expect(last.body).toMatchObject({ newly_completed: true, course_completed: true })
    expect(await listed()).toMatchObject({ status: 'completed', progress: 100, completed_at: last.body.course_completed_at })
    expect((await stats()).completedAt).toBe(last.body.course_completed_at)
    expect((await h.events('learning.course.completed.v1')).slice(beforeCourse).map((e) => e.data.courseId)).toEqual([c.id, c.id])
  })
  it('keeps one learner’s completion away from another', async () => {
    const c = await insertCourse(h, { toAll: true })
    const m = await insertModule(h, c)
    await put(learner, `/modules/${m}/progress`, { progress: 50, courseId: c })
    h.advance(181_000)
    expect((await put(learner, `/modules/${m}/complete`, { courseId: c })).status).toBe(200)
    expect((await put(stranger, `/modules/${m}/complete`, { courseId: c })).status).toBe(422)
    const { data } = CourseModulesProgress.parse((await h.call('GET', `/modules/course/${c}/progress`, { token: stranger.token })).body)
    expect(data.modules[0]).toMatchObject({ progress: 0, completed_at: null, started_at: null })
  })
  it('answers 404, 403 and 400 like the progress route', async () => {
    const c = await course(1)
    expect((await put(learner, '/modules/999999/complete', { courseId: c.id })).status).toBe(404)
    expect((await put(stranger, `/modules/${c.modules[0]}/complete`, { courseId: c.id })).status).toBe(403)
    expect((await put(learner, `/modules/${c.modules[0]}/complete`, { courseId: c.id, trigger: 'whatever' })).status).toBe(400)
  })
})

describe('GET /modules/{id}/launch', () => {
  it('answers a signed URL of the file on the content origin and marks the module started', async () => {
    const c = await course(1)
    const m = await insertModule(h, c.id, { title: 'Video', position: 2, originalName: 'Safety talk #1.mp4', contentType: 'video/mp4' })
    await putModuleFile(h, m, Buffer.from('0123456789'))
    const res = await h.call('GET', `/modules/${m}/launch`, { token: learner.token })
    expect(res.status).toBe(200)
    const launch = ModuleLaunch.parse(res.body)
    expect(launch.url).toMatch(/^http:\/\/content\.test\/api\/content\/[^/]+\/Safety%20talk%20%231\.mp4$/)
    expect(launch).toMatchObject({ moduleId: m, content_type: 'video/mp4' })
    const [row] = await h.sql('select progress, started_at from module_progress where user_id = ? and module_id = ?', [learner.id, m])
    expect(row!.progress).toBe(1)
    expect(row!.started_at).not.toBeNull()
    // The launch is announced with it (statements out, issue 26).
    expect((await h.events('learning.module.launched.v1')).filter((e) => e.data.moduleId === m).map((e) => e.data)).toEqual([
      { userId: learner.id, courseId: c.id, moduleId: m, moduleTitle: 'Video', kind: 'file', launchedAt: expect.any(String) },
    ])
    const file = await h.app.request(new URL(launch.url).pathname.replace(/^\/api/, ''))
    expect([file.status, file.headers.get('content-type'), await file.text()]).toEqual([200, 'video/mp4', '0123456789'])
    // Shown by the browser itself: no download disposition.
    expect(file.headers.get('content-disposition')).toBeNull()
  })
  it('serves a slide deck as a download under its own name', async () => {
    const c = await course(1)
    const m = await insertModule(h, c.id, {
      title: 'Deck',
      position: 3,
      originalName: 'Rückblick "Q3".pptx',
      contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    })
    await putModuleFile(h, m, Buffer.from('PK\x03\x04deck'))
    const launch = ModuleLaunch.parse((await h.call('GET', `/modules/${m}/launch`, { token: learner.token })).body)
    const file = await h.app.request(new URL(launch.url).pathname.replace(/^\/api/, ''))
    expect(file.status).toBe(200)
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="R_ckblick _Q3_.pptx"; filename*=UTF-8''${encodeURIComponent('Rückblick "Q3".pptx')}`)
  })
  it('serves a module under a name that reads as it is: no control or bidi characters, in the URL and the download', async () => {
    const c = await course(1)
    // Shown as "Q3xtpp.docx": the override reverses what follows it.
    const m = await insertModule(h, c.id, {
      title: 'Deck',
      position: 3,
      originalName: 'Q3\u202Excod.pptx\r\n',
      contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    })
    await putModuleFile(h, m, Buffer.from('PK\x03\x04deck'))
    const launch = ModuleLaunch.parse((await h.call('GET', `/modules/${m}/launch`, { token: learner.token })).body)
    expect(launch.url).toMatch(/\/Q3xcod\.pptx$/)
    const file = await h.app.request(new URL(launch.url).pathname.replace(/^\/api/, ''))
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="Q3xcod.pptx"; filename*=UTF-8''Q3xcod.pptx`)
  })
  it('refuses strangers, missing modules and SCORM modules', async () => {
    const c = await course(1)
    expect((await h.call('GET', `/modules/${c.modules[0]}/launch`, { token: stranger.token })).status).toBe(403)
    expect((await h.call('GET', '/modules/999999/launch', { token: learner.token })).status).toBe(404)
    const scorm = await insertModule(h, c.id, { isScorm: true, status: 'processing' })
    expect((await h.call('GET', `/modules/${scorm}/launch`, { token: learner.token })).status).toBe(400)
    expect((await h.call('GET', `/modules/${c.modules[0]}/launch`)).status).toBe(401)
  })
})
