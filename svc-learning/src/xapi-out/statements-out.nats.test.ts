import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventEnvelope } from '@portal/contracts'
import { PlatformEnv, createNatsBus, createTokenIssuer, loadOrCreateSigningKey, recordEvent, type Actor } from '@portal/server-kit'
import { TEST_NATS_URL, appCaller, createTestDatabase, silentLogger, uniqueName } from '@portal/server-kit/testing'
import { start } from '../server.ts'
import { startTestLrs, type TestLrs } from './lrs.test-support.ts'
import { statementIdOf } from './statements.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
async function eventually<T>(check: () => Promise<T | false | undefined> | T | false | undefined, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > until) throw new Error('timed out waiting')
    await sleep(50)
  }
}

describe('statements out through the outbox and NATS JetStream to an external LRS that stops and restarts', () => {
  let lrs: TestLrs
  let testDb: Awaited<ReturnType<typeof createTestDatabase>>
  let bus: Awaited<ReturnType<typeof createNatsBus>>
  let service: Awaited<ReturnType<typeof start>>
  let call: ReturnType<typeof appCaller>
  let adminToken: string
  let dataDir: string
  const stream = uniqueName('X')
  const prefix = `${uniqueName('x').toLowerCase()}.`
  const learner = crypto.randomUUID()

  const sql = async (query: string, params: unknown[] = []) => (await service.orm.em.fork().getConnection().execute(query, params)) as Record<string, unknown>[]
  /** Records learning events as the services do: in a transaction, through the outbox. */
  const record = async (n: number, from: number): Promise<EventEnvelope[]> =>
    service.orm.em.fork().transactional(async (tx) =>
      Array.from({ length: n }, (_, i) =>
        i % 3 === 0
          ? recordEvent(tx, 'learning.module.launched.v1', {
              userId: learner,
              courseId: 1,
              moduleId: from + i,
              moduleTitle: `Module ${from + i}`,
              kind: 'scorm',
              launchedAt: new Date().toISOString(),
            })
          : i % 3 === 1
            ? recordEvent(tx, 'learning.exam.submitted.v1', {
                userId: learner,
                examId: from + i,
                examName: 'Final',
                attemptId: crypto.randomUUID(),
                attemptNumber: 1,
                score: 80,
                passed: true,
              })
            : recordEvent(tx, 'learning.course.completed.v1', { userId: learner, courseId: from + i, courseTitle: 'Course', completedAt: new Date().toISOString() }),
      ),
    )

  beforeAll(async () => {
    lrs = await startTestLrs({ username: 'portal', password: 's3cret' })
    testDb = await createTestDatabase('learning_xapi')
    dataDir = await mkdtemp(join(tmpdir(), 'learning-xapi-'))
    bus = await createNatsBus({ url: TEST_NATS_URL, stream, subjectPrefix: prefix, logger: silentLogger, nakDelayMs: 100 })
    const env = PlatformEnv.parse({ NODE_ENV: 'test', DATA_DIR: dataDir, PUBLIC_URL: 'https://portal.test' })
    const issuer = createTokenIssuer(await loadOrCreateSigningKey(undefined), { issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE, ttlSeconds: 3600 })
    service = await start({
      env,
      logger: silentLogger,
      bus,
      port: 0,
      jwks: issuer.jwks(),
      databaseUrl: testDb.url,
      launchSecret: Buffer.from(new Uint8Array(32).fill(7)).toString('base64url'),
      statementsOut: { intervalMs: 100, backoff: { baseMs: 50, maxMs: 400 }, timeoutMs: 2_000 },
    })
    call = appCaller(service.app)
    const admin: Actor = { userId: crypto.randomUUID(), email: 'ada@acme.test', name: 'Ada', isAdmin: true, isManager: false, managerScope: { branches: [], departments: [] } }
    await bus.publish({
      id: crypto.randomUUID(),
      type: 'identity.user.registered.v1',
      occurredAt: new Date().toISOString(),
      data: { ...admin, branch: null, department: null, userGroup: null },
    })
    adminToken = await issuer.sign(admin)
    await eventually(async () => (await sql('select 1 from users where id = ?', [admin.userId])).length > 0)
  }, 60_000)

  afterAll(async () => {
    await service?.close()
    await bus?.close()
    await lrs?.close()
    await testDb?.drop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('passes events over while off, then sends each event once (by its id) across an LRS outage and a refusal', async () => {
    // Off: nothing queued, nothing sent.
    await record(3, 1000)
    await sleep(1000)
    expect(lrs.puts).toEqual([])

    const saved = await call('PUT', '/admin/lrs-forwarding', { token: adminToken, body: { endpoint: lrs.endpoint, username: 'portal', password: 's3cret', enabled: true } })
    expect(saved.status).toBe(200)
    const before = await record(6, 0)
    await eventually(() => lrs.stored.size === 6)

    // The LRS goes down: events keep coming, nothing is lost.
    await lrs.stop()
    const during = await record(9, 100)
    const failing = await eventually(async () => {
      const [row] = await sql('select last_error from lrs_forwarding')
      return typeof row?.last_error === 'string' && row.last_error
    })
    expect(failing).toMatch(/could not reach the LRS/)
    await eventually(async () => ((await sql('select count(*)::int as n from xapi_forward_queue'))[0]!.n as number) === 9)
    // What waits, for the admin and on /metrics.
    const waiting = (await call('GET', '/admin/lrs-forwarding', { token: adminToken })).body
    expect(waiting).toMatchObject({ waiting: 9 })
    expect(Date.parse(waiting.oldest_waiting_since)).toBeLessThanOrEqual(Date.now())
    const scraped = await (await service.app.request('/metrics')).text()
    expect(scraped).toMatch(/^xapi_statements_waiting\{service="learning"\} 9$/m)
    expect(Number(scraped.match(/^xapi_statements_oldest_waiting_age_seconds\{service="learning"\} ([\d.e+-]+)$/m)?.[1])).toBeGreaterThan(0)

    // Back up: the first statement is refused for good (400) and dropped; the rest arrive.
    await lrs.start()
    lrs.failNext.push(400)
    const after = await record(3, 200)
    const all = [...before, ...during, ...after]
    await eventually(() => lrs.stored.size === all.length - 1)
    await eventually(async () => ((await sql('select count(*)::int as n from xapi_forward_queue'))[0]!.n as number) === 0)
    expect((await call('GET', '/admin/lrs-forwarding', { token: adminToken })).body).toMatchObject({ waiting: 0, oldest_waiting_since: null })

    // Each event's statement id, one statement each; none stored twice (a second PUT would be a 409).
    // The refused one was one of those waiting (the first in the queue's order).
    const refused = lrs.puts.filter((p) => p.status === 400).map((p) => p.id)
    expect(refused).toHaveLength(1)
    expect(during.map((e) => statementIdOf(e.id))).toContain(refused[0])
    const expected = all.map((e) => statementIdOf(e.id)).filter((id) => id !== refused[0])
    expect([...lrs.stored.keys()].sort()).toEqual([...expected].sort())
    expect(lrs.puts.filter((p) => p.status === 409)).toEqual([])
    const stored204 = lrs.puts.filter((p) => p.status === 204).map((p) => p.id)
    expect(new Set(stored204).size).toBe(stored204.length)
    // In order of the events, within one subject's stream (the durable consumers are per subject).
    const launches = all.filter((e) => e.type === 'learning.module.launched.v1').map((e) => statementIdOf(e.id))
    expect(stored204.filter((id) => launches.includes(id))).toEqual(launches.filter((id) => id !== refused[0]))
    expect(lrs.auth.every((a) => a === `Basic ${Buffer.from('portal:s3cret').toString('base64')}`)).toBe(true)

    // What the admin sees: the last statement sent, after the refusal, which stays the last error.
    const settings = await call('GET', '/admin/lrs-forwarding', { token: adminToken })
    expect(settings.body).toMatchObject({ enabled: true, has_password: true, last_error: 'the LRS answered 400: refused (400)' })
    expect(Date.parse(settings.body.last_sent_at)).toBeGreaterThan(Date.parse(settings.body.last_error_at))

    // An event delivered again (JetStream's redelivery, a republish after the dedupe window) sends nothing more.
    const again = structuredClone(before[0]!)
    await bus.publish(again)
    await sleep(800)
    expect(lrs.puts.filter((p) => p.id === statementIdOf(again.id))).toHaveLength(1)
  }, 90_000)
})
