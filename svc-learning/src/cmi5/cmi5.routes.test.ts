import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Readable } from 'node:stream'
import { COURSE_MESSAGES, Cmi5Launch, Cmi5Status, type Cmi5Au, type Cmi5Block, type Cmi5Course, type Cmi5MoveOn } from '@portal/contracts'
import { CONTENT_ORIGIN, createHarness, type Harness, type TestUser } from '../harness.test-support.ts'
import { authTokenHash, learnerAgent, storeAuStatements, type Cmi5SessionCredential, type XapiStatement } from '../lrs/index.ts'
import { createCmi5Service, FETCH_ERRORS, type Cmi5Service } from './cmi5.service.ts'
import { CATEGORY, EXT, VERB } from './vocabulary.ts'

let h: Harness
let svc: Cmi5Service
let admin: TestUser
let learner: TestUser
let stranger: TestUser
let courseId: number

const HOUR = 3600_000

/** A course (assigned to `assignedTo`), inserted as admins' forms would leave it. */
async function insertCourse(hh: Harness, opts: { title?: string; assignedTo?: string[] } = {}): Promise<number> {
  const at = hh.now()
  const [row] = await hh.sql<{ id: number }>('insert into courses (title, is_assigned_to_all, created_at, updated_at) values (?, false, ?, ?) returning id', [
    opts.title ?? 'Ladder course',
    at,
    at,
  ])
  for (const userId of opts.assignedTo ?? []) await hh.sql('insert into course_assignments (course_id, user_id, assigned_at) values (?, ?, ?)', [row!.id, userId, at])
  return row!.id
}

/** A ready module row: a package (`isScorm`) or a PDF file. */
async function insertModule(hh: Harness, cId: number, opts: { isScorm?: boolean; title?: string } = {}): Promise<number> {
  const at = hh.now()
  const [row] = await hh.sql<{ id: number }>(
    `insert into course_modules (course_id, title, position, original_name, content_type, size, is_scorm, storage_key, processing_status, created_at, updated_at)
     values (?, ?, 1, ?, ?, 0, ?, 'pending', 'ready', ?, ?) returning id`,
    [cId, opts.title ?? 'Module', opts.isScorm ? 'package.zip' : 'intro.pdf', opts.isScorm ? 'application/zip' : 'application/pdf', !!opts.isScorm, at, at],
  )
  return row!.id
}

const au = (id: string, moveOn: Cmi5MoveOn, over: Partial<Cmi5Au> = {}): Cmi5Au => ({
  kind: 'au',
  id: `https://example.test/course/au/${id}`,
  title: `AU ${id}`,
  description: null,
  url: `${id}/index.html`,
  launchMethod: 'AnyWindow',
  moveOn,
  masteryScore: null,
  launchParameters: null,
  entitlementKey: null,
  activityType: null,
  objectives: [],
  ...over,
})
const block = (id: string, children: (Cmi5Au | Cmi5Block)[]): Cmi5Block => ({
  kind: 'block',
  id: `https://example.test/course/block/${id}`,
  title: `Block ${id}`,
  description: null,
  objectives: [],
  children,
})
const structure = (children: (Cmi5Au | Cmi5Block)[], id = 'https://example.test/course'): Cmi5Course => ({
  id,
  title: 'Ladder course',
  description: null,
  objectives: [],
  children,
})

/** A ready cmi5 module of `course` (as H1's ingest stores one: the structure beside the viewer's item tree). */
async function cmi5Module(course: Cmi5Course, opts: { courseId?: number; title?: string } = {}): Promise<number> {
  const id = await insertModule(h, opts.courseId ?? courseId, { isScorm: true, title: opts.title ?? 'cmi5 module' })
  const items: unknown[] = []
  await h.sql(
    `update course_modules set processing_status = 'ready', scorm_version = 'cmi5', scorm_edition = null, scorm_editable = false, manifest = ?::jsonb, content_prefix = ?, sco_count = ? where id = ?`,
    [JSON.stringify({ title: course.title, items, cmi5: course }), `modules/${id}/content`, 1, id],
  )
  return id
}

const launch = async (moduleId: number, auId: string, who: TestUser = learner): Promise<Cmi5Launch> => {
  const res = await h.call('POST', `/cmi5/${moduleId}/launch`, { token: who.token, body: { au_id: auId } })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return Cmi5Launch.parse(res.body)
}
const params = (l: Cmi5Launch) => new URL(l.url).searchParams
const fetchToken = async (l: Cmi5Launch) => {
  const res = await h.app.request(new URL(params(l).get('fetch')!).pathname.replace(/^\/api/, ''), { method: 'POST' })
  return { status: res.status, body: (await res.json()) as Record<string, string> }
}

