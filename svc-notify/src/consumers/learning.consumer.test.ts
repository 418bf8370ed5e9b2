import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jetstream, jetstreamManager } from '@nats-io/jetstream'
import { AdminEmail, type EventEnvelope } from '@portal/contracts'
import { PlatformEnv, createNatsBus, createTokenIssuer, loadOrCreateSigningKey, type Actor } from '@portal/server-kit'
import { TEST_NATS_URL, appCaller, createTestDatabase, silentLogger, uniqueName } from '@portal/server-kit/testing'
import { start } from '../server.ts'
import { eventually, startSmtpReceiver } from '../test-support/index.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const envelope = (type: string, data: unknown): EventEnvelope => ({ id: crypto.randomUUID(), type, occurredAt: new Date().toISOString(), data })

describe('admin e-mails and group rules on learning’s events, on NATS JetStream, PostgreSQL and SMTP', () => {
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

  const announce = (u: { userId: string; name: string; email: string }, isAdmin = false, userGroup: string | null = null) =>
    bus.publish(
      envelope('identity.user.registered.v1', {
        ...u,
        isAdmin,
        isManager: false,
        managerScope: { branches: [], departments: [] },
        branch: 'Portland',
        department: 'Service',
        userGroup,
      }),
    )
  const sql = async (query: string, params: unknown[] = []) => (await service.orm.em.fork().getConnection().execute(query, params)) as Record<string, unknown>[]
  /** A group announced by identity, once notify made its rule: the rule's id. */
  const group = async (name: string) => {
    await bus.publish(envelope('identity.group.created.v1', { groupId: crypto.randomUUID(), name, createdAt: new Date().toISOString() }))
    const [rule] = await eventually(async () => {
      const rows = await sql('select id from notification_rules where user_group = ?', [name])
      return rows.length > 0 && rows
    })
    return rule!.id as number
  }

  beforeAll(async () => {
    smtp = await startSmtpReceiver()
    testDb = await createTestDatabase('notify')
    bus = await createNatsBus({ url: TEST_NATS_URL, stream, subjects: ['identity.>', 'learning.>', 'certs.>'], subjectPrefix: prefix, logger: silentLogger, nakDelayMs: 100 })
    const env = PlatformEnv.parse({ SMTP_URL: smtp.url, MAIL_FROM: 'Learning Portal <no-reply@portal.test>', NODE_ENV: 'test' })
    const issuer = createTokenIssuer(await loadOrCreateSigningKey(undefined), { issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE, ttlSeconds: 3600 })
    service = await start({ env, logger: silentLogger, bus, port: 0, jwks: issuer.jwks(), databaseUrl: testDb.url, sender: { intervalMs: 100, retryBaseMs: 50 } })
    call = appCaller(service.app)
    const admin: Actor = {
      userId: crypto.randomUUID(),
      email: `admin.${run}@acme.test`,
      name: 'Ada Admin',
      isAdmin: true,
      isManager: false,
      managerScope: { branches: [], departments: [] },
    }
    adminToken = await issuer.sign(admin)
    await announce(admin, true)
    await announce(learner)
    const add = async (email: string, notification_types?: string[]) =>
      AdminEmail.parse((await call('POST', '/admin/emails', { token: adminToken, body: { email, notification_types } })).body)
    await add(addresses.both)
    await add(addresses.exams, ['exam_completion'])
    await add(addresses.courses, ['course_completion'])
    const off = await add(addresses.inactive)
    expect((await call('PATCH', `/admin/emails/${off.id}/toggle`, { token: adminToken })).status).toBe(200)
    // The learner reached notify's projection (the mails name them).
    await eventually(async () => (await sql('select 1 from users where id = ?', [learner.userId])).length > 0)
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
    const event = envelope('learning.exam.submitted.v1', {
      userId: learner.userId,
      examId: 7,
      examName: 'Electrical Safety',
      attemptId: crypto.randomUUID(),
      attemptNumber: 2,
      score: 85,
      passed: true,
    })
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

  it('mails an immediate rule’s recipients on each tracked event of a group member, once', async () => {
    const crew = `Crew ${run}`
    const ruleId = await group(crew)
    const lead = `crew-lead.${run}@acme.test`
    expect((await call('PUT', `/admin/notification-rules/${ruleId}`, { token: adminToken, body: { recipient_emails: [lead] } })).status).toBe(200)
    const tracking = { ruleId, trackingItems: [{ type: 'exam', id: 71, name: 'Confined Spaces' }], reportFrequency: 'immediate' }
    expect((await call('PUT', `/email-reports/groups/${encodeURIComponent(crew)}/tracking`, { token: adminToken, body: tracking })).status).toBe(200)
    const member = { userId: crypto.randomUUID(), name: 'Dorothy Vaughan', email: `dorothy.${run}@acme.test` }
    await announce(member, false, crew)
    await eventually(async () => (await sql('select 1 from users where id = ? and user_group = ?', [member.userId, crew])).length > 0)
    const submitted = (examId: number, score: number) =>
      envelope('learning.exam.submitted.v1', {
        userId: member.userId,
        examId,
        examName: examId === 71 ? 'Confined Spaces' : 'Other',
        attemptId: crypto.randomUUID(),
        attemptNumber: 1,
        score,
        passed: score >= 70,
      })
    const tracked = submitted(71, 95)
    await bus.publish(tracked)
    await jetstream(bus.connection).publish(prefix + tracked.type, JSON.stringify(tracked), { msgID: crypto.randomUUID() })
    await bus.publish(submitted(72, 95)) // not tracked
    await bus.publish(submitted(71, 40))
    await eventually(() => smtp.to(lead).length >= 2)
    await sleep(800)
    expect(smtp.to(lead).map((m) => m.subject)).toEqual([
      'Exam completed: Dorothy Vaughan – Confined Spaces (Passed)',
      'Exam completed: Dorothy Vaughan – Confined Spaces (Failed)',
    ])
  })

  it('sends a weekly report with the members and tracked items at its slot, once, and no empty one', async () => {
    const crew = `Weekly ${run}`
    const empty = `Nobody ${run}`
    const ruleId = await group(crew)
    const emptyId = await group(empty)
    const lead = `weekly-lead.${run}@acme.test`
    const emptyLead = `nobody-lead.${run}@acme.test`
    const items = [
      { type: 'exam', id: 81, name: 'Fall Protection' },
      { type: 'course', id: 82, name: 'Scaffolds' },
    ]
    for (const [id, name, to] of [
      [ruleId, crew, lead],
      [emptyId, empty, emptyLead],
    ] as const) {
      expect((await call('PUT', `/admin/notification-rules/${id}`, { token: adminToken, body: { recipient_emails: [to] } })).status).toBe(200)
      expect(
        (
          await call('PUT', `/email-reports/groups/${encodeURIComponent(name)}/tracking`, {
            token: adminToken,
            body: { ruleId: id, trackingItems: items, reportFrequency: 'weekly', reportDayOfWeek: 5 },
          })
        ).status,
      ).toBe(200)
    }
    const member = { userId: crypto.randomUUID(), name: 'Annie Easley', email: `annie.${run}@acme.test` }
    await announce(member, false, crew)
    await bus.publish(
      envelope('learning.exam.submitted.v1', {
        userId: member.userId,
        examId: 81,
        examName: 'Fall Protection',
        attemptId: crypto.randomUUID(),
        attemptNumber: 1,
        score: 77,
        passed: true,
      }),
    )
    await bus.publish(envelope('learning.course.progressed.v1', { userId: member.userId, courseId: 82, courseTitle: 'Scaffolds', progress: 40, at: new Date().toISOString() }))
    await eventually(async () => (await sql('select 1 from learner_course_progress where user_id = ?', [member.userId])).length > 0)
    await eventually(async () => (await sql('select 1 from learner_exam_results where user_id = ?', [member.userId])).length > 0)
    // The next Friday 07:00 UTC after the rules were made.
    const slot = new Date()
    slot.setUTCHours(7, 0, 0, 0)
    slot.setUTCDate(slot.getUTCDate() + ((5 - slot.getUTCDay() + 7) % 7 || 7))
    const sent = await service.rules.runDue(new Date(slot.getTime() + 30_000))
    expect(sent).toContain(crew)
    expect(sent).not.toContain(empty)
    expect(await service.rules.runDue(new Date(slot.getTime() + 90_000))).not.toContain(crew)
    const [mail] = await eventually(() => smtp.to(lead).length > 0 && smtp.to(lead))
    expect(mail!.subject).toMatch(new RegExp(`^Weekly report: ${crew} – `))
    expect(mail!.text).toContain('Annie Easley')
    expect(mail!.text).toContain('  Exam Fall Protection: Passed, attempts 1, best score 77%')
    expect(mail!.text).toContain('  Course Scaffolds: 40% complete')
    expect(mail!.html).toContain('Scaffolds')
    await sleep(500)
    expect(smtp.to(lead)).toHaveLength(1)
    expect(smtp.to(emptyLead)).toHaveLength(0)
  })
})
