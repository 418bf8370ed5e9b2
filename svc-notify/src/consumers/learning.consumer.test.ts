import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jetstream, jetstreamManager } from '@nats-io/jetstream'
import { AdminEmail, type EventEnvelope } from '@portal/contracts'
import { PlatformEnv, createNatsBus, createTokenIssuer, loadOrCreateSigningKey, type Actor } from '@portal/server-kit'
import { TEST_NATS_URL, appCaller, createTestDatabase, silentLogger, uniqueName } from '@portal/server-kit/testing'
import { start } from '../server.ts'
import { eventually, startSmtpReceiver } from '../test-support/smtp-receiver.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const envelope = (type: string, data: unknown): EventEnvelope => ({ id: crypto.randomUUID(), type, occurredAt: new Date().toISOString(), data })

describe('admin e-mails on learning’s events, on NATS JetStream, PostgreSQL and SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>
  let testDb: Awaited<ReturnType<typeof createTestDatabase>>
  let bus: Awaited<ReturnType<typeof createNatsBus>>
  let service: Awaited<ReturnType<typeof start>>
  let call: ReturnType<typeof appCaller>
  let adminToken: string
  const stream = uniqueName('T')
  const prefix = `${uniqueName('t').toLowerCase()}.`
  const run = Date.now().toString(36)
  const learner = { userId: crypto.randomUUID(), name: 'Grace Hopper', email: `grace.${run}@acme.test` }
  const addresses = { both: `both.${run}@acme.test`, exams: `exams.${run}@acme.test`, courses: `courses.${run}@acme.test`, inactive: `off.${run}@acme.test` }

  const announce = (u: { userId: string; name: string; email: string }, isAdmin = false) =>
    bus.publish(envelope('identity.user.registered.v1', { ...u, isAdmin, isManager: false, managerScope: { branches: [], departments: [] }, branch: 'Portland', department: 'Service', userGroup: null }))

  beforeAll(async () => {
    smtp = await startSmtpReceiver()
    testDb = await createTestDatabase('notify')
    bus = await createNatsBus({ url: TEST_NATS_URL, stream, subjects: ['identity.>', 'learning.>'], subjectPrefix: prefix, logger: silentLogger, nakDelayMs: 100 })
    const env = PlatformEnv.parse({ SMTP_URL: smtp.url, MAIL_FROM: 'Learning Portal <no-reply@portal.test>', NODE_ENV: 'test' })
    const issuer = createTokenIssuer(await loadOrCreateSigningKey(undefined), { issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE, ttlSeconds: 3600 })
    service = await start({ env, logger: silentLogger, bus, port: 0, jwks: issuer.jwks(), databaseUrl: testDb.url, sender: { intervalMs: 100, retryBaseMs: 50 } })
    call = appCaller(service.app)
    const admin: Actor = { userId: crypto.randomUUID(), email: `admin.${run}@acme.test`, name: 'Ada Admin', isAdmin: true, isManager: false, managerScope: { branches: [], departments: [] } }
    adminToken = await issuer.sign(admin)
    await announce(admin, true)
    await announce(learner)
    const add = async (email: string, notification_types?: string[]) => AdminEmail.parse((await call('POST', '/admin/emails', { token: adminToken, body: { email, notification_types } })).body)
    await add(addresses.both)
    await add(addresses.exams, ['exam_completion'])
    await add(addresses.courses, ['course_completion'])
    const off = await add(addresses.inactive)
    expect((await call('PATCH', `/admin/emails/${off.id}/toggle`, { token: adminToken })).status).toBe(200)
    // The learner reached notify's projection (the mails name them).
    await eventually(async () => ((await service.orm.em.fork().getConnection().execute('select 1 from users where id = ?', [learner.userId])) as unknown[]).length > 0)
  })

  afterAll(async () => {
    await service?.close()
    if (bus) {
      const jsm = await jetstreamManager(bus.connection)
      await jsm.streams.delete(stream).catch(() => undefined)
      await bus.close()
    }
    await testDb?.drop()
    await smtp?.close()
  })

  it('mails an exam submitted to each active address of type exam_completion, once, even when redelivered', async () => {
    const event = envelope('learning.exam.submitted.v1', { userId: learner.userId, examId: 7, examName: 'Electrical Safety', attemptId: crypto.randomUUID(), attemptNumber: 2, score: 85, passed: true })
    await bus.publish(event)
    // The same event stored again under another message id: only the inbox stands between it and a second mail.
    await jetstream(bus.connection).publish(prefix + event.type, JSON.stringify(event), { msgID: crypto.randomUUID() })
    const [mail] = await eventually(() => smtp.to(addresses.exams).length > 0 && smtp.to(addresses.exams))
    await eventually(() => smtp.to(addresses.both).length > 0)
    expect(mail!.subject).toBe('Exam completed: Grace Hopper – Electrical Safety (Passed)')
    expect(mail!.text).toContain(`Grace Hopper (${learner.email}) completed the exam "Electrical Safety".`)
    expect(mail!.text).toContain('Score: 85%')
    expect(mail!.text).toContain('Result: Passed')
    expect(mail!.html).toContain('Electrical Safety')
    await sleep(1_000)
    expect(smtp.to(addresses.exams)).toHaveLength(1)
    expect(smtp.to(addresses.both)).toHaveLength(1)
    expect(smtp.to(addresses.courses)).toHaveLength(0)
    expect(smtp.to(addresses.inactive)).toHaveLength(0)
  })

  it('mails a course completed to each active address of type course_completion with the completion date', async () => {
    await bus.publish(envelope('learning.course.completed.v1', { userId: learner.userId, courseId: 3, courseTitle: 'Ladder Basics', completedAt: '2026-11-20T15:00:00.000Z' }))
    const [mail] = await eventually(() => smtp.to(addresses.courses).length > 0 && smtp.to(addresses.courses))
    await eventually(() => smtp.to(addresses.both).length > 1)
    expect(mail!.subject).toBe('Course completed: Grace Hopper – Ladder Basics')
    expect(mail!.text).toContain('Completed on: November 20, 2026')
    await sleep(500)
    expect(smtp.to(addresses.courses)).toHaveLength(1)
    expect(smtp.to(addresses.both)).toHaveLength(2)
    expect(smtp.to(addresses.exams)).toHaveLength(1)
    expect(smtp.to(addresses.inactive)).toHaveLength(0)
  })
})