/** The session as the LRS knows it from the auth-token (what createLrs hands onStatements). */
async function credential(sessionId: string): Promise<Cmi5SessionCredential> {
  const [r] = await h.sql<{
    session_id: string
    registration: string
    au_id: string
    user_id: string
    module_id: number
    course_id: number
    terminated_at: Date | null
    abandoned_at: Date | null
  }>(
    `select s.session_id, s.registration, s.au_id, r.user_id, r.module_id, r.course_id, s.terminated_at, s.abandoned_at
       from cmi5_sessions s join cmi5_registrations r using (registration) where s.session_id = ?`,
    [sessionId],
  )
  return {
    sessionId: r!.session_id,
    registration: r!.registration,
    auId: r!.au_id,
    userId: r!.user_id,
    moduleId: r!.module_id,
    courseId: r!.course_id,
    terminatedAt: r!.terminated_at,
    abandonedAt: r!.abandoned_at,
  }
}

/**
 * What an AU sends through the LRS (statements stored, then the runtime's hook in the same
 * transaction): cmi5 defined statements built from its launch (actor, activityId, registration)
 * and the context template of its LaunchData; `allowed` leaves the cmi5 category out (§7.1.3).
 */
async function auSends(l: Cmi5Launch, sent: { verb: string; scaled?: number; allowed?: boolean }[]) {
  const p = params(l)
  const statements: XapiStatement[] = sent.map((s, i) => ({
    id: crypto.randomUUID(),
    actor: JSON.parse(p.get('actor')!),
    verb: { id: s.verb },
    object: { objectType: 'Activity', id: p.get('activityId')! },
    ...(s.verb === VERB.passed || s.verb === VERB.failed
      ? { result: { success: s.verb === VERB.passed, ...(s.scaled !== undefined ? { score: { scaled: s.scaled } } : {}), duration: 'PT5S' } }
      : s.verb === VERB.completed
        ? { result: { completion: true, duration: 'PT5S' } }
        : {}),
    context: {
      registration: p.get('registration')!,
      contextActivities: {
        grouping: [{ objectType: 'Activity', id: l.au_id }],
        ...(s.allowed ? {} : { category: [{ objectType: 'Activity', id: CATEGORY.cmi5 }] }),
      },
      extensions: { [EXT.sessionId]: l.session_id },
    },
    timestamp: new Date(h.now().getTime() + i).toISOString(),
  }))
  const session = await credential(l.session_id)
  // As the LRS stores them (its route's path, without the HTTP around it).
  await storeAuStatements(h.ctx, svc, session, statements)
}

const statementsOf = (registration: string, verb: string) =>
  h.sql<{ statement: XapiStatement; session_id: string; activity_id: string }>(
    'select statement, session_id, activity_id from xapi_statements where registration = ? and verb_id = ? order by seq',
    [registration, verb],
  )
const moduleProgress = async (moduleId: number, cId = courseId, who: TestUser = learner) => {
  const res = await h.call('GET', `/modules/course/${cId}/progress`, { token: who.token })
  expect(res.status).toBe(200)
  const m = res.body.data.modules.find((x: { id: number }) => x.id === moduleId)
  return { completed_at: m.completed_at as string | null, progress: m.progress as number, course: res.body.data.status as string }
}
const status = async (moduleId: number, who: TestUser = learner, query = '') => {
  const res = await h.call('GET', `/cmi5/${moduleId}/status${query}`, { token: who.token })
  return { status: res.status, body: res.body }
}

beforeAll(async () => {
  h = await createHarness()
  svc = createCmi5Service(h.ctx)
  admin = await h.user({ admin: true })
  learner = await h.user({ name: 'Lee Learner' })
  stranger = await h.user()
  courseId = await insertCourse(h, { assignedTo: [learner.id] })
})
afterAll(async () => {
  await h?.close()
})

