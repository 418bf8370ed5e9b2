import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness, type TestUser } from '../harness.test-support.ts'
import { learnerAgent } from './agents.ts'
import { insertSession, lrsApp, statementOf, VERBS, xapiCaller, type TestSession } from './lrs.test-support.ts'

let h: Harness
let learner: TestUser
let other: TestUser
let s: TestSession
let x: ReturnType<typeof xapiCaller>
const ACT = 'https://au.example.test/au/1'

beforeAll(async () => {
  h = await createHarness()
  learner = await h.user()
  other = await h.user()
  x = xapiCaller(lrsApp(h).app)
})
afterAll(async () => {
  await h?.close()
})
beforeEach(async () => {
  s = await insertSession(h, learner.id)
})

const enc = encodeURIComponent
const agentQ = (userId: string) => enc(JSON.stringify(learnerAgent(h.ctx, userId)))
const stateUrl = (o: { stateId?: string; registration?: string | null; userId?: string; since?: string } = {}) => {
  let u = `/lrs/activities/state?activityId=${enc(ACT)}&agent=${agentQ(o.userId ?? learner.id)}`
  if (o.registration !== null) u += `&registration=${o.registration ?? s.registration}`
  if (o.stateId) u += `&stateId=${enc(o.stateId)}`
  if (o.since) u += `&since=${enc(o.since)}`
  return u
}
const documentCount = async () => Number((await h.sql<{ n: string }>('select count(*) as n from xapi_documents'))[0]!.n)

