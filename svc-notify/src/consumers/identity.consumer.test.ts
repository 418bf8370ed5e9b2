import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { jetstream } from '@nats-io/jetstream'
import type { EventEnvelope } from '@portal/contracts'
import { openDatabase, type Database } from '@portal/server-kit'
import { createTestDatabase, silentLogger } from '@portal/server-kit/testing'
import { EmailDelivery, createDeliveryRepository } from '../deliveries/index.ts'
import { MailboxEntry } from '../mailbox/index.ts'
import { migrationsList } from '../migrations/index.ts'
import { startNotifyStack, eventually } from '../test-support/index.ts'
import { createIdentityMailHandler } from './identity.consumer.ts'

const verificationEvent = (email: string, code = '482913'): EventEnvelope => ({
  id: crypto.randomUUID(),
  type: 'identity.verification.requested.v1',
  occurredAt: new Date().toISOString(),
  data: { userId: crypto.randomUUID(), name: 'Ada Lovelace', email, code, expiresAt: new Date(Date.now() + 15 * 60_000).toISOString() },
})

const resetEvent = (email: string, resetUrl: string): EventEnvelope => ({
  id: crypto.randomUUID(),
  type: 'identity.password-reset.requested.v1',
  occurredAt: new Date().toISOString(),
  data: { userId: crypto.randomUUID(), name: 'Ada Lovelace', email, resetUrl, expiresAt: new Date(Date.now() + 3600_000).toISOString() },
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('svc-notify on NATS JetStream, PostgreSQL and SMTP', () => {
  let stack: Awaited<ReturnType<typeof startNotifyStack>>
  let smtp: typeof stack.smtp
  let bus: typeof stack.bus
  let service: typeof stack.service
  // Its own subject namespace, so this stream never overlaps another on the shared server.
  let prefix: string

  beforeAll(async () => {
    stack = await startNotifyStack('notify')
    ;({ smtp, bus, service, prefix } = stack)
  })

  afterAll(async () => {
    await stack?.close()
  })

  it('e-mails the verification code of an identity.verification.requested.v1 event', async () => {
    const to = `ada.${Date.now()}@example.com`
    await bus.publish(verificationEvent(to, '031415'))
    const [mail] = await eventually(() => smtp.to(to).length > 0 && smtp.to(to))
    expect(mail!.subject).toBe('Your verification code')
    expect(mail!.from?.text).toContain('no-reply@portal.test')
    expect(mail!.text).toContain('031415')
    expect(mail!.text).toContain('15 minutes')
    expect(mail!.html).toContain('031415')
  })

  it('sends one e-mail for an event published twice and redelivered under another message id', async () => {
    const to = `twice.${Date.now()}@example.com`
    const event = verificationEvent(to, '271828')
    await bus.publish(event)
    await bus.publish(event) // same Nats-Msg-Id: JetStream drops it
    // The same event stored a second time (the dedupe window passed, or a republish elsewhere):
    // only the inbox stands between it and a second e-mail.
    await jetstream(bus.connection).publish(prefix + event.type, JSON.stringify(event), { msgID: crypto.randomUUID() })
    await eventually(() => smtp.to(to).length > 0)
    await sleep(1_000)
    expect(smtp.to(to)).toHaveLength(1)
  })

  it('e-mails the reset link of an identity.password-reset.requested.v1 event', async () => {
    const to = `grace.${Date.now()}@example.com`
    const resetUrl = `https://portal.example.com/reset-password?token=${'a'.repeat(43)}`
    await bus.publish(resetEvent(to, resetUrl))
    const [mail] = await eventually(() => smtp.to(to).length > 0 && smtp.to(to))
    expect(mail!.subject).toBe('Reset your password')
    expect(mail!.text).toContain(resetUrl)
    expect(mail!.text).toContain('1 hour')
    expect(mail!.html).toContain(`href="${resetUrl}"`)
  })

  it('tells the owner of an address someone tried to register with it (identity.registration.attempted.v1)', async () => {
    const to = `owner.${Date.now()}@example.com`
    await bus.publish({
      id: crypto.randomUUID(),
      type: 'identity.registration.attempted.v1',
      occurredAt: new Date().toISOString(),
      data: { userId: crypto.randomUUID(), name: 'Ada Lovelace', email: to, loginUrl: 'https://portal.example.com/login', resetUrl: 'https://portal.example.com/forgot-password' },
    })
    const [mail] = await eventually(() => smtp.to(to).length > 0 && smtp.to(to))
    expect(mail!.subject).toBe('Someone tried to register with your e-mail address')
    expect(mail!.text).toContain('Hello Ada Lovelace,')
    expect(mail!.text).toContain('https://portal.example.com/login')
    expect(mail!.html).toContain('href="https://portal.example.com/forgot-password"')
  })

  it('answers 404 on the mailbox routes when SMTP is configured', async () => {
    const res = await service.app.request('/dev/mailbox')
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ code: 'mailbox_off' })
    expect((await service.app.request('/mailbox')).status).toBe(404)
  })
})

describe('the identity mail handler', () => {
  let testDb: Awaited<ReturnType<typeof createTestDatabase>>
  let db: Database

  beforeAll(async () => {
    testDb = await createTestDatabase('notify_handler')
    db = await openDatabase({
      service: 'notify',
      url: testDb.url,
      dataDir: '.data',
      entities: [EmailDelivery, MailboxEntry],
      migrations: migrationsList,
      logger: silentLogger,
    })
  })
  afterAll(async () => {
    await db?.close()
    await testDb?.drop()
  })
  afterEach(async () => {
    await db.orm.em.getConnection().execute('delete from email_deliveries; delete from inbox')
  })

  const setup = () => {
    const deliveries = createDeliveryRepository(db.orm)
    let kicks = 0
    const handle = createIdentityMailHandler({ orm: db.orm, deliveries, logger: silentLogger, onQueued: () => kicks++ })
    return { handle, kicks: () => kicks }
  }
  const rows = async () =>
    (await db.orm.em.getConnection().execute('select id, event_id, recipient, status from email_deliveries')) as {
      id: string
      event_id: string
      recipient: string
      status: string
    }[]

  it('queues exactly one delivery when the same event is handled twice, even at the same time', async () => {
    const { handle, kicks } = setup()
    const event = verificationEvent('race@example.com')
    await Promise.all([handle(event), handle(event)])
    await handle(event)
    const queued = await rows()
    expect(queued).toHaveLength(1)
    expect(queued[0]).toMatchObject({ event_id: event.id, recipient: 'race@example.com', status: 'pending' })
    expect(kicks()).toBe(1)
  })

  it('drops an event whose data does not match the contract instead of retrying it forever', async () => {
    const { handle } = setup()
    const event = verificationEvent('bad@example.com', '12345x')
    await expect(handle(event)).resolves.toBeUndefined()
    expect(await rows()).toHaveLength(0)
  })

  it('ignores events it does not mail for', async () => {
    const { handle } = setup()
    await handle({ id: crypto.randomUUID(), type: 'identity.user.deleted.v1', occurredAt: new Date().toISOString(), data: { userId: crypto.randomUUID() } })
    expect(await rows()).toHaveLength(0)
  })
})