describe('POST /cmi5/{moduleId}/launch', () => {
  let moduleId: number
  const first = au('intro', 'Completed', { url: 'intro/index.html?lang=en#top', masteryScore: 0.8, launchParameters: '{"level":2}', entitlementKey: 'key-42' })
  const remote = au('remote', 'Completed', { url: 'https://aus.example.org/unit.html?x=1', launchMethod: 'OwnWindow' })
  beforeAll(async () => {
    moduleId = await cmi5Module(structure([first, remote]))
    await h.storage.put(`modules/${moduleId}/content/intro/index.html`, Readable.from([Buffer.from('<html>intro</html>')]))
  })

  it('answers the AU’s URL on the content origin with endpoint, fetch, actor, registration and the LMS’s activity id, keeping its own query', async () => {
    const l = await launch(moduleId, first.id)
    expect(l).toMatchObject({ moduleId, au_id: first.id, launchMethod: 'AnyWindow' })
    const url = new URL(l.url)
    expect(url.origin).toBe(CONTENT_ORIGIN)
    expect(url.pathname).toMatch(/^\/api\/content\/[^/]+\/intro\/index\.html$/)
    expect(url.hash).toBe('#top')
    const p = url.searchParams
    expect(p.get('lang')).toBe('en')
    expect(p.get('endpoint')).toBe(`${CONTENT_ORIGIN}/api/lrs/`)
    expect(p.get('fetch')).toMatch(new RegExp(`^${CONTENT_ORIGIN}/api/cmi5/fetch/[A-Za-z0-9_-]{43}$`))
    expect(JSON.parse(p.get('actor')!)).toEqual(learnerAgent(h.ctx, learner.id))
    expect(JSON.parse(p.get('actor')!).account.name).toBe(learner.id)
    expect(p.get('registration')).toBe(l.registration)
    // cmi5 §8.1: generated, never the publisher's id, the same on every launch.
    expect(p.get('activityId')).toBe(svc.lmsIds(moduleId).au(first.id))
    expect(p.get('activityId')).not.toBe(first.id)
    expect(new Date(l.expiresAt).getTime()).toBeGreaterThan(h.now().getTime())
    // The package file plays under the launch's content root.
    const page = await h.app.request(url.pathname.replace(/^\/api/, ''))
    expect([page.status, await page.text()]).toEqual([200, '<html>intro</html>'])
    // Marked started.
    const [row] = await h.sql<{ progress: number; started_at: Date | null }>('select progress, started_at from module_progress where user_id = ? and module_id = ?', [
      learner.id,
      moduleId,
    ])
    expect(row!.progress).toBeGreaterThanOrEqual(1)
    expect(row!.started_at).not.toBeNull()
    expect((await h.events('learning.module.launched.v1')).some((e) => (e as { data: { moduleId: number; kind: string } }).data.moduleId === moduleId)).toBe(true)
  })

  it('writes LMS.LaunchData with the session’s context template, launch mode, moveOn, masteryScore, launchParameters, returnURL and entitlementKey', async () => {
    const l = await launch(moduleId, first.id)
    const [doc] = await h.sql<{ content: Buffer; content_type: string; activity_id: string }>(
      `select content, content_type, activity_id from xapi_documents where kind = 'state' and document_id = 'LMS.LaunchData' and registration = ? and activity_id = ?`,
      [l.registration, params(l).get('activityId')],
    )
    expect(doc!.content_type).toBe('application/json')
    expect(JSON.parse(doc!.content.toString('utf8'))).toEqual({
      contextTemplate: {
        contextActivities: { grouping: [{ objectType: 'Activity', id: first.id }] },
        extensions: { [EXT.sessionId]: l.session_id },
      },
      launchMode: 'Normal',
      launchParameters: '{"level":2}',
      masteryScore: 0.8,
      moveOn: 'Completed',
      returnURL: `${CONTENT_ORIGIN}/player/?cmi5-return=${moduleId}`,
      entitlementKey: { courseStructure: 'key-42' },
    })
  })

  it('records the Launched statement before the AU runs, and one registration per learner and module', async () => {
    const a = await launch(moduleId, first.id)
    const b = await launch(moduleId, first.id)
    expect(b.registration).toBe(a.registration)
    expect(b.session_id).not.toBe(a.session_id)
    const launched = (await statementsOf(a.registration, VERB.launched)).find((s) => s.session_id === b.session_id)!.statement
    expect(launched).toMatchObject({
      actor: learnerAgent(h.ctx, learner.id),
      verb: { id: VERB.launched },
      object: { id: params(b).get('activityId') },
      context: {
        registration: b.registration,
        contextActivities: { grouping: [{ id: first.id }], category: [{ id: CATEGORY.cmi5 }] },
        extensions: {
          [EXT.sessionId]: b.session_id,
          [EXT.launchMode]: 'Normal',
          [EXT.moveOn]: 'Completed',
          [EXT.masteryScore]: 0.8,
          [EXT.launchParameters]: '{"level":2}',
        },
      },
    })
    // The launch URL without the §8.1 parameters (§9.6.3.4).
    expect(launched.context!.extensions![EXT.launchUrl]).toBe(b.url.split('&endpoint=')[0] + '#top')
    expect((await h.sql('select 1 from cmi5_registrations where user_id = ? and module_id = ?', [learner.id, moduleId])).length).toBe(1)
  })

  it('abandons the AU’s earlier session that never sent Terminated when it is launched again', async () => {
    const a = await launch(moduleId, first.id)
    await auSends(a, [{ verb: VERB.initialized }])
    h.advance(30_000)
    const b = await launch(moduleId, first.id)
    const [old] = await h.sql<{ abandoned_at: Date | null; initialized_at: Date | null }>('select abandoned_at, initialized_at from cmi5_sessions where session_id = ?', [
      a.session_id,
    ])
    expect(old!.initialized_at).not.toBeNull()
    expect(old!.abandoned_at).not.toBeNull()
    const abandoned = (await statementsOf(a.registration, VERB.abandoned)).filter((s) => s.session_id === a.session_id)
    expect(abandoned).toHaveLength(1)
    expect(abandoned[0]!.statement).toMatchObject({ object: { id: params(a).get('activityId') }, context: { extensions: { [EXT.sessionId]: a.session_id } } })
    expect(abandoned[0]!.statement.result!.duration).toMatch(/^PT[\d.]+S$/)
    const [current] = await h.sql<{ abandoned_at: Date | null }>('select abandoned_at from cmi5_sessions where session_id = ?', [b.session_id])
    expect(current!.abandoned_at).toBeNull()
  })

  it('gives an absolute AU url the same parameters', async () => {
    const l = await launch(moduleId, remote.id)
    const url = new URL(l.url)
    expect(url.origin + url.pathname).toBe('https://aus.example.org/unit.html')
    expect(url.searchParams.get('x')).toBe('1')
    expect(url.searchParams.get('endpoint')).toBe(`${CONTENT_ORIGIN}/api/lrs/`)
    expect(url.searchParams.get('activityId')).toBe(svc.lmsIds(moduleId).au(remote.id))
    expect(l.launchMethod).toBe('OwnWindow')
  })

  it('refuses strangers, missing modules and AUs, modules that are not cmi5 or not ready, and bad bodies', async () => {
    expect((await h.call('POST', `/cmi5/${moduleId}/launch`, { token: stranger.token, body: { au_id: first.id } })).status).toBe(403)
    expect((await h.call('POST', `/cmi5/${moduleId}/launch`, { body: { au_id: first.id } })).status).toBe(401)
    const missing = await h.call('POST', '/cmi5/999999/launch', { token: learner.token, body: { au_id: first.id } })
    expect([missing.status, missing.body.code]).toEqual([404, 'module_not_found'])
    const unknown = await h.call('POST', `/cmi5/${moduleId}/launch`, { token: learner.token, body: { au_id: 'https://example.test/nope' } })
    expect([unknown.status, unknown.body.code, unknown.body.message]).toEqual([404, 'au_not_found', 'This cmi5 course has no such assignable unit (AU)'])
    const bad = await h.call('POST', `/cmi5/${moduleId}/launch`, { token: learner.token, body: { au: 'x' } })
    expect(bad.status).toBe(400)
    const pdf = await insertModule(h, courseId)
    const notCmi5 = await h.call('POST', `/cmi5/${pdf}/launch`, { token: learner.token, body: { au_id: first.id } })
    expect([notCmi5.status, notCmi5.body.code, notCmi5.body.message]).toEqual([400, 'not_cmi5', 'This module is not a cmi5 course'])
    const failed = await cmi5Module(structure([first]))
    await h.sql(`update course_modules set processing_status = 'failed', processing_error = 'cmi5.xml has no course element', manifest = null where id = ?`, [failed])
    const f = await h.call('POST', `/cmi5/${failed}/launch`, { token: learner.token, body: { au_id: first.id } })
    expect([f.status, f.body.code, f.body.message]).toEqual([422, 'package_failed', COURSE_MESSAGES.processingFailed])
    const a = await h.call('POST', `/cmi5/${failed}/launch`, { token: admin.token, body: { au_id: first.id } })
    expect([a.status, a.body.message]).toEqual([422, 'cmi5.xml has no course element'])
    const processing = await cmi5Module(structure([first]))
    await h.sql(`update course_modules set processing_status = 'processing' where id = ?`, [processing])
    expect((await h.call('POST', `/cmi5/${processing}/launch`, { token: learner.token, body: { au_id: first.id } })).status).toBe(409)
  })

  it('is refused by the SCORM launch', async () => {
    const res = await h.call('GET', `/scorm/${moduleId}/launch`, { token: learner.token })
    expect([res.status, res.body.code, res.body.message]).toEqual([400, 'is_cmi5', 'This module is a cmi5 course: open it with the cmi5 launch'])
  })
})

