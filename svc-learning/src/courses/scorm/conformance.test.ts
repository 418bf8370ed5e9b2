// SCORM run-time conformance rules the commit endpoint and the launch own (issue 17 items 1, 2, 3;
// the deleted learner of issue 9): probe packages are manifests written here, installed directly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COURSE_MESSAGES, ScormLaunch } from '@portal/contracts'
import { toStoredManifest } from '../course.entity.ts'
import { parseManifest } from '../scorm-packages/manifest.ts'
import { insertCourse, insertModule } from '../progress/course-runtime.test-support.ts'
import { createHarness, type Harness, type TestUser } from '../../harness.test-support.ts'

/** A one-SCO SCORM 2004 3rd edition manifest; `threshold` adds an adlcp:completionThreshold. */
const manifest2004 = (threshold?: number) => `<?xml version="1.0"?>
<manifest identifier="probe" version="1" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 3rd Edition</schemaversion></metadata>
  <organizations default="org"><organization identifier="org"><title>Probe</title>
    <item identifier="sco" identifierref="res"><title>Probe SCO</title>${threshold === undefined ? '' : `<adlcp:completionThreshold>${threshold}</adlcp:completionThreshold>`}</item>
  </organization></organizations>
  <resources><resource identifier="res" type="webcontent" adlcp:scormType="sco" href="sco.html"><file href="sco.html"/></resource></resources>
</manifest>`

async function installManifest(h: Harness, moduleId: number, xml: string) {
  const info = parseManifest(xml)
  await h.sql(
    `update course_modules set is_scorm = true, processing_status = 'ready', manifest = ?::jsonb, content_prefix = ?, scorm_version = ?, scorm_edition = ?, sco_count = ? where id = ?`,
    [JSON.stringify(toStoredManifest(info)), `modules/${moduleId}/content`, info.version, info.edition, info.scoCount, moduleId],
  )
}

let h: Harness
let learner: TestUser
let courseId: number

beforeAll(async () => {
  h = await createHarness()
  learner = await h.user({ name: 'Lee Learner' })
  courseId = await insertCourse(h, { assignedTo: [learner.id] })
})
afterAll(async () => {
  await h?.close()
})

const probeModule = async (xml = manifest2004()) => {
  const id = await insertModule(h, courseId, { isScorm: true, title: 'Probe' })
  await installManifest(h, id, xml)
  return id
}
const launch = async (moduleId: number, who: TestUser = learner): Promise<ScormLaunch> => {
  const res = await h.call('GET', `/scorm/${moduleId}/launch`, { token: who.token })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return ScormLaunch.parse(res.body)
}
const commit = async (l: ScormLaunch, body: Record<string, unknown>) => {
  const res = await h.app.request(l.commitUrl.replace(/^\/api/, ''), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ itemId: 'sco', revision: l.revision, ...body }),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}
const cmi = (over: Record<string, unknown> = {}) => ({ cmi: { completion_status: 'incomplete', location: 'p1', suspend_data: '', exit: '', session_time: 'PT1S', ...over } })
const stored = async (moduleId: number) =>
  (
    await h.sql<{ location: string; lesson_status: string; total_time: string; exit: string }>(
      'select location, lesson_status, total_time, exit from scorm_states where user_id = ? and module_id = ?',
      [learner.id, moduleId],
    )
  )[0]
const completedAt = async (moduleId: number) =>
  (await h.sql<{ completed_at: Date | null }>('select completed_at from module_progress where user_id = ? and module_id = ?', [learner.id, moduleId]))[0]?.completed_at

describe('two tabs of one module (issue 17 item 3)', () => {
  it('an idle tab opened later cannot overwrite newer work of an earlier one: its commits are refused, never answered as saved', async () => {
    const moduleId = await probeModule()
    const a = await launch(moduleId)
    expect(a.revision).toBe(0)
    expect((await commit(a, { seq: 1, runtimeData: cmi({ location: 'a-1' }) })).body).toMatchObject({ result: true, applied: true })
    // Tab B opens after A's first commit and stays idle.
    const b = await launch(moduleId)
    expect(b.revision).toBe(1)
    expect((await commit(a, { seq: 2, runtimeData: cmi({ location: 'a-2' }) })).body).toMatchObject({ result: true, applied: true })
    // B is closed: its dismissal commit (the data it loaded) must not win over A's newer work.
    const dismissal = await commit(b, { seq: 1, terminated: true, runtimeData: cmi({ location: 'a-1' }) })
    expect(dismissal).toEqual({ status: 409, body: { result: false, errorCode: 101, code: 'stale_commit', message: COURSE_MESSAGES.staleCommit } })
    expect(await stored(moduleId)).toMatchObject({ location: 'a-2' })
    // A goes on saving, and its later commits are stored.
    expect((await commit(a, { seq: 3, runtimeData: cmi({ location: 'a-3' }) })).body).toMatchObject({ result: true, applied: true })
    expect(await stored(moduleId)).toMatchObject({ location: 'a-3' })
  })

  it('the tab that saves first wins; the other is told on its next commit; a new launch carries on from the stored work', async () => {
    const moduleId = await probeModule()
    const a = await launch(moduleId)
    const b = await launch(moduleId)
    expect((await commit(b, { seq: 1, runtimeData: cmi({ location: 'b-1' }) })).status).toBe(200)
    expect((await commit(a, { seq: 1, runtimeData: cmi({ location: 'a-1' }) })).status).toBe(409)
    expect((await commit(b, { seq: 2, runtimeData: cmi({ location: 'b-2' }) })).status).toBe(200)
    const again = await launch(moduleId)
    expect(again.revision).toBe(2)
    expect((await commit(again, { seq: 1, runtimeData: cmi({ location: 'c-1' }) })).status).toBe(200)
    expect((await commit(b, { seq: 3, runtimeData: cmi({ location: 'b-3' }) })).status).toBe(409)
    expect(await stored(moduleId)).toMatchObject({ location: 'c-1' })
  })
})

