import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { jetstreamManager } from '@nats-io/jetstream'
import type { EventEnvelope } from '@portal/contracts'
import { createInProcessBus, type EventBus } from './bus.ts'
import { openDatabase, type Database } from './db.ts'
import { handleOnce } from './inbox.ts'
import { createNatsBus } from './nats-bus.ts'
import { OutboxMessage, recordEvent, startOutboxRelay, type OutboxRelay } from './outbox.ts'
import { TEST_NATS_URL, createTestDatabase, silentLogger, uniqueName } from './testing.ts'

const DELETED = 'identity.user.deleted.v1'

let testDb: { url: string; drop(): Promise<void> }
let db: Database
let relay: OutboxRelay | undefined

beforeAll(async () => {
  testDb = await createTestDatabase('server_kit_outbox')
  db = await openDatabase({ service: 'outbox-test', url: testDb.url, dataDir: '/tmp', entities: [], migrations: [], logger: silentLogger })
})
afterAll(async () => {
  await db?.close()
  await testDb?.drop()
})
beforeEach(async () => {
  await db.orm.em.fork().execute('delete from outbox')
})
afterEach(async () => {
  await relay?.stop()
  relay = undefined
})

const rows = async () =>
  (await db.orm.em.fork().execute('select id, type, sent_at, attempts from outbox order by seq')) as {
    id: string
    type: string
    sent_at: Date | null
    attempts: number
  }[]

/** A bus that records what it accepted and can be switched off. */
function recordingBus() {
  const inner = createInProcessBus({ logger: silentLogger })
  const published: EventEnvelope[] = []
  const state = { failing: false }
  const bus: EventBus = {
    kind: 'in-process',
    async publish(event) {
      if (state.failing) throw new Error('bus unavailable')
      await inner.publish(event)
      published.push(event)
    },
    subscribe: (c, s, h) => inner.subscribe(c, s, h),
    close: () => inner.close(),
  }
  return { bus, published, state }
}

describe('outbox and relay (PostgreSQL)', () => {
  it('publishes an event recorded in a committed transaction and marks it sent', async () => {
    const { bus } = recordingBus()
    const got: EventEnvelope[] = []
    await bus.subscribe('listener', ['identity.>'], async (e) => void got.push(e))
    const userId = crypto.randomUUID()
    const envelope = await db.orm.em.fork().transactional(async (em) => recordEvent(em, DELETED, { userId }))
    relay = startOutboxRelay({ orm: db.orm, bus, logger: silentLogger, intervalMs: 50 })
    await vi.waitFor(() => expect(got).toHaveLength(1), { timeout: 5_000 })
    expect(got[0]).toEqual(envelope)
    expect(got[0]!.data).toEqual({ userId })
    await vi.waitFor(async () => {
      const [row] = await rows()
      expect(row!.sent_at).not.toBeNull()
      expect(row!.attempts).toBe(1)
    })
  })

  it('publishes nothing for a rolled-back transaction', async () => {
    const { bus, published } = recordingBus()
    await expect(
      db.orm.em.fork().transactional(async (em) => {
        recordEvent(em, DELETED, { userId: crypto.randomUUID() })
        await em.flush()
        throw new Error('the change failed')
      }),
    ).rejects.toThrow('the change failed')
    relay = startOutboxRelay({ orm: db.orm, bus, logger: silentLogger, intervalMs: 60_000 })
    expect(await relay.flush()).toBe(0)
    expect(published).toEqual([])
    expect(await rows()).toEqual([])
  })

  it('keeps events pending while the bus fails and publishes them, in order, once it recovers', async () => {
    const { bus, published, state } = recordingBus()
    state.failing = true
    const recorded = await db.orm.em
      .fork()
      .transactional(async (em) => [recordEvent(em, DELETED, { userId: crypto.randomUUID() }), recordEvent(em, DELETED, { userId: crypto.randomUUID() })])
    relay = startOutboxRelay({ orm: db.orm, bus, logger: silentLogger, intervalMs: 60_000 })
    expect(await relay.flush()).toBe(0)
    const pending = await rows()
    expect(pending.map((r) => r.sent_at)).toEqual([null, null])
    expect(pending[0]!.attempts).toBe(1)
    state.failing = false
    expect(await relay.flush()).toBe(2)
    expect(published.map((e) => e.id)).toEqual(recorded.map((e) => e.id))
    expect((await rows()).every((r) => r.sent_at !== null)).toBe(true)
  })

  it('publishes events in the order they were recorded, even within one millisecond', async () => {
    const { bus, published } = recordingBus()
    const ids: string[] = []
    await db.orm.em.fork().transactional(async (em) => {
      for (let i = 0; i < 30; i++) ids.push(recordEvent(em, DELETED, { userId: crypto.randomUUID() }).id)
    })
    await db.orm.em.fork().transactional(async (em) => {
      for (let i = 0; i < 5; i++) ids.push(recordEvent(em, DELETED, { userId: crypto.randomUUID() }).id)
    })
    relay = startOutboxRelay({ orm: db.orm, bus, logger: silentLogger, intervalMs: 60_000, batchSize: 7 })
    expect(await relay.flush()).toBe(35)
    expect(published.map((e) => e.id)).toEqual(ids)
  })

  it('publishes nothing once stopped, even when kicked', async () => {
    const { bus, published } = recordingBus()
    relay = startOutboxRelay({ orm: db.orm, bus, logger: silentLogger, intervalMs: 60_000 })
    await relay.stop()
    await db.orm.em.fork().transactional(async (em) => void recordEvent(em, DELETED, { userId: crypto.randomUUID() }))
    relay.kick()
    expect(await relay.flush()).toBe(0)
    expect(published).toEqual([])
  })

  it('rejects data that does not match the event schema', async () => {
    const em = db.orm.em.fork()
    expect(() => recordEvent(em, DELETED, { userId: 'not-a-uuid' })).toThrow()
    expect(() => recordEvent(em, 'identity.user.registered.v1', { userId: crypto.randomUUID() } as never)).toThrow()
    await em.flush()
    expect(await rows()).toEqual([])
  })
})