describe('State', () => {
  it('PUT, GET with ETag and Last-Modified, POST merges JSON, GET of ids (since), DELETE one and all', async () => {
    expect((await x('PUT', stateUrl({ stateId: 'bookmark' }), { token: s.token, body: { page: 3, seen: [1, 2] } })).status).toBe(204)
    const got = await x('GET', stateUrl({ stateId: 'bookmark' }), { token: s.token })
    expect(got.status).toBe(200)
    expect(got.body).toEqual({ page: 3, seen: [1, 2] })
    expect(got.headers.get('etag')).toMatch(/^"[0-9a-f]{40}"$/)
    expect(got.headers.get('last-modified')).toMatch(/GMT$/)
    expect(got.headers.get('x-experience-api-version')).toBe('1.0.3')

    expect((await x('POST', stateUrl({ stateId: 'bookmark' }), { token: s.token, body: { page: 4, score: 0.5 } })).status).toBe(204)
    expect((await x('GET', stateUrl({ stateId: 'bookmark' }), { token: s.token })).body).toEqual({ page: 4, seen: [1, 2], score: 0.5 })

    // Bytes that are not JSON are kept as they came; POST cannot merge into them.
    const bytes = Buffer.from([0, 1, 2, 250, 251])
    expect((await x('PUT', stateUrl({ stateId: 'blob' }), { token: s.token, body: bytes, contentType: 'application/octet-stream' })).status).toBe(204)
    const blob = await h.orm.em.fork().getConnection().execute("select content from xapi_documents where document_id = 'blob'")
    expect(Buffer.from(blob[0].content as Buffer).equals(bytes)).toBe(true)
    expect((await x('POST', stateUrl({ stateId: 'blob' }), { token: s.token, body: { a: 1 } })).status).toBe(400)
    expect((await x('POST', stateUrl({ stateId: 'bookmark' }), { token: s.token, body: 'plain', contentType: 'text/plain' })).status).toBe(400)
    expect((await x('POST', stateUrl({ stateId: 'bookmark' }), { token: s.token, body: '[1,2]' })).status).toBe(400)

    const ids = await x('GET', stateUrl(), { token: s.token })
    expect(ids.body).toEqual(['blob', 'bookmark'])
    h.advance(60_000)
    expect((await x('PUT', stateUrl({ stateId: 'later' }), { token: s.token, body: { n: 1 } })).status).toBe(204)
    expect((await x('GET', stateUrl({ since: new Date(h.now().getTime() - 30_000).toISOString() }), { token: s.token })).body).toEqual(['later'])

    expect((await x('DELETE', stateUrl({ stateId: 'bookmark' }), { token: s.token })).status).toBe(204)
    expect((await x('GET', stateUrl({ stateId: 'bookmark' }), { token: s.token })).status).toBe(404)
    expect((await x('DELETE', stateUrl(), { token: s.token })).status).toBe(204)
    expect((await x('GET', stateUrl(), { token: s.token })).body).toEqual([])
  })

  it('keeps a registration apart from the documents without one', async () => {
    expect((await x('PUT', stateUrl({ stateId: 'a', registration: null }), { token: s.token, body: { r: false } })).status).toBe(204)
    expect((await x('PUT', stateUrl({ stateId: 'a' }), { token: s.token, body: { r: true } })).status).toBe(204)
    expect((await x('GET', stateUrl({ stateId: 'a', registration: null }), { token: s.token })).body).toEqual({ r: false })
    expect((await x('GET', stateUrl({ stateId: 'a' }), { token: s.token })).body).toEqual({ r: true })
  })

  it("refuses another learner's or registration's state with 403 and bad queries with 400, storing nothing", async () => {
    const before = await documentCount()
    const otherSession = await insertSession(h, other.id)
    expect((await x('PUT', stateUrl({ stateId: 'x', userId: other.id }), { token: s.token, body: { a: 1 } })).status).toBe(403)
    expect((await x('PUT', stateUrl({ stateId: 'x', registration: otherSession.registration }), { token: s.token, body: { a: 1 } })).status).toBe(403)
    expect((await x('GET', stateUrl({ userId: other.id }), { token: s.token })).status).toBe(403)
    expect((await x('DELETE', stateUrl({ registration: otherSession.registration }), { token: s.token })).status).toBe(403)
    expect((await x('PUT', `/lrs/activities/state?activityId=${enc(ACT)}&stateId=x`, { token: s.token, body: { a: 1 } })).status).toBe(400)
    expect((await x('PUT', `/lrs/activities/state?activityId=${enc(ACT)}&agent=${agentQ(learner.id)}`, { token: s.token, body: { a: 1 } })).status).toBe(400)
    expect((await x('PUT', `/lrs/activities/state?activityId=${enc(ACT)}&agent=%7Bbad&stateId=x`, { token: s.token, body: { a: 1 } })).status).toBe(400)
    expect((await x('GET', `${stateUrl()}&since=yesterday`, { token: s.token })).status).toBe(400)
    expect(await documentCount()).toBe(before)
  })

  it('refuses documents over 1 MB with 413, storing nothing', async () => {
    const before = await documentCount()
    const res = await x('PUT', stateUrl({ stateId: 'big' }), { token: s.token, body: Buffer.alloc(1024 * 1024 + 1, 97), contentType: 'application/octet-stream' })
    expect(res.status).toBe(413)
    expect(res.headers.get('x-experience-api-version')).toBe('1.0.3')
    expect((await x('POST', stateUrl({ stateId: 'big' }), { token: s.token, body: JSON.stringify({ a: 'x'.repeat(1024 * 1024) }) })).status).toBe(413)
    expect(await documentCount()).toBe(before)
  })
})

