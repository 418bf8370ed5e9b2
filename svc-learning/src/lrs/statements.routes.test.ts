import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { AppError } from '@portal/server-kit'
import { createHarness, type Harness, type TestUser } from '../harness.test-support.ts'
import { learnerAgent } from './agents.ts'
import { insertSession, lrsApp, statementCount, statementOf, VERBS, xapiCaller, type HookLog, type TestSession } from './lrs.test-support.ts'

let h: Harness
let learner: TestUser
let other: TestUser
let s: TestSession
let x: ReturnType<typeof xapiCaller>
let log: HookLog

beforeAll(async () => {
  h = await createHarness()
  learner = await h.user()
  other = await h.user()
  const lrs = lrsApp(h)
  x = xapiCaller(lrs.app)
  log = lrs.log
})
afterAll(async () => {
  await h?.close()
})
beforeEach(async () => {
  s = await insertSession(h, learner.id)
  log.calls.length = 0
  log.fail = undefined
})

describe('the About resource and the protocol', () => {
  it('answers the version without a credential or version header', async () => {
    const res = await x('GET', '/lrs/about', { version: null })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ version: ['1.0.3'] })
    expect(res.headers.get('x-experience-api-version')).toBe('1.0.3')
  })

  it('refuses requests without a 1.0.x version header with 400 and stores nothing', async () => {
    for (const version of [null, '0.95', '2.0.0', 'x']) {
      const res = await x('POST', '/lrs/statements', { token: s.token, body: statementOf(h, s), version })
      expect(res.status, String(version)).toBe(400)
      expect(res.body.code).toBe('xapi_version')
      expect(res.headers.get('x-experience-api-version')).toBe('1.0.3')
      expect(res.headers.get('access-control-allow-origin')).toBe('*')
    }
    expect(await statementCount(h, s.registration)).toBe(0)
    expect((await x('POST', '/lrs/statements', { token: s.token, body: statementOf(h, s), version: '1.0.1' })).status).toBe(200)
  })

  it('answers CORS preflights without credential or version, naming the xAPI headers', async () => {
    const res = await x('OPTIONS', '/lrs/statements', {
      version: null,
      headers: {
        Origin: 'https://au.example.test',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type,x-experience-api-version',
      },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase()
    for (const hd of ['authorization', 'content-type', 'x-experience-api-version', 'if-match', 'if-none-match']) expect(allowed).toContain(hd)
    const got = await x('GET', `/lrs/statements?registration=${s.registration}`, { token: s.token, headers: { Origin: 'https://au.example.test' } })
    expect(got.headers.get('access-control-allow-origin')).toBe('*')
    const exposed = (got.headers.get('access-control-expose-headers') ?? '').toLowerCase()
    for (const hd of ['etag', 'last-modified', 'x-experience-api-version', 'x-experience-api-consistent-through']) expect(exposed).toContain(hd)
  })

  it('refuses a missing or unknown auth-token with 401', async () => {
    const missing = await x('GET', '/lrs/statements', {})
    expect(missing.status).toBe(401)
    expect(missing.headers.get('x-experience-api-version')).toBe('1.0.3')
    expect(missing.headers.get('access-control-allow-origin')).toBe('*')
    expect((await x('GET', '/lrs/agents', { token: s.token })).status).toBe(404)
    const res = await x('POST', '/lrs/statements', { token: 'bm90LWEtdG9rZW4=', body: statementOf(h, s) })
    expect(res.status).toBe(401)
    expect(res.body.code).toBe('lrs_credential_invalid')
    expect(await statementCount(h, s.registration)).toBe(0)
  })
})