describe('reopening in the same tab', () => {
  it('a closed viewer’s last beacon arriving after the module was opened again does not make the new launch stale', async () => {
    const moduleId = await probeModule()
    const first = await launch(moduleId)
    await commit(first, { seq: 1, runtimeData: cmi({ location: 'p1', exit: 'suspend' }) })
    const again = await launch(moduleId)
    // The first launch's dismissal beacon is processed only now.
    expect((await commit(first, { seq: 2, terminated: true, runtimeData: cmi({ location: 'p1', exit: 'suspend' }) })).status).toBe(200)
    expect((await commit(again, { seq: 1, runtimeData: cmi({ location: 'p2', exit: 'suspend' }) })).status).toBe(200)
    expect(await stored(moduleId)).toMatchObject({ location: 'p2' })
    // …but a later launch's commit after an earlier one's ordinary commit is still refused.
    const late = await launch(moduleId)
    expect((await commit(again, { seq: 2, runtimeData: cmi({ location: 'p3', exit: 'suspend' }) })).status).toBe(200)
    expect((await commit(late, { seq: 1, terminated: true, runtimeData: cmi({ location: 'p2', exit: 'suspend' }) })).status).toBe(409)
  })
})

describe('attempts (issue 17 item 1, RTE 4.2.9)', () => {
  it('after a normal exit the next launch starts a new attempt (ab-initio, no data); the ended attempt is kept for history', async () => {
    const moduleId = await probeModule()
    const first = await launch(moduleId)
    await commit(first, { seq: 1, terminated: true, runtimeData: cmi({ location: 'p4', suspend_data: 'old', completion_status: 'completed', exit: 'normal', total_time: 'PT2M' }) })
    const second = await launch(moduleId)
    expect(second.state).toEqual({})
    expect(second.startItem).toBe('sco')
    // Until the new attempt commits, the record still shows the ended one.
    expect(await stored(moduleId)).toMatchObject({ location: 'p4', lesson_status: 'completed' })
    await commit(second, { seq: 1, runtimeData: cmi({ location: 'n1' }) })
    expect(await stored(moduleId)).toMatchObject({ location: 'n1', lesson_status: 'incomplete', total_time: 'PT0S' })
    const history = await h.sql('select item_id, lesson_status, total_time, exit, cmi #>> ? as location from scorm_attempts where user_id = ? and module_id = ?', [
      '{cmi,location}',
      learner.id,
      moduleId,
    ])
    expect(history).toEqual([{ item_id: 'sco', lesson_status: 'completed', total_time: 'PT2M', exit: 'normal', location: 'p4' }])
    // The module completed by the first attempt stays completed.
    expect(await completedAt(moduleId)).not.toBeNull()
  })

  it('an exit of suspend resumes the attempt with its data; an empty exit ends it too', async () => {
    const moduleId = await probeModule()
    const first = await launch(moduleId)
    await commit(first, { seq: 1, terminated: true, runtimeData: cmi({ location: 'p2', suspend_data: 'keep', exit: 'suspend', total_time: 'PT1M' }) })
    const second = await launch(moduleId)
    expect(second.state.sco).toMatchObject({ entry: 'resume' })
    expect((second.state.sco!.cmi.cmi as Record<string, unknown>).suspend_data).toBe('keep')
    // The resumed attempt's commits before Terminate keep its total time.
    await commit(second, { seq: 1, runtimeData: cmi({ location: 'p3', exit: '' }) })
    expect(await stored(moduleId)).toMatchObject({ location: 'p3', total_time: 'PT1M' })
    const third = await launch(moduleId)
    expect(third.state).toEqual({})
    expect(await h.sql('select 1 from scorm_attempts where module_id = ?', [moduleId])).toHaveLength(0)
  })
})

