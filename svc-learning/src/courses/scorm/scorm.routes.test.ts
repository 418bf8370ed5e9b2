import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Readable } from 'node:stream'
import type { z } from 'zod'
import { COURSE_MESSAGES, DEFAULT_SCORM_PROGRESS, ScormCommitResponse, ScormLaunch, ScormProgress } from '@portal/contracts'
import { listen } from '@portal/server-kit'
import { CONTENT_ORIGIN, createHarness, type Harness, type TestUser } from '../../harness.test-support.ts'
import { COMMIT_MAX_BYTES } from './scorm.routes.ts'
import { insertCourse, insertModule, installFixture } from '../progress/course-runtime.test-support.ts'

const FIXTURE = 'golf-scorm2004-3rd-SequencingForcedSequential.zip'

let h: Harness
let admin: TestUser
let learner: TestUser
let stranger: TestUser
let courseId: number
let moduleId: number
const examStats = async () => {
  const res = await h.call('GET', `/users/${learner.id}/stats`, { token: learner.token })
  expect(res.status).toBe(200)
  const { examsTaken, averageScore, highestScore, lowestScore, examHistory } = res.body
  return { examsTaken, averageScore, highestScore, lowestScore, examHistory }
}
let statsBefore: Awaited<ReturnType<typeof examStats>>

beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true })
  learner = await h.user({ name: 'Lee Learner' })
  stranger = await h.user()
  courseId = await insertCourse(h, { assignedTo: [learner.id] })
  moduleId = await insertModule(h, courseId, { isScorm: true, title: 'Golf' })
  await installFixture(h, moduleId, FIXTURE)
  statsBefore = await examStats()
})
afterAll(async () => {
  await h?.close()
})

const launch = async (who: TestUser = learner, id = moduleId): Promise<ScormLaunch> => {
  const res = await h.call('GET', `/scorm/${id}/launch`, { token: who.token })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return ScormLaunch.parse(res.body)
}
/** A commit's answer: what scorm-again reads, or a refusal's message and code. */
type CommitAnswer = Partial<z.infer<typeof ScormCommitResponse>> & { message?: string; code?: string }
/** POSTs a commit to a launch's commit URL, as JSON (autocommit) or text/plain (beacon). */
/** Commits counted on the app's /metrics with `result` (ok, rejected, error). */
const commitsCounted = async (result: string) => {
  const text = await (await h.app.request('/metrics')).text()
  return Number(text.match(new RegExp(`^scorm_commit_duration_seconds_count\\{service="learning",result="${result}"\\} (\\d+)$`, 'm'))?.[1] ?? 0)
}
const commit = async (l: { commitUrl: string }, body: unknown, type = 'application/json') => {
  const res = await h.app.request(l.commitUrl.replace(/^\/api/, ''), {
    method: 'POST',
    headers: { 'content-type': type },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as CommitAnswer }
}
const cmi2004 = (over: Record<string, unknown> = {}) => ({
  cmi: {
    completion_status: 'incomplete',
    success_status: 'unknown',
    location: 'page-2',
    suspend_data: 'S'.repeat(5000),
    exit: 'suspend',
    session_time: 'PT10S',
    total_time: 'PT1M',
    score: { raw: '80', min: '0', max: '100', scaled: '0.8' },
    interactions: { '0': { id: 'q1', type: 'choice', timestamp: '2026-01-01T10:00:00', learner_response: 'a', result: 'correct', correct_responses: { '0': { pattern: 'a' } } } },
    ...over,
  },
})
const state = (itemId: string, module = moduleId) => h.sql('select * from scorm_states where user_id = ? and module_id = ? and item_id = ?', [learner.id, module, itemId])

describe('GET /scorm/{moduleId}/launch', () => {
  it('answers the package under the launch’s content root, the first SCO to start with and no state yet', async () => {
    const l = await launch()
    expect(l).toMatchObject({ moduleId, courseId, version: '2004', edition: '2004 3rd Edition', startItem: 'playing_item', state: {}, sharedData: {} })
    expect(l.learner).toEqual({ id: learner.id, name: 'Lee Learner' })
    // The player runs on the content origin; every other URL is a path there.
    expect(l.playerUrl).toBe(`${CONTENT_ORIGIN}/player/`)
    expect(l.contentBase).toBe(`/api/content/${l.launchToken}/`)
    expect(l.commitUrl).toBe(`/api/scorm/commit/${l.launchToken}`)
    expect(l.url).toBe(`${l.contentBase}shared/launchpage.html?content=playing`)
    expect(l.items.map((i) => i.href)).toContain(`${l.contentBase}shared/launchpage.html?content=assessment`)
    expect(new Date(l.expiresAt).getTime()).toBeGreaterThan(h.now().getTime())
    const [row] = await h.sql('select progress, started_at from module_progress where user_id = ? and module_id = ?', [learner.id, moduleId])
    expect(row!.progress).toBeGreaterThanOrEqual(1)
    expect(row!.started_at).not.toBeNull()
    // The launch is announced with it (statements out, issue 26).
    const launched = (await h.events('learning.module.launched.v1')).filter((e) => e.data.moduleId === moduleId && e.data.userId === learner.id)
    expect(launched.at(-1)!.data).toMatchObject({ courseId, kind: 'scorm' })
    const page = await h.app.request(l.url.replace(/^\/api/, ''))
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await page.text()).toContain('<html')
  })
  it('answers 202 while the package is processed, 422 with the error when it failed, 400 for a file module', async () => {
    const processing = await insertModule(h, courseId, { isScorm: true, status: 'processing' })
    const p = await h.call('GET', `/scorm/${processing}/launch`, { token: learner.token })
    expect([p.status, p.body]).toEqual([202, { status: 'processing', message: COURSE_MESSAGES.processing }])
    const failed = await insertModule(h, courseId, { isScorm: true, status: 'failed', error: 'imsmanifest.xml is missing' })
    const f = await h.call('GET', `/scorm/${failed}/launch`, { token: learner.token })
    // Why it failed is for admins, who can fix it.
    expect([f.status, f.body.code, f.body.message]).toEqual([422, 'package_failed', COURSE_MESSAGES.processingFailed])
    const a = await h.call('GET', `/scorm/${failed}/launch`, { token: admin.token })
    expect([a.status, a.body.code, a.body.message]).toEqual([422, 'package_failed', 'imsmanifest.xml is missing'])
    const listed = (await h.call('GET', `/modules/course/${courseId}/progress`, { token: learner.token })).body.data.modules.find((m: { id: number }) => m.id === failed)
    expect(listed.processing_error).toBe(COURSE_MESSAGES.processingFailed)
    const pdf = await insertModule(h, courseId)
    const n = await h.call('GET', `/scorm/${pdf}/launch`, { token: learner.token })
    expect([n.status, n.body.code, n.body.message]).toEqual([400, 'not_scorm', COURSE_MESSAGES.notScorm])
  })
  it('refuses strangers and missing modules, and lets admins in', async () => {
    expect((await h.call('GET', `/scorm/${moduleId}/launch`, { token: stranger.token })).status).toBe(403)
    expect((await h.call('GET', '/scorm/999999/launch', { token: learner.token })).body.message).toBe('Module not found')
    expect((await h.call('GET', `/scorm/${moduleId}/launch`)).status).toBe(401)
    expect((await launch(admin)).learner.id).toBe(admin.id)
  })
})