describe('POST and PUT statements', () => {
  it('stores one statement, fills id, timestamp, stored, authority and version, and runs the hook with it', async () => {
    const res = await x('POST', '/lrs/statements', { token: s.token, body: statementOf(h, s) })
    expect(res.status).toBe(200)
    expect(res.body).toHaveLength(1)
    const [id] = res.body as string[]
    const got = await x('GET', `/lrs/statements?statementId=${id}`, { token: s.token })
    expect(got.status).toBe(200)
    expect(got.headers.get('x-experience-api-consistent-through')).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(got.body).toMatchObject({ id, version: '1.0.0', actor: learnerAgent(h.ctx, learner.id), verb: { id: VERBS.experienced } })
    expect(got.body.authority).toMatchObject({ objectType: 'Agent', account: { name: 'lms' } })
    expect(Date.parse(got.body.timestamp)).not.toBeNaN()
    expect(Date.parse(got.body.stored)).not.toBeNaN()
    expect(log.calls).toHaveLength(1)
    expect(log.calls[0]!.session).toMatchObject({ sessionId: s.sessionId, registration: s.registration, userId: learner.id, moduleId: s.moduleId, courseId: s.courseId })
    expect(log.calls[0]!.statements.map((st) => st.id)).toEqual([id])
  })

  it("replaces an AU's authority with the LMS's", async () => {
    const claimed = { objectType: 'Agent', mbox: 'mailto:boss@example.test' }
    const res = await x('POST', '/lrs/statements', { token: s.token, body: statementOf(h, s, { authority: claimed }) })
    expect(res.status).toBe(200)
    const got = await x('GET', `/lrs/statements?statementId=${res.body[0]}`, { token: s.token })
    expect(got.body.authority).toMatchObject({ account: { name: 'lms' } })
  })

  it('stores a batch in order and answers its ids; the same batch again stores nothing new', async () => {
    const ids = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()]
    const batch = ids.map((id, i) => statementOf(h, s, { id, result: { score: { scaled: i / 2 } } }))
    const res = await x('POST', '/lrs/statements', { token: s.token, body: batch })
    expect(res.status).toBe(200)
    expect(res.body).toEqual(ids)
    const again = await x('POST', '/lrs/statements', { token: s.token, body: batch })
    expect(again.status).toBe(200)
    expect(await statementCount(h, s.registration)).toBe(3)
    // The hook saw each statement once.
    expect(log.calls.flatMap((c) => c.statements.map((st) => st.id))).toEqual(ids)
  })

  it('refuses a malformed statement with 400 and the library message; a batch with one is stored not at all', async () => {
    const bad = [
      { name: 'no verb', body: { ...statementOf(h, s), verb: undefined }, message: /verb is required/ },
      { name: 'verb id not an IRI', body: statementOf(h, s, { verb: { id: 'completed' } }), message: /verb\.id is not a valid Internationalized Resource Identifier/ },
      { name: 'two identifiers', body: statementOf(h, s, { actor: { ...learnerAgent(h.ctx, learner.id), mbox: 'mailto:a@b.test' } }), message: /exactly one identifier/ },
      { name: 'unknown property', body: statementOf(h, s, { colour: 'red' }), message: /properties xAPI does not define/ },
      { name: 'scaled score over 1', body: statementOf(h, s, { result: { score: { scaled: 2 } } }), message: /scaled/ },
      { name: 'bad id', body: statementOf(h, s, { id: 'not-a-uuid' }), message: /statement\.id/ },
      { name: 'not an object', body: '"just text"', message: /JSON object/ },
    ]
    for (const b of bad) {
      const res = await x('POST', '/lrs/statements', { token: s.token, body: b.body })
      expect(res.status, b.name).toBe(400)
      expect(res.body.message, b.name).toMatch(b.message)
      const batch = await x('POST', '/lrs/statements', { token: s.token, body: [statementOf(h, s), typeof b.body === 'string' ? 'x' : b.body] })
      expect(batch.status, b.name).toBe(400)
      expect(batch.body.message, b.name).toMatch(/^Statement 1: /)
    }
    expect((await x('POST', '/lrs/statements', { token: s.token, body: '{not json' })).status).toBe(400)
    expect((await x('POST', '/lrs/statements', { token: s.token, body: [] })).status).toBe(400)
    expect((await x('POST', '/lrs/statements', { token: s.token, body: statementOf(h, s), contentType: 'text/plain' })).status).toBe(415)
    expect(await statementCount(h, s.registration)).toBe(0)
    expect(log.calls).toHaveLength(0)
  })

  it('refuses another actor, another registration and voiding with 403, storing nothing', async () => {
    const otherSession = await insertSession(h, other.id)
    const cases = [
      { body: statementOf(h, s, { actor: learnerAgent(h.ctx, other.id) }), code: 'wrong_actor' },
      { body: statementOf(h, s, { context: { registration: otherSession.registration } }), code: 'wrong_registration' },
      { body: statementOf(h, s, { context: undefined }), code: 'wrong_registration' },
      { body: statementOf(h, s, { verb: { id: VERBS.voided }, object: { objectType: 'StatementRef', id: crypto.randomUUID() } }), code: 'voiding_refused' },
    ]
    for (const c of cases) {
      const res = await x('POST', '/lrs/statements', { token: s.token, body: [statementOf(h, s), c.body] })
      expect(res.status, c.code).toBe(403)
      expect(res.body.code).toBe(c.code)
    }
    expect(await statementCount(h, s.registration)).toBe(0)
    expect(await statementCount(h, otherSession.registration)).toBe(0)
  })

  it('PUT stores the statement under statementId: 204, the same again 204, other content 409', async () => {
    const id = crypto.randomUUID()
    const body = statementOf(h, s, { timestamp: '2026-01-02T03:04:05.000Z' })
    expect((await x('PUT', `/lrs/statements?statementId=${id}`, { token: s.token, body })).status).toBe(204)
    expect((await x('PUT', `/lrs/statements?statementId=${id}`, { token: s.token, body })).status).toBe(204)
    const changed = await x('PUT', `/lrs/statements?statementId=${id}`, { token: s.token, body: { ...body, result: { completion: true } } })
    expect(changed.status).toBe(409)
    // POST of a batch with the conflicting statement: nothing of it stored.
    const fresh = crypto.randomUUID()
    const batch = await x('POST', '/lrs/statements', { token: s.token, body: [statementOf(h, s, { id: fresh }), { ...body, id, result: { success: true } }] })
    expect(batch.status).toBe(409)
    expect((await x('GET', `/lrs/statements?statementId=${fresh}`, { token: s.token })).status).toBe(404)
    const mismatch = await x('PUT', `/lrs/statements?statementId=${crypto.randomUUID()}`, { token: s.token, body: { ...body, id } })
    expect(mismatch.status).toBe(400)
    expect((await x('PUT', '/lrs/statements', { token: s.token, body })).status).toBe(400)
    expect((await x('PUT', `/lrs/statements?statementId=${id}`, { token: s.token, body: [body] })).status).toBe(400)
    expect(await statementCount(h, s.registration)).toBe(1)
    const got = await x('GET', `/lrs/statements?statementId=${id}`, { token: s.token })
    expect(got.body.timestamp).toBe('2026-01-02T03:04:05.000Z')
    expect(got.body.result).toBeUndefined()
  })

  it('refuses the same id twice in one batch', async () => {
    const id = crypto.randomUUID()
    const res = await x('POST', '/lrs/statements', { token: s.token, body: [statementOf(h, s, { id }), statementOf(h, s, { id })] })
    expect(res.status).toBe(400)
    expect(await statementCount(h, s.registration)).toBe(0)
  })

  it('refuses bodies over 1 MB with 413, storing nothing', async () => {
    const big = statementOf(h, s, { result: { response: 'x'.repeat(1024 * 1024) } })
    const res = await x('POST', '/lrs/statements', { token: s.token, body: big })
    expect(res.status).toBe(413)
    expect(res.headers.get('x-experience-api-version')).toBe('1.0.3')
    expect(await statementCount(h, s.registration)).toBe(0)
  })

  it('rolls the insert back when the hook refuses (an AppError keeps its status)', async () => {
    log.fail = new AppError(400, 'cmi5_rule', 'The AU must send Initialized first')
    const res = await x('POST', '/lrs/statements', { token: s.token, body: [statementOf(h, s), statementOf(h, s)] })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'cmi5_rule', message: 'The AU must send Initialized first' })
    expect(await statementCount(h, s.registration)).toBe(0)
  })
})

