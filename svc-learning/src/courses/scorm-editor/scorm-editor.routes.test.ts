import { Readable } from 'node:stream'
import { strFromU8, unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AuditEntriesResponse, EditTimingResponse, ScormAnalyzeResponse, ScormBackupsResponse, ScormLaunch, ScormVerification, SCORM_EDITOR_MESSAGES as M } from '@portal/contracts'
import { CAPTIVATE_MESSAGES, parseCaptivateProject } from '@portal/contracts/captivate'
import { captivateFixture } from '@portal/contracts/test-support/captivate-fixture'
import { createHarness, type Harness, type TestUser } from '../../harness.test-support.ts'
import { insertCourse, insertModule, markInstalled } from '../progress/course-runtime.test-support.ts'
import { send } from '../course-forms.test-support.ts'

const zip = unzipSync(captivateFixture())
const original = { txt: zip['project.txt']!, js: zip['assets/js/project.js']! }

let h: Harness
let admin: TestUser
let learner: TestUser
let courseId: number

/** A module holding the Captivate fixture, extracted as the ingest worker would; `skip` leaves files out. */
async function captivateModule(over: Record<string, Uint8Array | null> = {}) {
  const id = await insertModule(h, courseId, { isScorm: true, title: 'Pump Station Safety' })
  for (const [name, bytes] of Object.entries({ ...zip, ...over })) if (bytes) await h.storage.put(`modules/${id}/content/${name}`, Readable.from([Buffer.from(bytes)]))
  await markInstalled(h, id, strFromU8(zip['imsmanifest.xml']!))
  return id
}

beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true, name: 'Ada Admin' })
  learner = await h.user({ name: 'Lee Learner' })
  courseId = await insertCourse(h, { assignedTo: [learner.id] })
})
afterAll(async () => {
  await h?.close()
})

const edit = (body: Record<string, unknown>, who: TestUser = admin) => h.call('POST', '/scorm-editor/edit-timing', { token: who.token, body })
const launch = async (moduleId: number, who: TestUser = learner) => {
  const res = await h.call('GET', `/scorm/${moduleId}/launch`, { token: who.token })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return ScormLaunch.parse(res.body)
}
/** A file of the package as a launch's content URL serves it. */
const served = async (l: ScormLaunch, path: string) => {
  const res = await h.app.request(`${l.contentBase.replace(/^\/api/, '')}${path}`)
  expect(res.status, path).toBe(200)
  return new Uint8Array(await res.arrayBuffer())
}
const servedProject = async (l: ScormLaunch) =>
  parseCaptivateProject({ projectTxt: strFromU8(await served(l, 'project.txt')), projectJs: strFromU8(await served(l, 'assets/js/project.js')) })

describe('who may use the timing editor', () => {
  it('admins only: learners 403, no token 401, on every route', async () => {
    const id = await captivateModule()
    const routes: [string, string, Record<string, unknown> | undefined][] = [
      ['POST', '/scorm-editor/analyze', { moduleId: id }],
      ['POST', '/scorm-editor/edit-timing', { moduleId: id, slideId: 'Slide1002', slideName: 'x' }],
      ['GET', `/scorm-editor/backups/${id}`, undefined],
      ['POST', '/scorm-editor/restore', { moduleId: id, backupId: 1 }],
      ['GET', `/scorm-editor/verify/${id}`, undefined],
    ]
    for (const [method, path, body] of routes) {
      expect((await h.call(method, path, { token: learner.token, body })).status, path).toBe(403)
      expect((await h.call(method, path, { body })).status, path).toBe(401)
    }
    expect((await h.call('GET', `/scorm-editor/backups/${id}`, { token: admin.token })).status).toBe(200)
    // Nothing was changed by the refused calls.
    expect((await h.call('GET', `/scorm-editor/edit/${id}`, { token: learner.token })).body).toEqual({ hasEdits: false })
  })
})