describe('GET /content/{token}/*', () => {
  let l: ScormLaunch
  let base: string
  beforeAll(async () => {
    l = await launch()
    base = l.contentBase.replace(/^\/api/, '')
    const prefix = `modules/${moduleId}/content`
    await h.storage.put(`${prefix}/media/clip one.mp4`, Readable.from([Buffer.from('0123456789abcdef')]))
    await h.storage.put(`${prefix}/docs/guide.pdf`, Readable.from([Buffer.from('%PDF-1.4 test')]))
  })
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => h.app.request(`${base}${path}`, { method, headers })

  it('serves package files with their types, content headers and no bearer', async () => {
    const types: [string, RegExp][] = [
      ['shared/launchpage.html', /^text\/html; charset=utf-8$/],
      ['shared/scormfunctions.js', /^(text|application)\/javascript; charset=utf-8$/],
      ['shared/style.css', /^text\/css; charset=utf-8$/],
      ['media/clip%20one.mp4', /^video\/mp4$/],
      ['docs/guide.pdf', /^application\/pdf$/],
      ['Etiquette/play.jpg', /^image\/jpeg$/],
    ]
    for (const [path, type] of types) {
      const res = await get(path)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-type'), path).toMatch(type)
      await res.arrayBuffer()
    }
    const res = await get('shared/style.css')
    expect(res.headers.get('accept-ranges')).toBe('bytes')
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    // The content's security policy is the gateway's (it knows the origins): see gateway/src/content.test.ts.
    expect(res.headers.get('content-security-policy')).toBeNull()
    expect(res.headers.get('content-disposition')).toBeNull()
    expect(res.headers.get('last-modified')).toBeTruthy()
    expect(res.headers.get('content-length')).toBe('2290')
  })
  it('finds an NFC-stored file from a decomposed (NFD) link', async () => {
    await h.storage.put(`modules/${moduleId}/content/${'Résumé.html'.normalize('NFC')}`, Readable.from([Buffer.from('<p>ok</p>')]))
    const res = await get(encodeURIComponent('Résumé.html'.normalize('NFD')))
    expect([res.status, await res.text()]).toEqual([200, '<p>ok</p>'])
  })
  it('answers byte ranges, suffix ranges and 416 for unsatisfiable ones', async () => {
    const part = await get('media/clip%20one.mp4', { range: 'bytes=2-5' })
    expect([part.status, part.headers.get('content-range'), part.headers.get('content-length'), await part.text()]).toEqual([206, 'bytes 2-5/16', '4', '2345'])
    const open = await get('media/clip%20one.mp4', { range: 'bytes=10-' })
    expect([open.status, await open.text()]).toEqual([206, 'abcdef'])
    const suffix = await get('media/clip%20one.mp4', { range: 'bytes=-3' })
    expect([suffix.status, suffix.headers.get('content-range'), await suffix.text()]).toEqual([206, 'bytes 13-15/16', 'def'])
    const bad = await get('media/clip%20one.mp4', { range: 'bytes=16-20' })
    expect([bad.status, bad.headers.get('content-range')]).toEqual([416, 'bytes */16'])
  })
  it('answers 304 to a matching If-None-Match and HEAD without a body', async () => {
    const first = await get('shared/style.css')
    const etag = first.headers.get('etag')!
    await first.arrayBuffer()
    expect(etag).toMatch(/^".+"$/)
    const again = await get('shared/style.css', { 'if-none-match': etag })
    expect(again.status).toBe(304)
    const lastModified = first.headers.get('last-modified')!
    expect((await get('shared/style.css', { 'if-modified-since': lastModified })).status).toBe(304)
    expect((await get('shared/style.css', { 'if-modified-since': new Date(Date.parse(lastModified) + 60_000).toUTCString() })).status).toBe(304)
    const older = await get('shared/style.css', { 'if-modified-since': new Date(Date.parse(lastModified) - 60_000).toUTCString() })
    expect([older.status, Number(older.headers.get('content-length')), (await older.arrayBuffer()).byteLength]).toEqual([200, 2290, 2290])
    // If-None-Match decides when both are sent
    expect((await get('shared/style.css', { 'if-none-match': '"other"', 'if-modified-since': lastModified })).status).toBe(200)
    expect((await get('shared/style.css', { 'if-modified-since': 'not a date' })).status).toBe(200)
    const head = await get('shared/style.css', {}, 'HEAD')
    expect([head.status, head.headers.get('content-length'), await head.text()]).toEqual([200, '2290', ''])
  })
  it('answers 404 to path traversal, absolute paths, backslashes, NULs and missing files', async () => {
    await h.storage.put('secret.txt', Readable.from([Buffer.from('top secret')]))
    for (const path of [
      '..%2f..%2f..%2fsecret.txt',
      '%2e%2e/%2e%2e/%2e%2e/secret.txt',
      '%2fetc%2fpasswd',
      'shared%5c..%5c..%5csecret.txt',
      'shared/..%5csecret.txt',
      'shared/style.css%00',
      'nothing.html',
      '',
      'shared/%2e%2e/%2e%2e/%2e%2e/secret.txt',
      '%E0%A4%A',
    ]) {
      const res = await get(path)
      expect(res.status, path).toBe(404)
      expect(await res.text()).not.toContain('top secret')
    }
  })
  it('binds the token to its module, and answers 401 for bad and expired tokens', async () => {
    const other = await insertModule(h, courseId, { isScorm: true, title: 'Other' })
    await installFixture(h, other, 'golf-scorm12-RuntimeBasicCalls.zip')
    await h.storage.put(`modules/${other}/content/only-in-other.txt`, Readable.from([Buffer.from('other')]))
    // the token of `moduleId` cannot reach the other module's files
    expect((await get('only-in-other.txt')).status).toBe(404)
    // (a literal ../ is resolved by URL parsing before routing: it never reaches a file)
    expect((await get(`../../../modules/${other}/content/only-in-other.txt`)).status).not.toBe(200)
    expect((await get(`..%2f..%2f${other}%2fcontent%2fshared%2flaunchpage.html`)).status).toBe(404)
    expect((await h.app.request(`/content/not-a-token/shared/style.css`)).status).toBe(401)
    const tampered = l.launchToken.slice(0, -2) + (l.launchToken.endsWith('A') ? 'BB' : 'AA')
    expect((await h.app.request(`/content/${tampered}/shared/style.css`)).status).toBe(401)
    const fresh = await launch()
    h.advance(9 * 3600_000)
    const expired = await h.app.request(`${fresh.contentBase.replace(/^\/api/, '')}shared/style.css`)
    expect(expired.status).toBe(401)
    expect(((await expired.json()) as { code: string }).code).toBe('launch_expired')
    h.advance(-9 * 3600_000)
  })
})