describe('the end of a session', () => {
  it('refuses statements after Terminated with 403, also while the credential is cached', async () => {
    expect((await x('POST', '/lrs/statements', { token: s.token, body: statementOf(h, s, { verb: { id: VERBS.initialized } }) })).status).toBe(200)
    // The cmi5 runtime records Terminated in its hook; here the test does, as that hook would.
    const terminate = await x('POST', '/lrs/statements', { token: s.token, body: statementOf(h, s, { verb: { id: VERBS.terminated } }) })
    expect(terminate.status).toBe(200)
    // This instance knows at once (its cached credential): every request of the session is refused.
    const read = await x('GET', '/lrs/statements', { token: s.token })
    expect(read.status).toBe(403)
    expect(read.body.code).toBe('session_ended')
    await h.sql('update cmi5_sessions set terminated_at = ? where session_id = ?', [h.now(), s.sessionId])
    const after = await x('POST', '/lrs/statements', { token: s.token, body: statementOf(h, s) })
    expect(after.status).toBe(403)
    expect(after.body.code).toBe('session_ended')
    expect(await statementCount(h, s.registration)).toBe(2)
  })

  it('a statement merely mentioning Terminated does not end the session', async () => {
    const res = await x('POST', '/lrs/statements', { token: s.token, body: statementOf(h, s, { result: { response: VERBS.terminated } }) })
    expect(res.status).toBe(200)
    expect((await x('POST', '/lrs/statements', { token: s.token, body: statementOf(h, s) })).status).toBe(200)
  })

  it('the insert itself reads the end: a session ended by another instance after the lookup is cached', async () => {
    expect((await x('POST', '/lrs/statements', { token: s.token, body: statementOf(h, s) })).status).toBe(200)
    await h.sql('update cmi5_sessions set abandoned_at = ? where session_id = ?', [h.now(), s.sessionId])
    const res = await x('POST', '/lrs/statements', { token: s.token, body: statementOf(h, s) })
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('session_ended')
    expect(await statementCount(h, s.registration)).toBe(1)
  })

  it('refuses every request of an abandoned session looked up afresh', async () => {
    await h.sql('update cmi5_sessions set abandoned_at = ? where session_id = ?', [h.now(), s.sessionId])
    const res = await x('GET', '/lrs/statements', { token: s.token })
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('session_ended')
  })
})