describe('POST /scorm-editor/analyze', () => {
  it('answers the module and its video slides, videos and frame rate', async () => {
    const id = await captivateModule()
    const res = await h.call('POST', '/scorm-editor/analyze', { token: admin.token, body: { moduleId: id } })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const { module, analysis } = ScormAnalyzeResponse.parse(res.body)
    expect(module.id).toBe(id)
    expect(analysis.frameRate).toBe(30)
    expect(analysis.referencedVideo).toBe('pump-overview.mp4')
    expect(analysis.videoSlides.map((s) => [s.id, s.name, s.durationInSeconds, s.durationInFrames, s.durationFormatted])).toEqual([
      ['Slide1002', 'Pump overview', 30, 900, '00:00:30'],
      ['Slide1003', 'Lockout procedure', 45, 1350, '00:00:45'],
      ['Slide1004', 'Field walk-through (long)', 1920, 57600, '00:32:00'],
    ])
    // Estimated from the MP4s themselves (2–4 s test patterns), not from the slides.
    expect(analysis.videos.map((v) => v.fileName)).toEqual(['pump-overview.mp4', 'lockout.mp4', 'walkthrough.mp4'])
    for (const v of analysis.videos) {
      expect(v.estimatedDurationSeconds).toBeGreaterThan(1)
      expect(v.estimatedDurationSeconds).toBeLessThan(5)
    }
  })

  it('refuses what is not a Captivate package, a file module and a bad id', async () => {
    const plain = await captivateModule({ 'project.txt': null, 'assets/js/project.js': null })
    expect(await h.call('POST', '/scorm-editor/analyze', { token: admin.token, body: { moduleId: plain } })).toEqual({
      status: 422,
      body: { message: CAPTIVATE_MESSAGES.unreadable, code: 'project_unreadable' },
    })
    const pdf = await insertModule(h, courseId, { title: 'Handbook' })
    expect((await h.call('POST', '/scorm-editor/analyze', { token: admin.token, body: { moduleId: pdf } })).body).toMatchObject({ code: 'not_scorm', message: M.notScorm })
    expect((await h.call('POST', '/scorm-editor/analyze', { token: admin.token, body: { moduleId: 999999 } })).status).toBe(404)
    expect((await h.call('POST', '/scorm-editor/analyze', { token: admin.token, body: { moduleId: 'x' } })).status).toBe(400)
  })
})