describe('POST /scorm/commit/{token}', () => {
  it('stores a JSON commit with its summary and a text/plain beacon after it', async () => {
    const l = await launch()
    const counted = await commitsCounted('ok')
    const first = await commit(l, { itemId: 'playing_item', seq: 1, runtimeData: cmi2004() })
    expect(first.status).toBe(200)
    expect(ScormCommitResponse.parse(first.body)).toEqual({ result: true, errorCode: 0, applied: true, moduleCompleted: false })
    const [row] = await state('playing_item')
    expect(row).toMatchObject({ lesson_status: 'incomplete', score: 80, location: 'page-2', exit: 'suspend', total_time: 'PT1M', session_time: 'PT10S', seq: 1 })
    expect(row!.cmi.cmi.suspend_data).toHaveLength(5000)
    const record = (await h.call('GET', `/scorm/progress/${moduleId}`, { token: learner.token })).body
    expect(record).toMatchObject({ lessonStatus: 'incomplete', score: 80, location: 'page-2', totalTime: '0000:01:00', sessionTime: '0000:00:10' })
    expect(record.suspendData).toHaveLength(5000)
    expect(record.interactions).toEqual([{ id: 'q1', type: 'choice', timestamp: '2026-01-01T10:00:00', student_response: 'a', result: 'correct', correct_responses: ['a'] }])
    const beacon = await commit(l, JSON.stringify({ itemId: 'playing_item', seq: 2, terminated: true, runtimeData: cmi2004({ location: 'page-3' }) }), 'text/plain;charset=UTF-8')
    expect(beacon.body).toMatchObject({ result: true, applied: true })
    expect((await state('playing_item'))[0]).toMatchObject({ location: 'page-3', seq: 2 })
    // Both commits are counted and timed on /metrics.
    expect(await commitsCounted('ok')).toBe(counted + 2)
    const [mp] = await h.sql('select progress from module_progress where user_id = ? and module_id = ?', [learner.id, moduleId])
    expect(mp!.progress).toBeGreaterThanOrEqual(5)
  })
  it('keeps the stored total time when a 2004 commit before Terminate carries none', async () => {
    const l = await launch()
    const tree = cmi2004({ location: 'page-9' })
    delete (tree.cmi as Record<string, unknown>).total_time
    expect((await commit(l, { itemId: 'etuqiette_item', seq: 1, runtimeData: cmi2004({ total_time: 'PT5M' }) })).body.applied).toBe(true)
    expect((await commit(l, { itemId: 'etuqiette_item', seq: 2, runtimeData: tree })).body.applied).toBe(true)
    const [row] = await state('etuqiette_item')
    expect(row).toMatchObject({ total_time: 'PT5M', location: 'page-9' })
    expect(row!.cmi.cmi.total_time).toBe('PT5M')
  })
  it('ignores a lower seq, a repeated commit and an older launch even with a higher seq', async () => {
    const older = await launch()
    h.advance(1000)
    const newer = await launch()
    expect((await commit(newer, { itemId: 'handicapping_item', seq: 5, runtimeData: cmi2004({ location: 'new-5' }) })).body.applied).toBe(true)
    expect((await commit(newer, { itemId: 'handicapping_item', seq: 4, runtimeData: cmi2004({ location: 'new-4' }) })).body).toEqual({
      result: true,
      errorCode: 0,
      applied: false,
      moduleCompleted: false,
    })
    expect((await commit(newer, { itemId: 'handicapping_item', seq: 5, runtimeData: cmi2004({ location: 'new-5b' }) })).body.applied).toBe(false)
    expect((await commit(older, { itemId: 'handicapping_item', seq: 99, runtimeData: cmi2004({ location: 'old-99' }) })).body.applied).toBe(false)
    expect((await state('handicapping_item'))[0]!.location).toBe('new-5')
  })
  it('stores a final commit sent as a patch of what its launch stored (too large for a beacon otherwise); a patch of another launch’s state is refused', async () => {
    h.advance(1000)
    const l = await launch()
    const big = 'B'.repeat(60_000)
    expect((await commit(l, { itemId: 'playing_item', seq: 3, runtimeData: cmi2004({ suspend_data: big, location: 'ch-2' }) })).body.applied).toBe(true)
    expect((await commit(l, { itemId: 'playing_item', seq: 4, runtimeData: cmi2004({ suspend_data: big, location: 'ch-2b' }) })).body.applied).toBe(true)
    // Measured against seq 3 (the answer to seq 4 never reached the tab): applied to what is stored.
    const patch = { cmi: { location: 'ch-3', session_time: 'PT20S', interactions: null } }
    const beacon = await commit(l, JSON.stringify({ itemId: 'playing_item', seq: 5, base: 3, terminated: true, runtimeData: patch }), 'text/plain;charset=UTF-8')
    expect(beacon.body).toMatchObject({ result: true, applied: true })
    const [row] = await state('playing_item')
    expect(row).toMatchObject({ location: 'ch-3', session_time: 'PT20S', exit: 'suspend', seq: 5 })
    expect(row!.cmi.cmi.suspend_data).toBe(big)
    expect(row!.cmi.cmi.interactions).toBeUndefined()
    expect(row!.cmi.cmi.score).toEqual({ raw: '80', min: '0', max: '100', scaled: '0.8' })

    // Another launch stored since: there is no state of this launch to patch.
    h.advance(1000)
    const other = await launch()
    expect((await commit(other, { itemId: 'playing_item', seq: 1, runtimeData: cmi2004({ location: 'elsewhere' }) })).body.applied).toBe(true)
    const stale = await commit(l, { itemId: 'playing_item', seq: 6, base: 5, terminated: true, runtimeData: { cmi: { location: 'ch-4' } } })
    expect([stale.status, stale.body.result, stale.body.code]).toEqual([409, false, 'stale_commit'])
    // Nor a base this launch never stored.
    const ahead = await commit(other, { itemId: 'playing_item', seq: 2, base: 7, terminated: true, runtimeData: { cmi: { location: 'ch-5' } } })
    expect([ahead.status, ahead.body.code]).toEqual([409, 'stale_commit'])
    expect((await state('playing_item'))[0]!.location).toBe('elsewhere')
  })
  it('answers 400 with a SCORM error to bad JSON and bad shapes, 415 to forms and 401 to bad or expired tokens', async () => {
    const l = await launch()
    const rejected = await commitsCounted('rejected')
    const bad = await commit(l, '{nope', 'text/plain')
    expect(bad.status).toBe(400)
    expect(await commitsCounted('rejected')).toBe(rejected + 1)
    expect(bad.body).toMatchObject({ result: false, errorCode: 101, code: 'invalid_json' })
    expect(bad.body.message).toBeTruthy()
    const shape = await commit(l, { seq: 1, runtimeData: {} })
    expect([shape.status, shape.body.result, shape.body.errorCode, shape.body.code]).toEqual([400, false, 101, 'validation_failed'])
    expect((await commit(l, 'itemId=x', 'application/x-www-form-urlencoded')).status).toBe(415)
    // Out of range, too deep, text the database cannot hold, an item that is not a SCO of the package.
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`
    const deep = `{"itemId":"playing_item","seq":1,"runtimeData":${nested(5000)}}`
    const root = { completionStatus: 'incomplete', successStatus: 'unknown' }
    const deepSequencing = `{"itemId":"playing_item","seq":1,"runtimeData":${JSON.stringify(cmi2004())},"sequencing":{"root":${JSON.stringify(root)},"state":${nested(5000)}}}`
    for (const [body, code] of [
      [{ itemId: 'playing_item', seq: 3_000_000_000, runtimeData: cmi2004() }, 'validation_failed'],
      [deep, 'validation_failed'],
      [deepSequencing, 'validation_failed'],
      [{ itemId: 'playing_item', seq: 1, runtimeData: cmi2004({ location: 'a\u0000b' }) }, 'invalid_text'],
      [{ itemId: 'playing_item', seq: 1, runtimeData: { cmi: { suspend_data: 'a\u0000b' } } }, 'invalid_text'],
      [{ itemId: 'playing_item', seq: 1, runtimeData: cmi2004({ location: 'lone \ud800 surrogate' }) }, 'invalid_text'],
      [{ itemId: 'playing_item', seq: 1, runtimeData: { cmi: { ['key \udc00']: 'x' } } }, 'invalid_text'],
      [{ itemId: 'not_in_manifest', seq: 1, runtimeData: cmi2004() }, 'unknown_item'],
    ] as const) {
      const res = await commit(l, body)
      expect([res.status, res.body.result, res.body.errorCode, res.body.code], JSON.stringify(body).slice(0, 80)).toEqual([400, false, 101, code])
    }
    // Nothing of them was written (the engine state is checked before the SCO's state is stored).
    expect(
      await h.sql('select 1 from scorm_states where user_id = ? and module_id = ? and launch_at = ?', [
        learner.id,
        moduleId,
        (await h.launchTokens.verify(l.launchToken)).issuedAt,
      ]),
    ).toEqual([])
    const huge = await commit(l, { itemId: 'x', seq: 1, runtimeData: { cmi: { suspend_data: 'x'.repeat(COMMIT_MAX_BYTES) } } })
    expect([huge.status, huge.body.result, huge.body.errorCode, huge.body.code]).toEqual([413, false, 101, 'payload_too_large'])
    const forged = await commit({ commitUrl: '/api/scorm/commit/forged' }, { itemId: 'x', seq: 1, runtimeData: {} })
    expect([forged.status, forged.body.result, forged.body.errorCode]).toEqual([401, false, 101])
    // A file module's launch cannot commit SCORM state (nor pass the engagement rule that way).
    const fileModule = await insertModule(h, courseId, { position: 9 })
    const file = await h.call('GET', `/modules/${fileModule}/launch`, { token: learner.token })
    const fileToken = /\/content\/([^/]+)\//.exec(file.body.url)![1]!
    const forgedCompletion = await commit({ commitUrl: `/api/scorm/commit/${fileToken}` }, { itemId: 'x', seq: 1, runtimeData: { cmi: { core: { lesson_status: 'completed' } } } })
    expect([forgedCompletion.status, forgedCompletion.body.code]).toEqual([400, 'not_scorm'])
    expect((await h.sql('select count(*)::int as n from scorm_states where module_id = ?', [fileModule]))[0]!.n).toBe(0)
    await h.sql('delete from course_modules where id = ?', [fileModule])
    h.advance(9 * 3600_000)
    const expired = await commit(l, { itemId: 'x', seq: 1, runtimeData: {} })
    expect([expired.status, expired.body.code]).toEqual([401, 'launch_expired'])
    h.advance(-9 * 3600_000)
  })
  it('reads commits straight off a real HTTP connection: JSON, a chunked beacon, and too large a body', async () => {
    const server = await listen(h.app, 0)
    try {
      const l = await launch()
      const url = `http://127.0.0.1:${server.port}${l.commitUrl.replace(/^\/api/, '')}`
      const json = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ itemId: 'havingfun_item', seq: 1, runtimeData: cmi2004({ location: 'http-1' }) }),
      })
      expect([json.status, await json.json()]).toEqual([200, { result: true, errorCode: 0, applied: true, moduleCompleted: false }])
      // A beacon body in several chunks, without a length.
      const text = JSON.stringify({ itemId: 'havingfun_item', seq: 2, terminated: true, runtimeData: cmi2004({ location: 'http-2' }) })
      const chunked = Readable.from([text.slice(0, 100), text.slice(100, 3000), text.slice(3000)])
      const beacon = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
        body: Readable.toWeb(chunked) as ReadableStream,
        duplex: 'half',
      } as RequestInit)
      expect((await beacon.json()) as unknown).toMatchObject({ result: true, applied: true })
      expect((await state('havingfun_item'))[0]).toMatchObject({ location: 'http-2', seq: 2 })
      for (const withLength of [true, false]) {
        const big = JSON.stringify({ itemId: 'havingfun_item', seq: 3, runtimeData: cmi2004({ location: 'x'.repeat(COMMIT_MAX_BYTES) }) })
        const body = withLength ? big : (Readable.toWeb(Readable.from([big.slice(0, 1000), big.slice(1000)])) as ReadableStream)
        const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit)
        expect([res.status, ((await res.json()) as { code: string }).code]).toEqual([413, 'payload_too_large'])
      }
      expect((await state('havingfun_item'))[0]).toMatchObject({ location: 'http-2', seq: 2 })
    } finally {
      await server.close()
    }
  })
  it('stops taking commits and serving content once the course is no longer assigned to the learner; admins may open any course', async () => {
    const c = await insertCourse(h, { assignedTo: [learner.id] })
    const m = await insertModule(h, c, { isScorm: true })
    await installFixture(h, m, FIXTURE)
    const l = await launch(learner, m)
    const file = () => h.app.request(`${l.contentBase.replace(/^\/api/, '')}shared/launchpage.html`)
    expect((await file()).status).toBe(200)
    expect((await commit(l, { itemId: 'playing_item', seq: 1, runtimeData: cmi2004() })).body.applied).toBe(true)
    await h.sql('delete from course_assignments where course_id = ? and user_id = ?', [c, learner.id])
    const refused = await commit(l, { itemId: 'playing_item', seq: 2, runtimeData: cmi2004({ location: 'after' }) })
    expect([refused.status, refused.body.result, refused.body.code]).toEqual([403, false, 'course_not_assigned'])
    expect((await state('playing_item', m))[0]!.location).toBe('page-2')
    // Content asks at most every few seconds (a page and its files come in a burst).
    h.advance(11_000)
    const content = await file()
    expect([content.status, ((await content.json()) as { code: string }).code]).toEqual([403, 'course_not_assigned'])
    const mine = await launch(admin, m)
    expect((await commit(mine, { itemId: 'playing_item', seq: 1, runtimeData: cmi2004() })).body.applied).toBe(true)
    expect((await h.app.request(`${mine.contentBase.replace(/^\/api/, '')}shared/launchpage.html`)).status).toBe(200)
    // A deleted module is a 404, not a 403.
    await h.sql('delete from courses where id = ?', [c])
    expect((await commit(l, { itemId: 'playing_item', seq: 3, runtimeData: cmi2004() })).status).toBe(404)
    h.advance(-11_000)
  })
  it('stores shared data stores and answers them at the next launch', async () => {
    const l = await launch()
    await commit(l, { itemId: 'havingfun_item', seq: 1, runtimeData: cmi2004(), adlData: [{ id: 'com.example.notes', store: 'hello' }] })
    await commit(l, { itemId: 'havingfun_item', seq: 2, runtimeData: cmi2004(), adlData: [{ id: 'com.example.notes', store: 'hello again' }] })
    expect((await launch()).sharedData).toEqual({ 'com.example.notes': 'hello again' })
    expect((await launch(stranger === learner ? admin : admin)).sharedData).toEqual({})
  })
  it('resumes: an exit of suspend gives entry resume and the stored cmi at the next launch, most recent SCO first', async () => {
    const l = await launch()
    h.advance(1000)
    await commit(l, { itemId: 'assessment_item', seq: 1, runtimeData: cmi2004({ location: 'q7', exit: 'suspend' }) })
    const next = await launch()
    expect(next.startItem).toBe('assessment_item')
    expect(next.url).toBe(`${next.contentBase}shared/launchpage.html?content=assessment`)
    expect(next.state.assessment_item).toMatchObject({ entry: 'resume', cmi: { cmi: { location: 'q7', exit: 'suspend' } } })
    h.advance(1000)
    await commit(next, { itemId: 'assessment_item', seq: 1, runtimeData: cmi2004({ location: 'q8', exit: 'normal' }) })
    // A normal exit ends the attempt: the next one starts from nothing (conformance.test.ts).
    expect((await launch()).state.assessment_item).toBeUndefined()
  })
})