describe('POST /cmi5/fetch/{token}', () => {
  let moduleId: number
  const unit = au('fetch', 'Completed')
  beforeAll(async () => {
    moduleId = await cmi5Module(structure([unit]))
  })

  it('hands out the auth-token once (its SHA-256 kept on the session), then error 1 with status 200 (cmi5 §8.2)', async () => {
    const l = await launch(moduleId, unit.id)
    const once = await fetchToken(l)
    expect(once.status).toBe(200)
    expect(Object.keys(once.body)).toEqual(['auth-token'])
    const [row] = await h.sql<{ auth_token_hash: Buffer; fetch_used_at: Date | null }>('select auth_token_hash, fetch_used_at from cmi5_sessions where session_id = ?', [
      l.session_id,
    ])
    expect(row!.auth_token_hash.equals(authTokenHash(once.body['auth-token']!))).toBe(true)
    expect(row!.fetch_used_at).not.toBeNull()
    const twice = await fetchToken(l)
    expect([twice.status, twice.body]).toEqual([200, FETCH_ERRORS.used])
    expect(twice.body['error-code']).toBe('1')
  })

  it('answers error 1 once the session has expired, and error 2 for a token it never issued', async () => {
    const l = await launch(moduleId, unit.id)
    h.advance(9 * HOUR)
    const late = await fetchToken(l)
    expect([late.status, late.body]).toEqual([200, FETCH_ERRORS.used])
    const res = await h.app.request('/cmi5/fetch/not-a-token', { method: 'POST' })
    expect([res.status, await res.json()]).toEqual([200, FETCH_ERRORS.unknown])
    expect(res.headers.get('content-type')).toContain('application/json')
  })

  it('is open to AUs of any origin (no cookies)', async () => {
    const res = await h.app.request('/cmi5/fetch/x', { method: 'OPTIONS', headers: { origin: 'https://aus.example.org', 'access-control-request-method': 'POST' } })
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    expect(res.headers.get('access-control-allow-credentials')).toBeNull()
  })
})