describe('outbox → JetStream → durable consumer with inbox', () => {
  it('delivers a recorded event once and a redelivery has no second effect', async () => {
    const domain =
      'sk' +
      crypto
        .randomUUID()
        .replace(/[^a-f]/g, '')
        .slice(0, 12)
    const type = `${domain}.user.deleted.v1`
    const stream = uniqueName('SK_OUTBOX')
    const bus = await createNatsBus({ url: TEST_NATS_URL, stream, subjects: [`${domain}.>`], logger: silentLogger, nakDelayMs: 50 })
    await db.orm.em.fork().execute('create table if not exists effects (event_id uuid not null, user_id uuid not null)')
    const handler = (event: EventEnvelope) =>
      handleOnce(db.orm, 'effects-writer', event, async (em) => {
        await em.execute('insert into effects (event_id, user_id) values (?, ?)', [event.id, (event.data as { userId: string }).userId])
      })
    const delivered: EventEnvelope[] = []
    const sub = await bus.subscribe('effects-writer', [`${domain}.>`], async (e) => {
      await handler(e)
      delivered.push(e)
    })
    try {
      // A test-only subject keeps this stream apart from every other stream on the server.
      const userId = crypto.randomUUID()
      const envelope = { id: crypto.randomUUID(), type, occurredAt: new Date().toISOString(), data: { userId } }
      await db.orm.em.fork().transactional(async (em) => {
        em.create(OutboxMessage, { id: envelope.id, type, payload: envelope, occurredAt: new Date(envelope.occurredAt), sentAt: null, attempts: 0 })
      })
      relay = startOutboxRelay({ orm: db.orm, bus, logger: silentLogger, intervalMs: 50 })
      await vi.waitFor(() => expect(delivered).toHaveLength(1), { timeout: 10_000 })
      expect(delivered[0]).toEqual(envelope)
      await vi.waitFor(async () => expect((await rows())[0]!.sent_at).not.toBeNull())
      // The relay crashed before marking it sent: the row is published again; JetStream dedupes.
      await db.orm.em.fork().execute('update outbox set sent_at = null')
      expect(await relay.flush()).toBe(1)
      // The consumer sees the event again (redelivery): the inbox makes it a no-op.
      expect(await handler(delivered[0]!)).toBe(false)
      await new Promise((r) => setTimeout(r, 300))
      expect(delivered).toHaveLength(1)
      const effects = (await db.orm.em.fork().execute('select * from effects where event_id = ?', [envelope.id])) as unknown[]
      expect(effects).toHaveLength(1)
    } finally {
      await relay?.stop()
      relay = undefined
      await sub.stop()
      const jsm = await jetstreamManager(bus.connection)
      await jsm.streams.delete(stream)
      await bus.close()
    }
  })
})
