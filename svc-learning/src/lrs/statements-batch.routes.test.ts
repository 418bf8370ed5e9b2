// The LRS's hot path: statements that change nothing but their session's last statement time go
// to the database together while an insert runs (group commit). Sent at once from many sessions,
// each must still get its own answer: stored, refused for its ended session, or judged as a
// repeat. On the machine's PostgreSQL and on the embedded database (a pool of one connection).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, type Harness, type TestUser } from '../harness.test-support.ts'
import { insertSession, lrsApp, statementCount, statementOf, VERBS, xapiCaller, type TestSession } from './lrs.test-support.ts'

const TERMINATING = new Set([VERBS.initialized, VERBS.terminated])

describe.each([
  ['PostgreSQL', false],
  ['the embedded database', true],
])('statements sent at once, on %s', (_, embedded) => {
  let h: Harness
  let learner: TestUser
  let x: ReturnType<typeof xapiCaller>
  let log: ReturnType<typeof lrsApp>['log']

  beforeAll(async () => {
    h = await createHarness({ embedded })
    learner = await h.user()
    // As the cmi5 runtime: the hook has nothing to do with a statement that neither starts nor ends the session.
    const lrs = lrsApp(h, { judges: (statements) => statements.some((s) => TERMINATING.has(s.verb.id)) })
    x = xapiCaller(lrs.app)
    log = lrs.log
  })
  afterAll(async () => {
    await h?.close()
  })

  const post = (s: TestSession, over: Record<string, unknown> = {}) => x('POST', '/lrs/statements', { token: s.token, body: statementOf(h, s, over) })

  it('stores every statement of many sessions once, each answered with its own id, and keeps each session', async () => {
    const sessions = await Promise.all(Array.from({ length: 8 }, () => insertSession(h, learner.id)))
    const sent = sessions.flatMap((s) => Array.from({ length: 6 }, (_, n) => ({ s, id: crypto.randomUUID(), page: `${s.auId}/pages/${n}` })))
    const answers = await Promise.all(sent.map(({ s, id, page }) => post(s, { id, object: { objectType: 'Activity', id: page } })))
    expect(answers.map((a) => a.status)).toEqual(sent.map(() => 200))
    expect(answers.map((a) => a.body)).toEqual(sent.map(({ id }) => [id]))
    for (const s of sessions) expect(await statementCount(h, s.registration)).toBe(6)
    const kept = await h.sql<{ n: string }>(
      `select count(*) as n from cmi5_sessions where session_id = any(?::uuid[]) and last_statement_at is not null and initialized_at is null`,
      [`{${sessions.map((s) => s.sessionId).join(',')}}`],
    )
    expect(Number(kept[0]!.n)).toBe(8)
    // Read back: each statement whole, under its session's registration.
    const one = await x('GET', `/lrs/statements?statementId=${sent[7]!.id}`, { token: sent[7]!.s.token })
    expect(one.status).toBe(200)
    expect(one.body.object.id).toBe(sent[7]!.page)
    expect(log.calls).toHaveLength(0)
  })

  it('refuses the statements of an ended session with 403 while storing the others sent with them', async () => {
    const [open, ended] = await Promise.all([insertSession(h, learner.id), insertSession(h, learner.id)])
    // Looked up once (cached), then ended elsewhere: the insert itself must see the end.
    expect((await post(ended)).status).toBe(200)
    await h.sql('update cmi5_sessions set terminated_at = ? where session_id = ?', [h.now(), ended.sessionId])
    const answers = await Promise.all([post(open), post(ended), post(open), post(ended), post(open)])
    expect(answers.map((a) => a.status)).toEqual([200, 403, 200, 403, 200])
    expect(answers[1]!.body.code).toBe('session_ended')
    expect(await statementCount(h, open.registration)).toBe(3)
    expect(await statementCount(h, ended.registration)).toBe(1)
  })

  it('takes the same statement sent twice at once as one; the same id with other content is a 409', async () => {
    const s = await insertSession(h, learner.id)
    const id = crypto.randomUUID()
    const statement = { id, timestamp: '2026-03-04T05:06:07.000Z' }
    const same = await Promise.all([post(s, statement), post(s, statement), post(s, statement)])
    expect(same.map((a) => a.status)).toEqual([200, 200, 200])
    const other = crypto.randomUUID()
    const differing = await Promise.all([post(s, { id: other, result: { completion: true } }), post(s, { id: other, result: { completion: false } })])
    expect(differing.map((a) => a.status).sort()).toEqual([200, 409])
    expect(await statementCount(h, s.registration)).toBe(2)
  })

  it('keeps the session-changing statements on their own path: Initialized and Terminated sent beside others', async () => {
    const s = await insertSession(h, learner.id)
    const answers = await Promise.all([post(s, { verb: { id: VERBS.initialized } }), post(s), post(s)])
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200])
    const [row] = await h.sql<{ initialized_at: Date | null }>('select initialized_at from cmi5_sessions where session_id = ?', [s.sessionId])
    expect(row!.initialized_at).not.toBeNull()
    expect(log.calls.map((c) => c.statements.map((st) => st.verb.id))).toContainEqual([VERBS.initialized])
  })
})