describe('completion reported by the content', () => {
  it('completes the module once with one event on a completed commit, and the course when it was the last module', async () => {
    const c = await insertCourse(h, { toAll: true, title: 'One SCO course' })
    const m = await insertModule(h, c, { isScorm: true, title: 'Golf 1.2' })
    await installFixture(h, m, 'golf-scorm12-RuntimeBasicCalls.zip')
    const l = await launch(learner, m)
    const before = (await h.events('learning.module.completed.v1')).length
    const core = (status: string) => ({
      cmi: { core: { lesson_status: status, lesson_location: '3', exit: '', session_time: '00:01:00', total_time: '00:05:00', score: { raw: '90' } }, suspend_data: 'x' },
    })
    const item = l.startItem
    expect((await commit(l, { itemId: item, seq: 1, runtimeData: core('incomplete') })).body.moduleCompleted).toBe(false)
    const done = await commit(l, { itemId: item, seq: 2, runtimeData: core('passed') })
    expect(done.body).toEqual({ result: true, errorCode: 0, applied: true, moduleCompleted: true })
    expect((await commit(l, { itemId: item, seq: 3, runtimeData: core('passed') })).body.moduleCompleted).toBe(false)
    const events = (await h.events('learning.module.completed.v1')).slice(before)
    expect(events.map((e) => [e.data.moduleId, e.data.trigger])).toEqual([[m, 'scorm-commit']])
    // The score and the pass the content reported go with it (statements out, issue 26).
    expect(events[0]!.data).toMatchObject({ score: 90, passed: true })
    expect((await h.events('learning.course.completed.v1')).filter((e) => e.data.courseId === c && e.data.userId === learner.id)).toHaveLength(1)
    const [row] = await h.sql('select progress, completion_trigger from module_progress where user_id = ? and module_id = ?', [learner.id, m])
    expect(row).toEqual({ progress: 100, completion_trigger: 'scorm-commit' })
    expect((await state(item)).length).toBe(0) // another module's state is not this one's
  })
  it('completes a package of several SCOs without sequencing rules only once every visible SCO reported completion, showing the share done meanwhile', async () => {
    const c = await insertCourse(h, { toAll: true, title: 'Multi-SCO course' })
    const m = await insertModule(h, c, { isScorm: true, title: 'Golf minimum calls' })
    await installFixture(h, m, 'golf-scorm12-RuntimeMinimumCalls.zip')
    const l = await launch(learner, m)
    const walk = (items: typeof l.items): typeof l.items => items.flatMap((i) => [i, ...walk(i.children)])
    const scos = walk(l.items)
      .filter((i) => i.href !== null && i.isvisible)
      .map((i) => i.identifier)
    expect(scos.length).toBeGreaterThan(1)
    const status12 = (lesson_status: string) => ({ cmi: { core: { lesson_status, exit: '', session_time: '00:00:10', total_time: '00:01:00' } } })
    const progress = async () => (await h.sql('select progress, completed_at from module_progress where user_id = ? and module_id = ?', [learner.id, m]))[0]
    const first = await commit(l, { itemId: scos[0], seq: 1, runtimeData: status12('completed') })
    expect(first.body.moduleCompleted).toBe(false)
    expect(await progress()).toMatchObject({ progress: Math.floor((99 * 1) / scos.length), completed_at: null })
    let seq = 1
    for (const id of scos.slice(1, -1)) await commit(l, { itemId: id, seq: ++seq, runtimeData: status12('completed') })
    expect((await progress()).completed_at).toBeNull()
    const last = await commit(l, { itemId: scos.at(-1), seq: seq + 1, runtimeData: status12('passed') })
    expect(last.body.moduleCompleted).toBe(true)
    expect(await progress()).toMatchObject({ progress: 100 })
  })
  it('accepts a completion at once only when the content reports the whole module complete', async () => {
    const c = await insertCourse(h, { toAll: true })
    await insertModule(h, c, { position: 9 })
    const complete = (m: number) => h.call('PUT', `/modules/${m}/complete`, { token: stranger.token, body: { courseId: c, trigger: 'manual' } })
    const sco = (m: number, item: string, tree: unknown) =>
      h.sql(`insert into scorm_states (user_id, module_id, item_id, launch_at, seq, cmi, updated_at) values (?, ?, ?, 1, 1, ?::jsonb, now())`, [
        stranger.id,
        m,
        item,
        JSON.stringify(tree),
      ])
    // One SCO, reported complete: at once.
    const single = await insertModule(h, c, { isScorm: true })
    await installFixture(h, single, 'golf-scorm12-RuntimeBasicCalls.zip')
    const item = ScormLaunch.parse((await h.call('GET', `/scorm/${single}/launch`, { token: stranger.token })).body).startItem
    await sco(single, item, { cmi: { core: { lesson_status: 'passed' } } })
    expect((await complete(single)).body).toMatchObject({ newly_completed: true })
    // A sequenced package: one lesson done is not the package (content that talks decides: no other rule completes it)…
    const sequenced = await insertModule(h, c, { isScorm: true, position: 2 })
    await installFixture(h, sequenced, FIXTURE)
    await sco(sequenced, 'playing_item', cmi2004({ completion_status: 'completed' }))
    expect([(await complete(sequenced)).status, (await complete(sequenced)).body.code]).toEqual([422, 'content_decides'])
    // …its root rollup is.
    await h.sql(
      `insert into scorm_sequencing_states (user_id, module_id, launch_at, seq, state, root_completion, root_success, updated_at) values (?, ?, 1, 1, '{}'::jsonb, 'completed', 'unknown', now())`,
      [stranger.id, sequenced],
    )
    expect((await complete(sequenced)).body).toMatchObject({ newly_completed: true })
    // Several SCOs without rules: every visible one.
    const many = await insertModule(h, c, { isScorm: true, position: 3 })
    await installFixture(h, many, 'golf-scorm12-RuntimeMinimumCalls.zip')
    const scos = ScormLaunch.parse((await h.call('GET', `/scorm/${many}/launch`, { token: stranger.token })).body).items.flatMap(function ids(i): string[] {
      return [...(i.href ? [i.identifier] : []), ...i.children.flatMap(ids)]
    })
    await sco(many, scos[0]!, { cmi: { core: { lesson_status: 'completed' } } })
    expect((await complete(many)).status).toBe(422)
    for (const id of scos.slice(1)) await sco(many, id, { cmi: { core: { lesson_status: 'completed' } } })
    expect((await complete(many)).body).toMatchObject({ newly_completed: true })
  })
})

