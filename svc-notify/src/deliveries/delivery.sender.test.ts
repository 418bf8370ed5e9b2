import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createMetrics, mailMetrics, openDatabase, type Database } from '@portal/server-kit'
import { createTestDatabase, silentLogger } from '@portal/server-kit/testing'
import { type OutgoingEmail, MailRejected, type MailTransport, createMailboxTransport } from '../mail/index.ts'
import { MailboxEntry, createMailboxRepository } from '../mailbox/index.ts'
import { migrationsList } from '../migrations/index.ts'
import { EmailDelivery } from './delivery.entity.ts'
import { createDeliveryRepository, deliveryId } from './delivery.repository.ts'
import { NO_SENDS, retryDelay, startDeliverySender, type DeliverySender } from './delivery.sender.ts'

/** A transport that fails its first `failures` sends (with `error`), then accepts. */
function fakeTransport(failures = 0, error: () => Error = () => new Error('connection refused')) {
  const sent: OutgoingEmail[] = []
  let calls = 0
  const transport: MailTransport = {
    kind: 'smtp',
    async send(mail) {
      calls++
      if (calls <= failures) throw error()
      sent.push(mail)
    },
    async close() {},
  }
  return { transport, sent, calls: () => calls }
}

describe('delivery sender', () => {
  let testDb: Awaited<ReturnType<typeof createTestDatabase>>
  let db: Database
  let sender: DeliverySender | undefined

  beforeAll(async () => {
    testDb = await createTestDatabase('notify_sender')
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
    await sender?.stop()
    sender = undefined
    await db.orm.em.getConnection().execute('delete from email_deliveries; delete from mailbox_messages')
  })

  const queue = async (to = 'ada@example.com') => {
    const deliveries = createDeliveryRepository(db.orm)
    let id = ''
    await db.orm.em.fork().transactional(async (em) => {
      id = deliveries.queue(em, { eventId: crypto.randomUUID(), kind: 'verification', to, subject: 'S', text: 'T', html: '<p>H</p>' })
    })
    return { deliveries, id }
  }
  const row = async (id: string) => await db.orm.em.fork().findOneOrFail(EmailDelivery, { id })

  it('sends a pending delivery once and marks it sent', async () => {
    const { deliveries, id } = await queue()
    const fake = fakeTransport()
    // long interval: only explicit flushes run
    sender = startDeliverySender({ deliveries, transport: fake.transport, logger: silentLogger, options: { intervalMs: 60_000 } })
    expect(await sender.flush()).toBe(1)
    expect(await sender.flush()).toBe(0)
    expect(fake.sent).toEqual([{ id, to: 'ada@example.com', subject: 'S', text: 'T', html: '<p>H</p>', attempts: 1, interrupted: false }])
    const stored = await row(id)
    expect(stored.status).toBe('sent')
    expect(stored.sentAt).toBeInstanceOf(Date)
    expect(stored.sendingSince).toBeNull()
  })

  it('retries a failed send with backoff until it goes out', async () => {
    const { deliveries, id } = await queue()
    const fake = fakeTransport(2)
    sender = startDeliverySender({ deliveries, transport: fake.transport, logger: silentLogger, options: { intervalMs: 20, retryBaseMs: 30 } })
    await expect.poll(async () => (await row(id)).status, { timeout: 5_000 }).toBe('sent')
    expect(fake.calls()).toBe(3)
    expect(fake.sent).toHaveLength(1)
    expect((await row(id)).attempts).toBe(3)
    expect(sender.counts()).toEqual({ ...NO_SENDS, sent: 1, retried: 2 })
  })

  it('does not retry before the backoff delay', async () => {
    const { deliveries, id } = await queue()
    const fake = fakeTransport(1)
    sender = startDeliverySender({ deliveries, transport: fake.transport, logger: silentLogger, options: { intervalMs: 60_000, retryBaseMs: 60_000 } })
    await sender.flush()
    await sender.flush()
    expect(fake.calls()).toBe(1)
    const stored = await row(id)
    expect(stored).toMatchObject({ status: 'pending', attempts: 1, lastError: 'connection refused' })
    expect(stored.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 30_000)
  })

  it('gives up at once when the server rejects the mail permanently', async () => {
    const { deliveries, id } = await queue()
    const fake = fakeTransport(1, () => new MailRejected('550 mailbox unavailable'))
    sender = startDeliverySender({ deliveries, transport: fake.transport, logger: silentLogger, options: { intervalMs: 60_000, retryBaseMs: 1 } })
    await sender.flush()
    await new Promise((r) => setTimeout(r, 20))
    await sender.flush()
    expect(fake.calls()).toBe(1)
    expect(await row(id)).toMatchObject({ status: 'failed', lastError: '550 mailbox unavailable' })
  })

  it('gives up after the last attempt', async () => {
    const { deliveries, id } = await queue()
    const fake = fakeTransport(100)
    sender = startDeliverySender({ deliveries, transport: fake.transport, logger: silentLogger, options: { intervalMs: 10, retryBaseMs: 1, retryMaxMs: 5, maxAttempts: 3 } })
    await expect.poll(async () => (await row(id)).status, { timeout: 5_000 }).toBe('failed')
    expect(fake.calls()).toBe(3)
    expect(sender.counts()).toEqual({ ...NO_SENDS, retried: 2, givenUp: 1 })
  })

  it('serves the queue, the mails sent and the failed attempts on /metrics', async () => {
    const { deliveries } = await queue('ada@example.com')
    await queue('grace@example.com')
    const fake = fakeTransport(1)
    sender = startDeliverySender({ deliveries, transport: fake.transport, logger: silentLogger, options: { intervalMs: 60_000, retryBaseMs: 60_000 } })
    const metrics = createMetrics('notify')
    const running = sender
    mailMetrics(metrics.registry, { queue: () => deliveries.queueDepth(), sender: () => running.counts() })
    expect(await metrics.render()).toContain('mail_queue_pending{service="notify"} 2\n')
    await sender.flush()
    const text = await metrics.render()
    // One mail went, the other failed once and waits for its retry.
    expect(text).toContain('mail_queue_pending{service="notify"} 1\n')
    expect(text).toMatch(/mail_queue_oldest_pending_age_seconds\{service="notify"\} \d/)
    expect(text).toContain('mail_sent_total{service="notify"} 1\n')
    expect(text).toContain('mail_send_failures_total{outcome="retry",service="notify"} 1\n')
    expect(text).toContain('mail_send_failures_total{outcome="given_up",service="notify"} 0\n')
  })

  it('lets two senders (two instances) share the work without sending a mail twice', async () => {
    const deliveries = createDeliveryRepository(db.orm)
    for (let i = 0; i < 30; i++) await queue(`user${i}@example.com`)
    const a = fakeTransport()
    const b = fakeTransport()
    const opts = { intervalMs: 60_000, batchSize: 5 }
    const sa = startDeliverySender({ deliveries, transport: a.transport, logger: silentLogger, options: opts })
    const sb = startDeliverySender({ deliveries, transport: b.transport, logger: silentLogger, options: opts })
    await Promise.all([sa.flush(), sb.flush()])
    await Promise.all([sa.stop(), sb.stop()])
    const ids = [...a.sent, ...b.sent].map((m) => m.id)
    expect(ids).toHaveLength(30)
    expect(new Set(ids).size).toBe(30)
  })

  it('does not send a mail again when marking it sent failed (the database hiccuped) after the server accepted it', async () => {
    const { deliveries, id } = await queue()
    let failMark = true
    const flaky: typeof deliveries = {
      ...deliveries,
      async markSent(mailId) {
        if (failMark) {
          failMark = false
          throw new Error('connection terminated')
        }
        return deliveries.markSent(mailId)
      },
    }
    const fake = fakeTransport()
    // A short lease: the mail is due again soon after the failed mark.
    sender = startDeliverySender({ deliveries: flaky, transport: fake.transport, logger: silentLogger, options: { intervalMs: 60_000, leaseMs: 50 } })
    await sender.flush()
    await new Promise((r) => setTimeout(r, 120))
    await sender.flush()
    await sender.flush()
    expect(fake.sent.map((m) => m.id)).toEqual([id])
    expect((await row(id)).status).toBe('sent')
  })

  it('lets a slow sender and another instance share a backlog without sending a mail twice (each claims one mail at a time)', async () => {
    const deliveries = createDeliveryRepository(db.orm)
    for (let i = 0; i < 5; i++) await queue(`slow${i}@example.com`)
    const slow = fakeTransport()
    const send = slow.transport.send
    slow.transport.send = async (mail) => {
      await new Promise((r) => setTimeout(r, 120))
      return send(mail)
    }
    const other = fakeTransport()
    const opts = { intervalMs: 60_000, batchSize: 5, leaseMs: 300 }
    const a = startDeliverySender({ deliveries, transport: slow.transport, logger: silentLogger, options: opts })
    const b = startDeliverySender({ deliveries, transport: other.transport, logger: silentLogger, options: opts })
    const first = a.flush()
    await new Promise((r) => setTimeout(r, 330)) // a's first mails are sent, one is in flight
    await b.flush()
    await first
    await Promise.all([a.stop(), b.stop()])
    const ids = [...slow.sent, ...other.sent].map((m) => m.id)
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids).toHaveLength(5)
  })

  it('sends the rest of a backlog at once after its sender died mid-way; the mail in flight waits for its lease and goes again, recorded as sent without knowing', async () => {
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push((await queue(`backlog${i}@example.com`)).id)
    const deliveries = createDeliveryRepository(db.orm)
    // The first process: its transport takes the third mail and never answers (it "died" there).
    const dead = fakeTransport()
    let inFlight: ((err: Error) => void) | undefined
    const send = dead.transport.send
    dead.transport.send = (mail) => (mail.id === ids[2] ? new Promise((_, reject) => (inFlight = reject)) : send(mail))
    const opts = { intervalMs: 60_000, leaseMs: 300 }
    const first = startDeliverySender({ deliveries, transport: dead.transport, logger: silentLogger, options: opts })
    const stuck = first.flush()
    await expect.poll(() => dead.sent.length === 2 && inFlight !== undefined, { timeout: 5_000 }).toBe(true)
    // The next process sends what was not in flight at once.
    const next = fakeTransport()
    sender = startDeliverySender({ deliveries, transport: next.transport, logger: silentLogger, options: opts })
    expect(await sender.flush()).toBe(2)
    expect(next.sent.map((m) => m.id)).toEqual([ids[3], ids[4]])
    expect((await row(ids[2]!)).sendingSince).toBeInstanceOf(Date)
    // Once its lease is over, the mail that was in flight goes once more, known to be a resend.
    await new Promise((r) => setTimeout(r, 320))
    expect(await sender.flush()).toBe(1)
    expect(next.sent.at(-1)).toMatchObject({ id: ids[2], attempts: 2, interrupted: true })
    expect(await row(ids[2]!)).toMatchObject({ status: 'sent', unknownOutcomeResends: 1, sendingSince: null })
    expect(sender.counts()).toEqual({ ...NO_SENDS, sent: 3, unknownOutcomeResends: 1 })
    const metrics = createMetrics('notify')
    const running = sender
    mailMetrics(metrics.registry, { queue: () => deliveries.queueDepth(), sender: () => running.counts() })
    expect(await metrics.render()).toContain('notify_email_unknown_outcome_resends_total{service="notify"} 1\n')
    for (const id of [ids[0], ids[1], ids[3], ids[4]]) expect((await row(id!)).unknownOutcomeResends).toBe(0)
    // The first process's attempt failing that late changes nothing.
    inFlight!(new Error('connection reset'))
    await stuck
    await first.stop()
    expect(await row(ids[2]!)).toMatchObject({ status: 'sent', lastError: null })
    expect(next.sent.length + dead.sent.length).toBe(5)
  })

  it('marks sent, without sending it again, an interrupted mail the transport says it accepted (the dev mailbox)', async () => {
    const { deliveries, id } = await queue('mailbox@example.com')
    const mailbox = createMailboxRepository(db.orm)
    const transport = createMailboxTransport(mailbox)
    // A process claimed it and stored it in the mailbox, and died before the mark.
    const claimed = await deliveries.claimNext(50)
    await transport.send(claimed!)
    await new Promise((r) => setTimeout(r, 60))
    let sends = 0
    const counting: MailTransport = { ...transport, send: (mail) => (sends++, transport.send(mail)) }
    sender = startDeliverySender({ deliveries, transport: counting, logger: silentLogger, options: { intervalMs: 60_000 } })
    expect(await sender.flush()).toBe(1)
    expect(sends).toBe(0)
    expect(await row(id)).toMatchObject({ status: 'sent', unknownOutcomeResends: 0 })
    expect(sender.counts()).toEqual({ ...NO_SENDS, foundAccepted: 1 })
  })

  it('keeps an attempt in flight when an earlier attempt that outlived its lease reports failure', async () => {
    const { deliveries, id } = await queue()
    const first = await deliveries.claimNext(30)
    expect(first).toMatchObject({ id, attempts: 1, interrupted: false })
    await new Promise((r) => setTimeout(r, 40))
    const second = await deliveries.claimNext(60_000)
    expect(second).toMatchObject({ id, attempts: 2, interrupted: true })
    await deliveries.markFailed(id, 1, 'timed out', new Date())
    const stored = await row(id)
    expect(stored).toMatchObject({ status: 'pending', attempts: 2, lastError: null })
    expect(stored.sendingSince).toBeInstanceOf(Date)
    expect(stored.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 30_000)
  })

  it('derives the delivery id from the event id and recipient', () => {
    const event = crypto.randomUUID()
    expect(deliveryId(event, 'Ada@Example.com')).toBe(deliveryId(event, 'ada@example.com'))
    expect(deliveryId(event, 'a@example.com')).not.toBe(deliveryId(event, 'b@example.com'))
    expect(deliveryId(event, 'a@example.com')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it('backs off exponentially up to the ceiling', () => {
    const opts = { retryBaseMs: 1_000, retryMaxMs: 10_000 }
    expect(retryDelay(1, opts)).toBeGreaterThanOrEqual(800)
    expect(retryDelay(1, opts)).toBeLessThanOrEqual(1_200)
    expect(retryDelay(3, opts)).toBeGreaterThanOrEqual(3_200)
    expect(retryDelay(30, opts)).toBeLessThanOrEqual(12_000)
  })
})