describe('moveOn decides the module’s completion', () => {
  /** A module of one AU with `moveOn` in its own course (so the course completes with it). */
  const single = async (moveOn: Cmi5MoveOn) => {
    const cId = await insertCourse(h, { assignedTo: [learner.id], title: `Course ${moveOn}` })
    const unit = au(`single-${moveOn}`, moveOn, { masteryScore: 0.7 })
    return { cId, unit, moduleId: await cmi5Module(structure([unit], `https://example.test/course-${moveOn}`), { courseId: cId }) }
  }

  it('Completed: a Failed does not, the Completed does; the course completes and Satisfied is recorded once', async () => {
    const { cId, unit, moduleId } = await single('Completed')
    const l = await launch(moduleId, unit.id)
    await auSends(l, [{ verb: VERB.initialized }, { verb: VERB.failed, scaled: 0.2 }])
    expect((await moduleProgress(moduleId, cId)).completed_at).toBeNull()
    await auSends(l, [{ verb: VERB.completed }, { verb: VERB.terminated }])
    const after = await moduleProgress(moduleId, cId)
    expect(after.completed_at).not.toBeNull()
    expect(after.course).toBe('completed')
    const satisfied = await statementsOf(l.registration, VERB.satisfied)
    expect(satisfied).toHaveLength(1)
    expect(satisfied[0]!.statement).toMatchObject({
      object: { id: svc.lmsIds(moduleId).course(), definition: { type: 'https://w3id.org/xapi/cmi5/activitytype/course' } },
      context: { registration: l.registration, extensions: { [EXT.sessionId]: l.session_id } },
    })
    expect(satisfied[0]!.statement.object).not.toMatchObject({ id: 'https://example.test/course-Completed' })
    const [session] = await h.sql<{ initialized_at: Date | null; terminated_at: Date | null; last_statement_at: Date | null }>(
      'select initialized_at, terminated_at, last_statement_at from cmi5_sessions where session_id = ?',
      [l.session_id],
    )
    expect([session!.initialized_at, session!.terminated_at, session!.last_statement_at].every((v) => v !== null)).toBe(true)
    const s = await status(moduleId)
    expect(s.body).toMatchObject({ satisfied: true, aus: [{ completed: true, failed: true, satisfied: true, score: 0.2 }] })
    expect((await h.events('learning.module.completed.v1')).filter((e) => (e as { data: { moduleId: number } }).data.moduleId === moduleId)).toHaveLength(1)
  })

  it('Passed: Completed does not, Passed does (with its score)', async () => {
    const { cId, unit, moduleId } = await single('Passed')
    const l = await launch(moduleId, unit.id)
    await auSends(l, [{ verb: VERB.initialized }, { verb: VERB.completed }])
    expect((await moduleProgress(moduleId, cId)).completed_at).toBeNull()
    await auSends(l, [{ verb: VERB.passed, scaled: 0.9 }])
    expect((await moduleProgress(moduleId, cId)).completed_at).not.toBeNull()
    expect((await status(moduleId)).body.aus[0]).toMatchObject({ passed: true, failed: false, score: 0.9, satisfied: true })
  })

  it('CompletedOrPassed: Completed alone does', async () => {
    const { cId, unit, moduleId } = await single('CompletedOrPassed')
    const l = await launch(moduleId, unit.id)
    await auSends(l, [{ verb: VERB.initialized }, { verb: VERB.completed }])
    expect((await moduleProgress(moduleId, cId)).completed_at).not.toBeNull()
  })

  it('CompletedAndPassed: both are needed, over two sessions', async () => {
    const { cId, unit, moduleId } = await single('CompletedAndPassed')
    const a = await launch(moduleId, unit.id)
    await auSends(a, [{ verb: VERB.initialized }, { verb: VERB.passed, scaled: 0.8 }, { verb: VERB.terminated }])
    expect((await moduleProgress(moduleId, cId)).completed_at).toBeNull()
    const b = await launch(moduleId, unit.id)
    expect(b.registration).toBe(a.registration)
    await auSends(b, [{ verb: VERB.initialized }, { verb: VERB.completed }])
    expect((await moduleProgress(moduleId, cId)).completed_at).not.toBeNull()
    // The Satisfied statement carries the session that brought it (§9.3.9).
    expect((await statementsOf(a.registration, VERB.satisfied)).map((s) => s.session_id)).toEqual([b.session_id])
  })

  it('NotApplicable: satisfied when the registration is made (its Satisfied under a session id of its own)', async () => {
    const { cId, unit, moduleId } = await single('NotApplicable')
    const l = await launch(moduleId, unit.id)
    expect((await moduleProgress(moduleId, cId)).completed_at).not.toBeNull()
    const satisfied = await statementsOf(l.registration, VERB.satisfied)
    expect(satisfied).toHaveLength(1)
    expect(satisfied[0]!.session_id).not.toBe(l.session_id)
  })

  it('statements that are only "cmi5 allowed" (no cmi5 category) do not count', async () => {
    const { cId, unit, moduleId } = await single('Completed')
    const l = await launch(moduleId, unit.id)
    await auSends(l, [{ verb: VERB.initialized }, { verb: VERB.completed, allowed: true }])
    expect((await moduleProgress(moduleId, cId)).completed_at).toBeNull()
    expect((await status(moduleId)).body.aus[0]).toMatchObject({ completed: false, launched: true, open: true })
    // Terminated ends the session: the viewer's "open in another window" view closes on open false.
    await auSends(l, [{ verb: VERB.terminated }])
    expect((await status(moduleId)).body.aus[0]).toMatchObject({ launched: true, open: false })
  })
})