describe('Activity Profile', () => {
  const url = (profileId?: string, activityId = `${ACT}/${s.sessionId}`) =>
    `/lrs/activities/profile?activityId=${enc(activityId)}${profileId ? `&profileId=${enc(profileId)}` : ''}`

  it('follows the concurrency rules: 409 without a precondition on an existing document, 412 on a stale ETag', async () => {
    expect((await x('PUT', url('p'), { token: s.token, body: { v: 1 } })).status).toBe(204)
    const first = await x('GET', url('p'), { token: s.token })
    const etag = first.headers.get('etag')!
    expect((await x('PUT', url('p'), { token: s.token, body: { v: 2 } })).status).toBe(409)
    expect((await x('PUT', url('p'), { token: s.token, body: { v: 2 }, headers: { 'If-Match': '"0000000000000000000000000000000000000000"' } })).status).toBe(412)
    expect((await x('PUT', url('p'), { token: s.token, body: { v: 2 }, headers: { 'If-None-Match': '*' } })).status).toBe(412)
    expect((await x('GET', url('p'), { token: s.token })).body).toEqual({ v: 1 })
    expect((await x('PUT', url('p'), { token: s.token, body: { v: 2 }, headers: { 'If-Match': etag } })).status).toBe(204)
    const second = await x('GET', url('p'), { token: s.token })
    expect(second.body).toEqual({ v: 2 })
    expect(second.headers.get('etag')).not.toBe(etag)
    // The old ETag no longer matches; If-None-Match * creates a new one only.
    expect((await x('PUT', url('p'), { token: s.token, body: { v: 3 }, headers: { 'If-Match': etag } })).status).toBe(412)
    expect((await x('PUT', url('q'), { token: s.token, body: { v: 1 }, headers: { 'If-None-Match': '*' } })).status).toBe(204)
    expect((await x('PUT', url('r'), { token: s.token, body: { v: 1 }, headers: { 'If-Match': '*' } })).status).toBe(412)

    expect((await x('POST', url('p'), { token: s.token, body: { w: true } })).status).toBe(204)
    expect((await x('GET', url('p'), { token: s.token })).body).toEqual({ v: 2, w: true })
    expect((await x('POST', url('p'), { token: s.token, body: { w: false }, headers: { 'If-Match': etag } })).status).toBe(412)

    expect((await x('GET', url(), { token: s.token })).body).toEqual(['p', 'q'])
    expect((await x('DELETE', url('p'), { token: s.token, headers: { 'If-Match': etag } })).status).toBe(412)
    expect((await x('DELETE', url(), { token: s.token })).status).toBe(400)
    expect((await x('DELETE', url('p'), { token: s.token })).status).toBe(204)
    expect((await x('GET', url('p'), { token: s.token })).status).toBe(404)
    expect((await x('GET', '/lrs/activities/profile?profileId=p', { token: s.token })).status).toBe(400)
  })
})

describe('Agent Profile', () => {
  const url = (userId: string, profileId?: string) => `/lrs/agents/profile?agent=${agentQ(userId)}${profileId ? `&profileId=${enc(profileId)}` : ''}`

  it("serves the session learner's profile and refuses another agent's with 403", async () => {
    const mine = `prefs-${s.sessionId}`
    expect((await x('PUT', url(learner.id, mine), { token: s.token, body: { lang: 'en' }, headers: { 'If-None-Match': '*' } })).status).toBe(204)
    expect((await x('POST', url(learner.id, mine), { token: s.token, body: { speed: 2 } })).status).toBe(204)
    const got = await x('GET', url(learner.id, mine), { token: s.token })
    expect(got.body).toEqual({ lang: 'en', speed: 2 })
    expect((await x('GET', url(learner.id), { token: s.token })).body).toContain(mine)
    expect((await x('PUT', url(other.id, 'x'), { token: s.token, body: { a: 1 } })).status).toBe(403)
    expect((await x('GET', url(other.id, mine), { token: s.token })).status).toBe(403)
    expect((await x('DELETE', url(learner.id, mine), { token: s.token, headers: { 'If-Match': got.headers.get('etag')! } })).status).toBe(204)
    expect((await x('GET', url(learner.id, mine), { token: s.token })).status).toBe(404)
  })
})

describe('mounted in the learning service', () => {
  it('answers /lrs/about and wants the auth-token', async () => {
    const real = xapiCaller(h.app)
    expect((await real('GET', '/lrs/about', { version: null })).body).toEqual({ version: ['1.0.3'] })
    expect((await real('GET', '/lrs/statements', {})).status).toBe(401)
    expect((await real('GET', '/lrs/statements', { token: s.token })).status).toBe(200)
    // The cmi5 runtime's hook runs in the insert's transaction: Initialized is noted on the session.
    const init = await real('POST', '/lrs/statements', { token: s.token, body: statementOf(h, s, { verb: { id: VERBS.initialized } }) })
    expect(init.status, JSON.stringify(init.body)).toBe(200)
    const [row] = await h.sql<{ initialized_at: Date | null; last_statement_at: Date | null }>('select initialized_at, last_statement_at from cmi5_sessions where session_id = ?', [
      s.sessionId,
    ])
    expect(row!.initialized_at).not.toBeNull()
    expect(row!.last_statement_at).not.toBeNull()
  })
})