describe('POST /scorm-editor/edit-timing', () => {
  it('a name-only update renames the slide in both files and answers changes.slideName', async () => {
    const id = await captivateModule()
    const res = await edit({ moduleId: id, slideId: 'Slide1002', slideName: 'Pump basics' })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const body = EditTimingResponse.parse(res.body)
    expect(body.message).toBe(M.saved)
    expect(body.changes.slideName).toEqual({
      from: 'Pump overview',
      to: 'Pump basics',
      slideFoundAtLine:
        strFromU8(original.js)
          .split('\n')
          .findIndex((l) => l.includes('Slide1002: {')) + 1,
      totalLines: strFromU8(original.js).split('\n').length,
      filesUpdated: { mainFile: true, companionFile: true },
    })
    expect(body.changes.timeDifference).toBeUndefined()
    expect((await h.call('GET', `/scorm-editor/edit/${id}`, { token: learner.token })).body).toEqual({ hasEdits: true })
    const project = await servedProject(await launch(id))
    expect(project.slides.map((s) => s.name)[1]).toBe('Pump basics')
    expect(project.slides.map((s) => s.to)).toEqual([150, 1050, 2400, 60000, 60600, 60840])
  })

  it('a duration update moves every later frame range and answers the time difference', async () => {
    const id = await captivateModule()
    const res = await edit({ moduleId: id, slideId: 'Slide1003', duration: '1:00', slideName: 'Lockout' })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const body = EditTimingResponse.parse(res.body)
    expect(body.message).toBe(M.timingUpdated('+00:00:15'))
    expect(body.changes).toMatchObject({ timeDifference: { frames: 450, seconds: 15, formatted: '+00:00:15' }, oldDuration: '00:00:45', newDuration: '00:01:00' })
    expect(body.changes.slideName?.to).toBe('Lockout')
    const project = await servedProject(await launch(id))
    expect(project.durationInFrames).toBe(60840 + 450)
    expect(project.slides.map((s) => [s.name, s.from, s.to])).toEqual([
      ['Welcome', 1, 150],
      ['Pump overview', 151, 1050],
      ['Lockout', 1051, 2850],
      ['Field walk-through (long)', 2851, 60450],
      ['Knowledge check', 60451, 61050],
      ['Summary', 61051, 61290],
    ])
    // HH:MM:SS too; shortening answers a negative difference.
    const shorter = await edit({ moduleId: id, slideId: 'Slide1004', duration: '00:00:03' })
    expect(shorter.body.changes.timeDifference.formatted).toBe('-00:31:57')
  })

  it('refuses bad input and leaves the package as it was', async () => {
    const id = await captivateModule()
    const cases: [Record<string, unknown>, number, string][] = [
      [{ moduleId: id, slideId: 'Slide9999', duration: '00:10' }, 404, 'slide_not_found'],
      [{ moduleId: id, slideId: 'Slide1002', duration: '10 minutes' }, 400, 'bad_duration'],
      [{ moduleId: id, slideId: 'Slide1002', duration: '00:61' }, 400, 'bad_duration'],
      [{ moduleId: id, slideId: 'Slide1002' }, 400, 'duration_required'],
      [{ moduleId: id, slideId: 'Slide1001', duration: '00:10' }, 400, 'no_video'],
      [{ moduleId: id, slideId: '', duration: '00:10' }, 400, 'validation_failed'],
      [{ moduleId: id, slideId: 'Slide1002', duration: '00:00:00' }, 400, 'bad_duration'],
    ]
    for (const [body, status, code] of cases) {
      const res = await edit(body)
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([status, code])
    }
    expect((await edit({ moduleId: id, slideId: 'Slide1001', duration: '00:10' })).body.message).toBe(M.noVideo)
    expect((await edit({ moduleId: id, slideId: '', duration: '00:10' })).body.message).toBe(M.selectSlide)
    expect((await edit({ moduleId: id, slideId: 'Slide1002' })).body.message).toBe(M.enterDuration)
    expect((await h.call('GET', `/scorm-editor/edit/${id}`, { token: learner.token })).body).toEqual({ hasEdits: false })
    expect(ScormBackupsResponse.parse((await h.call('GET', `/scorm-editor/backups/${id}`, { token: admin.token })).body).backups).toEqual([])
    expect(await h.storage.list(`modules/${id}/edits`)).toEqual([])
  })

  it('refuses a corrupt project.js and a module that is not a Captivate package, changing nothing', async () => {
    const corrupt = await captivateModule({ 'assets/js/project.js': Buffer.from(strFromU8(original.js).replace('to: 2400,', 'to: ,')) })
    expect(await edit({ moduleId: corrupt, slideId: 'Slide1002', duration: '00:40' })).toEqual({
      status: 422,
      body: { message: CAPTIVATE_MESSAGES.unreadable, code: 'project_unreadable' },
    })
    const plain = await captivateModule({ 'project.txt': null, 'assets/js/project.js': null })
    expect((await edit({ moduleId: plain, slideId: 'Slide1002', slideName: 'x' })).status).toBe(422)
    for (const id of [corrupt, plain]) {
      expect((await h.call('GET', `/scorm-editor/edit/${id}`, { token: learner.token })).body).toEqual({ hasEdits: false })
      expect(await h.storage.list(`modules/${id}/edits`)).toEqual([])
    }
    const [garbage] = await h.sql<{ n: number }>("select count(*)::int as n from storage_garbage where key like 'modules/%'")
    expect(garbage!.n).toBe(0)
  })

  it('multipart with a replacement video stores it at the slide video path (duration from the video when none is given)', async () => {
    const id = await captivateModule()
    const form = new FormData()
    form.set('moduleId', String(id))
    form.set('slideId', 'Slide1002')
    form.set('videoFile', new File([zip['assets/videos/lockout.mp4']!], 'new.mp4', { type: 'video/mp4' }))
    const res = await send(h, 'POST', '/scorm-editor/edit-timing', form, admin.token)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const body = EditTimingResponse.parse(res.body)
    expect(body.changes.videoReplaced).toBe(true)
    const l = await launch(id)
    expect(await served(l, 'assets/videos/pump-overview.mp4')).toEqual(zip['assets/videos/lockout.mp4'])
    const slide = (await servedProject(l)).slides[1]!
    expect(slide.durationInFrames).toBe(Math.round(body.changes.timeDifference!.frames + 900))
    expect(await h.storage.list('uploads')).toEqual([])
  })
})

describe('edits at the same moment', () => {
  it('are applied one after the other: no change is lost', async () => {
    const id = await captivateModule()
    const answers = await Promise.all([
      edit({ moduleId: id, slideId: 'Slide1002', duration: '00:40' }),
      edit({ moduleId: id, slideId: 'Slide1004', slideName: 'Walk-through' }),
      edit({ moduleId: id, slideId: 'Slide1003', duration: '00:50' }),
    ])
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200])
    h.advance(1000)
    const project = await servedProject(await launch(id))
    expect(project.slides.map((s) => [s.name, s.from, s.to])).toEqual([
      ['Welcome', 1, 150],
      ['Pump overview', 151, 1350],
      ['Lockout procedure', 1351, 2850],
      ['Walk-through', 2851, 60450],
      ['Knowledge check', 60451, 61050],
      ['Summary', 61051, 61290],
    ])
    expect(ScormBackupsResponse.parse((await h.call('GET', `/scorm-editor/backups/${id}`, { token: admin.token })).body).backups).toHaveLength(3)
  })
})