describe('completion threshold (issue 17 item 2)', () => {
  it('decides the completion status when the content reports a progress measure: below it, "completed" does not complete the module', async () => {
    const moduleId = await probeModule(manifest2004(0.6))
    const l = await launch(moduleId)
    const out = await commit(l, { seq: 1, runtimeData: cmi({ completion_status: 'completed', progress_measure: '0.5' }) })
    expect(out.body).toMatchObject({ result: true, applied: true, moduleCompleted: false })
    expect(await stored(moduleId)).toMatchObject({ lesson_status: 'incomplete' })
    const [row] = await h.sql<{ status: string }>("select cmi #>> '{cmi,completion_status}' as status from scorm_states where module_id = ?", [moduleId])
    expect(row!.status).toBe('incomplete')
    const reached = await commit(l, { seq: 2, runtimeData: cmi({ completion_status: 'incomplete', progress_measure: '0.6' }) })
    expect(reached.body).toMatchObject({ applied: true, moduleCompleted: true })
    expect(await stored(moduleId)).toMatchObject({ lesson_status: 'completed' })
  })

  it('without a progress measure the content’s status stands', async () => {
    const moduleId = await probeModule(manifest2004(0.6))
    const l = await launch(moduleId)
    expect((await commit(l, { seq: 1, runtimeData: cmi({ completion_status: 'completed' }) })).body).toMatchObject({ moduleCompleted: true })
  })
})

describe('a deleted learner (issue 9)', () => {
  it('cannot commit with an old launch token on a course assigned to everyone', async () => {
    const gone = await h.user()
    const toAll = await insertCourse(h, { toAll: true })
    const moduleId = await insertModule(h, toAll, { isScorm: true })
    await installManifest(h, moduleId, manifest2004())
    const l = await launch(moduleId, gone)
    expect((await commit(l, { seq: 1, runtimeData: cmi() })).status).toBe(200)
    await h.bus.publish({ id: crypto.randomUUID(), type: 'identity.user.deleted.v1', occurredAt: new Date().toISOString(), data: { userId: gone.id } })
    await expect.poll(async () => (await h.sql('select 1 from users where id = ? and deleted_at is not null', [gone.id])).length).toBe(1)
    const refused = await commit(l, { seq: 2, runtimeData: cmi({ location: 'after' }) })
    expect(refused).toMatchObject({ status: 403, body: { result: false, code: 'course_not_assigned' } })
    expect(await h.sql("select 1 from scorm_states where user_id = ? and module_id = ? and location = 'after'", [gone.id, moduleId])).toEqual([])
  })
})

describe('completion that can be trusted (issue 15 item 1)', () => {
  const complete = (moduleId: number, trigger: string) => h.call('PUT', `/modules/${moduleId}/complete`, { token: learner.token, body: { courseId, trigger } })

  it('a package that talks to the runtime is completed by its own status only, and the learner is shown what completed it', async () => {
    const moduleId = await probeModule()
    const l = await launch(moduleId)
    await commit(l, { seq: 1, runtimeData: cmi({ completion_status: 'incomplete', location: 'page-1' }) })
    // Long enough for the engagement rule: still no fallback completes content that says incomplete.
    h.advance(30 * 60_000)
    for (const trigger of ['tracker', 'module-close', 'frame-reload', 'completion-url', 'manual']) {
      const res = await complete(moduleId, trigger)
      expect([res.status, res.body.code, res.body.message], trigger).toEqual([422, 'content_decides', COURSE_MESSAGES.contentDecides])
    }
    expect(await completedAt(moduleId)).toBeNull()
    const done = await commit(l, { seq: 2, runtimeData: cmi({ completion_status: 'completed' }) })
    expect(done.body).toMatchObject({ moduleCompleted: true })
    const list = await h.call('GET', `/modules/course/${courseId}/progress`, { token: learner.token })
    const mod = (list.body.data.modules as { id: number; completed_by: string | null }[]).find((m) => m.id === moduleId)
    expect(mod?.completed_by).toBe('scorm-commit')
  })

  it('silent content (nothing committed by a runtime) keeps the fallback rules', async () => {
    const moduleId = await probeModule()
    await launch(moduleId)
    h.advance(30 * 60_000)
    expect((await h.call('PUT', `/modules/${moduleId}/progress`, { token: learner.token, body: { courseId, progress: 90 } })).status).toBe(200)
    const res = await complete(moduleId, 'tracker')
    expect(res.body).toMatchObject({ newly_completed: true })
    const list = await h.call('GET', `/modules/course/${courseId}/progress`, { token: learner.token })
    expect((list.body.data.modules as { id: number; completed_by: string | null }[]).find((m) => m.id === moduleId)?.completed_by).toBe('tracker')
  })
})

describe('the progress record’s times (issue 17 item 10)', () => {
  it('shows a 2004 total time of PT1H30M as 0001:30:00, also when a later commit before Terminate carries none', async () => {
    const moduleId = await probeModule()
    const l = await launch(moduleId)
    await commit(l, { seq: 1, terminated: true, runtimeData: cmi({ session_time: 'PT1H30M', total_time: 'PT1H30M', exit: 'suspend' }) })
    const record = async () => (await h.call('GET', `/scorm/progress/${moduleId}`, { token: learner.token })).body as { totalTime: string; sessionTime: string }
    expect(await record()).toMatchObject({ totalTime: '0001:30:00', sessionTime: '0001:30:00' })
    const next = await launch(moduleId)
    await commit(next, { seq: 1, runtimeData: cmi({ session_time: 'PT5M', exit: 'suspend' }) })
    expect(await record()).toMatchObject({ totalTime: '0001:30:00', sessionTime: '0000:05:00' })
  })
})