describe('a course of several AUs with a block', () => {
  const a = au('multi-a', 'Completed')
  const b = au('multi-b', 'Passed')
  const c = au('multi-c', 'CompletedOrPassed')
  const d = au('multi-d', 'NotApplicable')
  const inner = block('inner', [a, b])
  const course = structure([inner, c, d], 'https://example.test/multi')
  let cId: number
  let moduleId: number
  beforeAll(async () => {
    cId = await insertCourse(h, { assignedTo: [learner.id], title: 'Multi' })
    moduleId = await cmi5Module(course, { courseId: cId })
  })

  it('shows the share of satisfied AUs as progress, Satisfied for the block then the course, and completes the module once all are', async () => {
    const la = await launch(moduleId, a.id)
    // NotApplicable d is satisfied from the registration on: 1 of 4.
    expect((await moduleProgress(moduleId, cId)).progress).toBe(Math.floor((99 * 1) / 4))
    await auSends(la, [{ verb: VERB.initialized }, { verb: VERB.completed }, { verb: VERB.terminated }])
    expect((await moduleProgress(moduleId, cId)).progress).toBe(Math.floor((99 * 2) / 4))
    expect(await statementsOf(la.registration, VERB.satisfied)).toHaveLength(0)
    const lb = await launch(moduleId, b.id)
    await auSends(lb, [{ verb: VERB.initialized }, { verb: VERB.passed, scaled: 1 }, { verb: VERB.terminated }])
    const blockSatisfied = await statementsOf(la.registration, VERB.satisfied)
    expect(blockSatisfied.map((s) => s.activity_id)).toEqual([svc.lmsIds(moduleId).block(inner.id)])
    expect(blockSatisfied[0]!.statement).toMatchObject({
      object: { definition: { type: 'https://w3id.org/xapi/cmi5/activitytype/block' } },
      context: { extensions: { [EXT.sessionId]: lb.session_id } },
    })
    expect(blockSatisfied[0]!.activity_id).not.toBe(inner.id)
    expect((await moduleProgress(moduleId, cId)).completed_at).toBeNull()
    const lc = await launch(moduleId, c.id)
    await auSends(lc, [{ verb: VERB.initialized }, { verb: VERB.passed, scaled: 0.5 }])
    const done = await moduleProgress(moduleId, cId)
    expect([done.completed_at !== null, done.progress, done.course]).toEqual([true, 100, 'completed'])
    expect((await statementsOf(la.registration, VERB.satisfied)).map((s) => s.activity_id)).toEqual([svc.lmsIds(moduleId).block(inner.id), svc.lmsIds(moduleId).course()])
    // Another statement afterwards issues no Satisfied twice (§9.3.9).
    await auSends(lc, [{ verb: VERB.completed }])
    expect(await statementsOf(la.registration, VERB.satisfied)).toHaveLength(2)
    const s = Cmi5Status.parse((await status(moduleId)).body)
    expect(s.satisfied).toBe(true)
    expect(s.aus.map((x) => [x.id, x.satisfied])).toEqual([
      [a.id, true],
      [b.id, true],
      [c.id, true],
      [d.id, true],
    ])
  })
})

describe('GET /cmi5/{moduleId}/status', () => {
  const unit = au('status', 'Passed')
  let moduleId: number
  beforeAll(async () => {
    moduleId = await cmi5Module(structure([unit]))
  })

  it('answers the learner’s own AUs (none launched: no registration yet), admins any learner’s; others are refused', async () => {
    const none = await status(moduleId)
    expect(none.body).toEqual({
      moduleId,
      registration: null,
      satisfied: false,
      aus: [
        {
          id: unit.id,
          title: unit.title,
          moveOn: 'Passed',
          launchMethod: 'AnyWindow',
          completed: false,
          passed: false,
          failed: false,
          satisfied: false,
          waived: false,
          launched: false,
          open: false,
          score: null,
        },
      ],
    })
    const l = await launch(moduleId, unit.id)
    expect((await status(moduleId)).body).toMatchObject({ registration: l.registration, aus: [{ launched: true, open: true }] })
    const byAdmin = await status(moduleId, admin, `?user_id=${learner.id}`)
    expect([byAdmin.status, byAdmin.body.registration]).toEqual([200, l.registration])
    expect((await status(moduleId, learner, `?user_id=${admin.id}`)).status).toBe(403)
    expect((await status(moduleId, stranger)).status).toBe(403)
    expect((await status(moduleId, admin, '?user_id=nope')).status).toBe(400)
  })
})