describe('learners during an edit', () => {
  it('a launch reads one revision: issued before the edit it keeps the old files, after it the new ones', async () => {
    const id = await captivateModule()
    const before = await launch(id)
    expect(await served(before, 'project.txt')).toEqual(original.txt)
    h.advance(1000)
    expect((await edit({ moduleId: id, slideId: 'Slide1003', duration: '00:50' })).status).toBe(200)
    h.advance(1000)
    const after = await launch(id)
    // The earlier launch still gets both old files, the later one both new files: never a mix.
    expect(await served(before, 'project.txt')).toEqual(original.txt)
    expect(await served(before, 'assets/js/project.js')).toEqual(original.js)
    const project = await servedProject(after)
    expect(project.slides[2]!.durationInFrames).toBe(1500)
    // Unedited files come from the package as extracted.
    expect(await served(after, 'assets/videos/lockout.mp4')).toEqual(zip['assets/videos/lockout.mp4'])
  })
})

describe('backups, restore and verification', () => {
  it('every change backs up both files first (who, when, name); restore brings back the exact bytes', async () => {
    const id = await captivateModule()
    expect((await edit({ moduleId: id, slideId: 'Slide1002', duration: '00:35' })).status).toBe(200)
    expect((await edit({ moduleId: id, slideId: 'Slide1003', slideName: 'Lockout' })).status).toBe(200)
    const { backups } = ScormBackupsResponse.parse((await h.call('GET', `/scorm-editor/backups/${id}`, { token: admin.token })).body)
    expect(backups).toHaveLength(2)
    expect(backups[0]!.backup_name).toMatch(/^Before renaming "Lockout procedure" \(/)
    expect(backups[1]!.backup_name).toMatch(/^Before retiming "Pump overview" \(/)
    expect(backups.every((b) => b.creator?.username === 'Ada Admin' && !Number.isNaN(Date.parse(b.created_at)))).toBe(true)

    const first = backups[1]!
    const res = await h.call('POST', '/scorm-editor/restore', { token: admin.token, body: { moduleId: id, backupId: first.id } })
    expect(res).toEqual({ status: 200, body: { message: M.restored(first.backup_name), restoredFrom: first } })
    h.advance(1000)
    const l = await launch(id)
    expect(await served(l, 'project.txt')).toEqual(original.txt)
    expect(await served(l, 'assets/js/project.js')).toEqual(original.js)
    // The restore itself was backed up first: the edited state can come back too.
    const after = ScormBackupsResponse.parse((await h.call('GET', `/scorm-editor/backups/${id}`, { token: admin.token })).body).backups
    expect(after).toHaveLength(3)
    expect(after[0]!.backup_name).toMatch(/^Before restoring "Before retiming/)
    expect((await h.call('POST', '/scorm-editor/restore', { token: admin.token, body: { moduleId: id, backupId: after[0]!.id } })).status).toBe(200)
    h.advance(1000)
    expect((await servedProject(await launch(id))).slides.map((s) => s.name)[2]).toBe('Lockout')

    // Another module's backup, or none: 404.
    const other = await captivateModule()
    expect((await h.call('POST', '/scorm-editor/restore', { token: admin.token, body: { moduleId: other, backupId: first.id } })).status).toBe(404)

    // Each edit and restore is in learning's audit trail, with who did it (decision 0030).
    const trail = AuditEntriesResponse.parse((await h.call('GET', '/admin/audit/learning?action=scorm.', { token: admin.token })).body)
    const restored = trail.filter((e) => e.action === 'scorm.restored').map((e) => [e.actor_name, e.target, e.details])
    expect(restored).toContainEqual(['Ada Admin', first.backup_name, { backupId: first.id }])
    const edits = trail.filter((e) => e.action === 'scorm.timing_edited' && [backups[0]!.id, backups[1]!.id].includes(e.details.backupId as number))
    expect(edits).toHaveLength(2)
  })

  it('verify reports the files a launch reads, their sizes, hashes and whether they parse', async () => {
    const id = await captivateModule()
    const fresh = ScormVerification.parse((await h.call('GET', `/scorm-editor/verify/${id}`, { token: admin.token })).body)
    expect(fresh).toMatchObject({ moduleId: id, s3Key: `modules/${id}/content`, hasEdits: false, slideCount: 6, error: null })
    expect(fresh.files.projectTxt).toMatchObject({
      path: 'project.txt',
      key: `modules/${id}/content/project.txt`,
      exists: true,
      size: original.txt.length,
      parses: true,
      edited: false,
    })
    await edit({ moduleId: id, slideId: 'Slide1002', duration: '00:31' })
    const edited = ScormVerification.parse((await h.call('GET', `/scorm-editor/verify/${id}`, { token: admin.token })).body)
    expect(edited.hasEdits).toBe(true)
    expect(edited.files.projectJs).toMatchObject({ path: 'assets/js/project.js', exists: true, parses: true, edited: true })
    expect(edited.files.projectJs.key).toMatch(new RegExp(`^modules/${id}/edits/`))
    expect(edited.files.projectJs.sha256).not.toBe(fresh.files.projectJs.sha256)
  })
})