describe('GET statements', () => {
  let ids: string[]
  const ACT = 'https://au.example.test/au/2'
  beforeEach(async () => {
    ids = []
    for (let i = 0; i < 7; i++) {
      const res = await x('POST', '/lrs/statements', {
        token: s.token,
        body: statementOf(h, s, i % 2 ? { verb: { id: VERBS.completed }, object: { objectType: 'Activity', id: ACT } } : {}),
      })
      ids.push(...(res.body as string[]))
    }
  })

  it('answers the registration newest first with the filters, and pages through all by more', async () => {
    const all = await x('GET', '/lrs/statements', { token: s.token })
    expect(all.status).toBe(200)
    expect(all.body.statements.map((st: { id: string }) => st.id)).toEqual([...ids].reverse())
    expect(all.body.more).toBe('')
    const asc = await x('GET', '/lrs/statements?ascending=true', { token: s.token })
    expect(asc.body.statements.map((st: { id: string }) => st.id)).toEqual(ids)
    const byVerb = await x('GET', `/lrs/statements?verb=${encodeURIComponent(VERBS.completed)}&ascending=true`, { token: s.token })
    expect(byVerb.body.statements.map((st: { id: string }) => st.id)).toEqual([ids[1], ids[3], ids[5]])
    const byActivity = await x('GET', `/lrs/statements?activity=${encodeURIComponent(s.auId)}&ascending=true`, { token: s.token })
    expect(byActivity.body.statements.map((st: { id: string }) => st.id)).toEqual([ids[0], ids[2], ids[4], ids[6]])
    const byAgent = await x('GET', `/lrs/statements?agent=${encodeURIComponent(JSON.stringify(learnerAgent(h.ctx, learner.id)))}`, { token: s.token })
    expect(byAgent.body.statements).toHaveLength(7)
    const byOtherAgent = await x('GET', `/lrs/statements?agent=${encodeURIComponent(JSON.stringify({ mbox: 'mailto:nobody@x.test' }))}`, { token: s.token })
    expect(byOtherAgent.body.statements).toHaveLength(0)
    const byReg = await x('GET', `/lrs/statements?registration=${s.registration}&format=exact&attachments=false`, { token: s.token })
    expect(byReg.body.statements).toHaveLength(7)

    // Paging: 3 at a time, ascending, until more is empty.
    const seen: string[] = []
    let url = `/lrs/statements?limit=3&ascending=true&verb=${encodeURIComponent(VERBS.experienced)}`
    let pages = 0
    while (url) {
      const page = await x('GET', url, { token: s.token })
      expect(page.status).toBe(200)
      seen.push(...page.body.statements.map((st: { id: string }) => st.id))
      url = page.body.more
      pages++
    }
    expect(seen).toEqual([ids[0], ids[2], ids[4], ids[6]])
    expect(pages).toBe(2)
    const desc = await x('GET', '/lrs/statements?limit=5', { token: s.token })
    const next = await x('GET', desc.body.more, { token: s.token })
    expect([...desc.body.statements, ...next.body.statements].map((st: { id: string }) => st.id)).toEqual([...ids].reverse())
  })

  it('filters by stored time with since and until', async () => {
    const first = await x('GET', `/lrs/statements?statementId=${ids[0]}`, { token: s.token })
    const stored = first.body.stored as string
    const until = await x('GET', `/lrs/statements?until=${encodeURIComponent(stored)}`, { token: s.token })
    expect(until.body.statements.map((st: { id: string }) => st.id)).toContain(ids[0])
    h.advance(60_000)
    const later = await x('POST', '/lrs/statements', { token: s.token, body: statementOf(h, s) })
    const since = await x('GET', `/lrs/statements?since=${encodeURIComponent(new Date(h.now().getTime() - 30_000).toISOString())}`, { token: s.token })
    expect(since.body.statements.map((st: { id: string }) => st.id)).toEqual(later.body)
  })

  it("keeps other registrations' statements out: 403 for their registration, 404 for their ids", async () => {
    const otherSession = await insertSession(h, other.id)
    const theirs = await x('POST', '/lrs/statements', { token: otherSession.token, body: statementOf(h, otherSession) })
    expect(theirs.status).toBe(200)
    expect((await x('GET', `/lrs/statements?registration=${otherSession.registration}`, { token: s.token })).status).toBe(403)
    expect((await x('GET', `/lrs/statements?statementId=${theirs.body[0]}`, { token: s.token })).status).toBe(404)
    const mine = await x('GET', '/lrs/statements', { token: s.token })
    expect(mine.body.statements.map((st: { id: string }) => st.id)).not.toContain(theirs.body[0])
    // A second session of the same registration sees the registration's statements.
    const second = await insertSession(h, learner.id, { registration: s, auId: 'https://au.example.test/au/2' })
    expect((await x('GET', '/lrs/statements', { token: second.token })).body.statements).toHaveLength(7)
  })

  it('refuses bad queries with 400: unknown or malformed parameters, related filters, ids with filters', async () => {
    for (const q of [
      'related_agents=true',
      'related_activities=true',
      'limit=-1',
      'since=yesterday',
      'statementId=nope',
      `statementId=${ids[0]}&verb=${encodeURIComponent(VERBS.completed)}`,
      `statementId=${ids[0]}&voidedStatementId=${ids[1]}`,
      'agent=notjson',
      `agent=${encodeURIComponent('{"name":"no identifier"}')}`,
      'colour=red',
    ]) {
      const res = await x('GET', `/lrs/statements?${q}`, { token: s.token })
      expect(res.status, q).toBe(400)
    }
    expect((await x('GET', '/lrs/statements?related_agents=false&related_activities=false', { token: s.token })).status).toBe(200)
  })

  it('finds a voided statement by voidedStatementId only, and leaves it out of queries', async () => {
    // AUs may not void: the LMS does, through insertStatements (as the cmi5 runtime may).
    const { insertStatements } = await import('./statements.repository.ts')
    await insertStatements(
      h.orm.em.fork(),
      [
        {
          id: crypto.randomUUID(),
          timestamp: new Date().toISOString(),
          actor: learnerAgent(h.ctx, learner.id),
          verb: { id: VERBS.voided },
          object: { objectType: 'StatementRef', id: ids[0]! },
          context: { registration: s.registration },
        },
      ],
      { registration: s.registration, sessionId: null },
    )
    expect((await x('GET', `/lrs/statements?statementId=${ids[0]}`, { token: s.token })).status).toBe(404)
    const voided = await x('GET', `/lrs/statements?voidedStatementId=${ids[0]}`, { token: s.token })
    expect(voided.status).toBe(200)
    expect(voided.body.id).toBe(ids[0])
    const all = await x('GET', '/lrs/statements', { token: s.token })
    expect(all.body.statements.map((st: { id: string }) => st.id)).not.toContain(ids[0])
    expect(all.body.statements).toHaveLength(7) // six left and the voiding statement
  })
})