describe('POST /cmi5/{moduleId}/waive', () => {
  const a = au('waive-a', 'Passed')
  const b = au('waive-b', 'Completed')
  let cId: number
  let moduleId: number
  beforeAll(async () => {
    cId = await insertCourse(h, { assignedTo: [learner.id], title: 'Waivers' })
    moduleId = await cmi5Module(structure([a, b], 'https://example.test/waivers'), { courseId: cId })
  })

  it('is for admins only', async () => {
    const res = await h.call('POST', `/cmi5/${moduleId}/waive`, { token: learner.token, body: { user_id: learner.id, au_id: a.id, reason: 'Administrative' } })
    expect(res.status).toBe(403)
    expect((await h.sql('select 1 from cmi5_au_status s join cmi5_registrations r using (registration) where r.module_id = ?', [moduleId])).length).toBe(0)
  })

  it('records Waived with its reason under a session of its own, marks the AU waived and satisfied, judges moveOn and keeps an audit entry', async () => {
    const res = await h.call('POST', `/cmi5/${moduleId}/waive`, { token: admin.token, body: { user_id: learner.id, au_id: a.id, reason: 'Tested Out' } })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const s = Cmi5Status.parse(res.body)
    expect(s.aus[0]).toMatchObject({ id: a.id, waived: true, satisfied: true, passed: false })
    expect(s.satisfied).toBe(false)
    const [waived] = await statementsOf(s.registration!, VERB.waived)
    expect(waived!.statement).toMatchObject({
      actor: learnerAgent(h.ctx, learner.id),
      object: { id: svc.lmsIds(moduleId).au(a.id) },
      result: { success: true, completion: true, extensions: { [EXT.reason]: 'Tested Out' } },
      context: { registration: s.registration, contextActivities: { grouping: [{ id: a.id }], category: [{ id: CATEGORY.cmi5 }, { id: CATEGORY.moveOn }] } },
    })
    expect((await h.sql('select 1 from cmi5_sessions where session_id = ?', [waived!.session_id])).length).toBe(0)
    expect((await moduleProgress(moduleId, cId)).progress).toBe(Math.floor(99 / 2))
    const [audit] = await h.sql<{ action: string; target: string; details: Record<string, unknown> }>(
      "select action, target, details from audit_log where action = 'cmi5.au_waived'",
    )
    expect(audit).toMatchObject({ target: `Lee Learner: ${a.title} (cmi5 module)`, details: { user_id: learner.id, au_id: a.id, reason: 'Tested Out', module_id: moduleId } })
    // Once per AU and registration (§9.3.7).
    const again = await h.call('POST', `/cmi5/${moduleId}/waive`, { token: admin.token, body: { user_id: learner.id, au_id: a.id, reason: 'Administrative' } })
    expect([again.status, again.body.code]).toEqual([409, 'already_waived'])
    expect(await statementsOf(s.registration!, VERB.waived)).toHaveLength(1)
  })

  it('completes the module when the last AU is waived, with the Satisfied statement under the waiver’s session', async () => {
    const res = await h.call('POST', `/cmi5/${moduleId}/waive`, { token: admin.token, body: { user_id: learner.id, au_id: b.id, reason: 'Equivalent AU' } })
    expect(res.status).toBe(200)
    expect(res.body.satisfied).toBe(true)
    expect((await moduleProgress(moduleId, cId)).completed_at).not.toBeNull()
    const reg = res.body.registration as string
    const waivedB = (await statementsOf(reg, VERB.waived)).find((w) => w.activity_id === svc.lmsIds(moduleId).au(b.id))!
    expect((await statementsOf(reg, VERB.satisfied)).map((x) => x.session_id)).toEqual([waivedB.session_id])
  })

  it('refuses unknown learners, AUs and reasons, and learners without the course', async () => {
    const unknownUser = await h.call('POST', `/cmi5/${moduleId}/waive`, { token: admin.token, body: { user_id: crypto.randomUUID(), au_id: a.id, reason: 'Administrative' } })
    expect([unknownUser.status, unknownUser.body.code]).toEqual([404, 'user_not_found'])
    const unknownAu = await h.call('POST', `/cmi5/${moduleId}/waive`, {
      token: admin.token,
      body: { user_id: learner.id, au_id: 'https://example.test/x', reason: 'Administrative' },
    })
    expect(unknownAu.status).toBe(404)
    const badReason = await h.call('POST', `/cmi5/${moduleId}/waive`, { token: admin.token, body: { user_id: learner.id, au_id: a.id, reason: 'Because' } })
    expect(badReason.status).toBe(400)
    const notAssigned = await h.call('POST', `/cmi5/${moduleId}/waive`, { token: admin.token, body: { user_id: stranger.id, au_id: a.id, reason: 'Administrative' } })
    expect([notAssigned.status, notAssigned.body.code]).toEqual([400, 'course_not_assigned'])
  })
})