describe('GET and POST /scorm/progress', () => {
  it('answers the defaults before anything is stored, then merges saved fields without going back from completed', async () => {
    const c = await insertCourse(h, { assignedTo: [learner.id] })
    const m = await insertModule(h, c, { isScorm: true })
    await installFixture(h, m, FIXTURE)
    await insertModule(h, c, { position: 2 })
    const empty = await h.call('GET', `/scorm/progress/${m}`, { token: learner.token })
    expect([empty.status, empty.body]).toEqual([200, DEFAULT_SCORM_PROGRESS])
    const save = (scormData: Record<string, unknown>) => h.call('POST', '/scorm/progress', { token: learner.token, body: { moduleId: m, courseId: c, scormData } })
    expect((await save({ lessonStatus: 'incomplete', location: 'p1', score: 40 })).body).toEqual({ message: 'Progress saved' })
    expect(ScormProgress.parse((await h.call('GET', `/scorm/progress/${m}`, { token: learner.token })).body)).toEqual({
      ...DEFAULT_SCORM_PROGRESS,
      lessonStatus: 'incomplete',
      location: 'p1',
      score: 40,
    })
    await save({ suspendData: 'abc', interactions: [{ id: 'q1', result: 'correct' }] })
    const merged = (await h.call('GET', `/scorm/progress/${m}`, { token: learner.token })).body
    expect(merged).toMatchObject({ lessonStatus: 'incomplete', location: 'p1', score: 40, suspendData: 'abc', interactions: [{ id: 'q1', result: 'correct' }] })
    // The record lives in the SCO's cmi tree: the next launch resumes with it.
    const resumed = await launch(learner, m)
    const tree = resumed.state[resumed.startItem]!.cmi.cmi as Record<string, unknown>
    expect([tree.suspend_data, tree.location, tree.completion_status]).toEqual(['abc', 'p1', 'incomplete'])
    await save({ totalTime: '0001:30:00' })
    expect((await h.call('GET', `/scorm/progress/${m}`, { token: learner.token })).body.totalTime).toBe('0001:30:00')
    const before = (await h.events('learning.module.completed.v1')).length
    await save({ lessonStatus: 'completed' })
    await save({ lessonStatus: 'incomplete' })
    expect((await h.call('GET', `/scorm/progress/${m}`, { token: learner.token })).body.lessonStatus).toBe('completed')
    const events = (await h.events('learning.module.completed.v1')).slice(before)
    expect(events.map((e) => [e.data.moduleId, e.data.trigger])).toEqual([[m, 'scorm-status']])
    // the learner's record is theirs alone
    expect((await h.call('GET', `/scorm/progress/${m}`, { token: admin.token })).body).toEqual(DEFAULT_SCORM_PROGRESS)
  })
  it('refuses strangers, missing modules, a wrong course and bad bodies', async () => {
    expect((await h.call('GET', `/scorm/progress/${moduleId}`, { token: stranger.token })).status).toBe(403)
    expect((await h.call('GET', '/scorm/progress/999999', { token: learner.token })).status).toBe(404)
    expect((await h.call('GET', `/scorm/progress/${moduleId}`)).status).toBe(401)
    const other = await insertCourse(h, { toAll: true })
    const wrong = await h.call('POST', '/scorm/progress', { token: learner.token, body: { moduleId, courseId: other, scormData: {} } })
    expect(wrong.status).toBe(400)
    expect((await h.call('POST', '/scorm/progress', { token: stranger.token, body: { moduleId, courseId, scormData: {} } })).status).toBe(403)
    expect((await h.call('POST', '/scorm/progress', { token: learner.token, body: { moduleId, courseId } })).status).toBe(400)
    const bad = (scormData: Record<string, unknown>) => h.call('POST', '/scorm/progress', { token: learner.token, body: { moduleId, courseId, scormData } })
    // 'browsed' is a SCORM 1.2 status; this package is 2004.
    for (const location of ['p\u00001', 'p\ud8001']) {
      const res = await bad({ location })
      expect([res.status, res.body.code], location).toEqual([400, 'invalid_text'])
    }
    for (const scormData of [{ lessonStatus: 'browsed' }, { lessonStatus: 'done' }, { totalTime: '1 hour' }, { sessionTime: '00:61:00' }]) {
      const res = await bad(scormData)
      expect([res.status, res.body.code], JSON.stringify(scormData)).toEqual([400, 'validation_failed'])
      expect(res.body.message).toMatch(/lessonStatus|totalTime|sessionTime/)
    }
  })
})

describe('GET /scorm-editor/edit/{moduleId}', () => {
  it('answers whether the package has edits to those who may open it', async () => {
    expect((await h.call('GET', `/scorm-editor/edit/${moduleId}`, { token: learner.token })).body).toEqual({ hasEdits: false })
    await h.sql('update course_modules set has_edits = true where id = ?', [moduleId])
    expect((await h.call('GET', `/scorm-editor/edit/${moduleId}`, { token: admin.token })).body).toEqual({ hasEdits: true })
    expect((await h.call('GET', `/scorm-editor/edit/${moduleId}`, { token: stranger.token })).status).toBe(403)
    expect((await h.call('GET', '/scorm-editor/edit/999999', { token: learner.token })).status).toBe(404)
    await h.sql('update course_modules set has_edits = false where id = ?', [moduleId])
  })
})

describe('exam stats', () => {
  it('are unaffected by launches, commits and completions', async () => {
    expect(await examStats()).toEqual(statsBefore)
    expect(statsBefore.examsTaken).toBe(0)
  })
})