describe('the abandon sweep', () => {
  const unit = au('sweep', 'Completed')
  let moduleId: number
  beforeAll(async () => {
    moduleId = await cmi5Module(structure([unit]))
  })

  it('abandons sessions past their end that never sent Terminated, once; terminated ones are left alone', async () => {
    // Sessions of earlier tests expire too: swept first so this test counts its own.
    h.advance(9 * HOUR)
    while ((await svc.abandonExpired()).more);
    const open = await launch(moduleId, unit.id)
    await auSends(open, [{ verb: VERB.initialized }])
    const ended = await launch(moduleId, unit.id, admin)
    await auSends(ended, [{ verb: VERB.initialized }, { verb: VERB.terminated }])
    expect((await svc.abandonExpired()).done).toBe(0)
    h.advance(9 * HOUR)
    expect(await svc.abandonExpired()).toEqual({ done: 1, more: false })
    expect((await svc.abandonExpired()).done).toBe(0)
    const abandoned = await statementsOf(open.registration, VERB.abandoned)
    expect(abandoned.map((s) => s.session_id)).toEqual([open.session_id])
    expect(await statementsOf(ended.registration, VERB.abandoned)).toHaveLength(0)
    const [row] = await h.sql<{ abandoned_at: Date | null }>('select abandoned_at from cmi5_sessions where session_id = ?', [open.session_id])
    expect(row!.abandoned_at).not.toBeNull()
  })
})

describe('an AU through the launch URL, the fetch URL and the LRS', () => {
  const unit = au('lrs', 'CompletedAndPassed', { masteryScore: 0.75 })
  let cId: number
  let moduleId: number
  beforeAll(async () => {
    cId = await insertCourse(h, { assignedTo: [learner.id], title: 'Through the LRS' })
    moduleId = await cmi5Module(structure([unit], 'https://example.test/through-lrs'), { courseId: cId })
  })

  it('reads LaunchData with its auth-token, sends its statements, and completes the module; nothing is accepted after Terminated', async () => {
    const l = await launch(moduleId, unit.id)
    const p = params(l)
    const token = (await fetchToken(l)).body['auth-token']!
    const lrs = (path: string, init: { method?: string; body?: unknown } = {}) =>
      h.app.request(`${new URL(p.get('endpoint')!).pathname.replace(/^\/api/, '')}${path}`, {
        method: init.method ?? 'GET',
        headers: { authorization: `Basic ${token}`, 'x-experience-api-version': '1.0.3', 'content-type': 'application/json' },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      })
    const query = new URLSearchParams({ activityId: p.get('activityId')!, agent: p.get('actor')!, registration: p.get('registration')!, stateId: 'LMS.LaunchData' })
    const got = await lrs(`activities/state?${query}`)
    expect(got.status).toBe(200)
    const launchData = (await got.json()) as { contextTemplate: Record<string, unknown>; masteryScore: number; moveOn: string }
    expect([launchData.masteryScore, launchData.moveOn]).toEqual([0.75, 'CompletedAndPassed'])
    const statement = (verb: string, result?: Record<string, unknown>) => ({
      id: crypto.randomUUID(),
      actor: JSON.parse(p.get('actor')!),
      verb: { id: verb },
      object: { objectType: 'Activity', id: p.get('activityId')! },
      ...(result ? { result } : {}),
      context: {
        ...launchData.contextTemplate,
        registration: p.get('registration')!,
        contextActivities: {
          ...(launchData.contextTemplate.contextActivities as object),
          category: [
            { objectType: 'Activity', id: CATEGORY.cmi5 },
            ...(result && ('success' in result || 'completion' in result) ? [{ objectType: 'Activity', id: CATEGORY.moveOn }] : []),
          ],
        },
      },
      timestamp: h.now().toISOString(),
    })
    const post = await lrs('statements', {
      method: 'POST',
      body: [
        statement(VERB.initialized),
        statement(VERB.passed, { success: true, score: { scaled: 0.8 }, duration: 'PT30S' }),
        statement(VERB.completed, { completion: true, duration: 'PT40S' }),
        statement(VERB.terminated, { duration: 'PT45S' }),
      ],
    })
    expect(post.status, await post.clone().text()).toBe(200)
    const done = await moduleProgress(moduleId, cId)
    expect([done.completed_at !== null, done.course]).toEqual([true, 'completed'])
    expect((await status(moduleId)).body).toMatchObject({ satisfied: true, aus: [{ completed: true, passed: true, score: 0.8 }] })
    const [row] = await h.sql<{ initialized_at: Date | null; terminated_at: Date | null }>('select initialized_at, terminated_at from cmi5_sessions where session_id = ?', [
      l.session_id,
    ])
    expect([row!.initialized_at !== null, row!.terminated_at !== null]).toEqual([true, true])
    const late = await lrs('statements', { method: 'POST', body: [statement('http://adlnet.gov/expapi/verbs/experienced')] })
    expect(late.status).toBe(403)
  })
})
