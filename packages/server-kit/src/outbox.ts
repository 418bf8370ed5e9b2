import { defineEntity, p, type EntityManager, type MikroORM } from '@mikro-orm/postgresql'
import { Events, type EventData, type EventEnvelope, type EventType } from '@portal/contracts'
import { createBackgroundTask } from './background.ts'
import type { EventBus } from './bus.ts'
import type { Logger } from './logger.ts'
import { scrapedGauges } from './metrics.ts'
import { SpanKind, carrierOf, contextFrom, inSpan, tracingEnabled } from './tracing.ts'
import type { Registry } from 'prom-client'

/** An event waiting to be published, written in the same transaction as the change it reports. */
export const OutboxMessage = defineEntity({
  name: 'OutboxMessage',
  tableName: 'outbox',
  properties: {
    id: p.uuid().primary(),
    type: p.string(),
    payload: p.json<EventEnvelope>(),
    occurredAt: p.datetime(),
    sentAt: p.datetime().nullable(),
    attempts: p.integer().default(0),
  },
})

/**
 * Transactions (or, outside one, entity managers) that recorded an event: their commit kicks the
 * relays of their ORM, so no caller has to remember to.
 */
const recorded = new WeakSet<object>()
/** The running relays of each ORM (keyed by its root EntityManager's event manager). */
const relaysOf = new WeakMap<object, Set<OutboxRelay>>()

/**
 * Makes the commit of a transaction that recorded an event kick `relay`: one subscriber per ORM,
 * on its event manager (transactions clone it with its subscribers).
 */
function kickOnCommit(orm: MikroORM, relay: OutboxRelay): () => void {
  const events = orm.em.getEventManager()
  let relays = relaysOf.get(events)
  if (!relays) {
    const live = (relays = new Set())
    relaysOf.set(events, live)
    const kickAll = () => {
      for (const r of live) r.kick()
    }
    events.registerSubscriber({
      // A savepoint's release kicks early (the relay then finds nothing yet); the interval catches up.
      afterTransactionCommit: ({ transaction }) => {
        if (transaction && recorded.has(transaction)) {
          recorded.delete(transaction)
          kickAll()
        }
      },
      // A flush outside any transaction commits on its own.
      afterFlush: ({ em }) => {
        if (!em.isInTransaction() && recorded.has(em)) {
          recorded.delete(em)
          kickAll()
        }
      },
    })
  }
  relays.add(relay)
  return () => relays.delete(relay)
}

/**
 * Adds an event to the outbox through `em` (flushed with the caller's transaction). The commit
 * kicks the relay by itself.
 */
export function recordEvent<T extends EventType>(em: EntityManager, type: T, data: EventData<T>): EventEnvelope<EventData<T>> {
  recorded.add((em.getTransactionContext() as object | undefined) ?? em)
  const parsed = Events[type].parse(data) as EventData<T>
  // The request's trace goes with the event (in the row's payload): its consumers continue it.
  const trace = tracingEnabled() ? carrierOf() : undefined
  const envelope: EventEnvelope<EventData<T>> = { id: crypto.randomUUID(), type, occurredAt: new Date().toISOString(), data: parsed, ...(trace ? { trace } : {}) }
  em.create(OutboxMessage, {
    id: envelope.id,
    type,
    payload: envelope,
    occurredAt: new Date(envelope.occurredAt),
    sentAt: null,
    attempts: 0,
  })
  return envelope
}

export interface OutboxRelay {
  /** Publishes what is pending now; resolves with the number published. */
  flush(): Promise<number>
  /** Asks for a flush soon (after a commit that recorded events). */
  kick(): void
  stop(): Promise<void>
}

/**
 * Publishes pending outbox rows in order and marks each sent only after the bus accepted it.
 * A crash between the two republishes the event; the bus dedupes it by id. Transactions that
 * record events kick it when they commit; an interval catches anything else (a failed publish,
 * rows written by SQL).
 */
export function startOutboxRelay(opts: { orm: MikroORM; bus: EventBus; logger: Logger; intervalMs?: number; batchSize?: number }): OutboxRelay {
  const batchSize = opts.batchSize ?? 100
  const conn = () => opts.orm.em.getConnection()
  /**
   * With tracing, each publish is a producer span in the trace of the request that recorded the
   * event, and the event carries the producer span's context on (NATS headers) to its consumers.
   */
  const publish = (event: EventEnvelope): Promise<void> => {
    if (!tracingEnabled() || !event.trace) return opts.bus.publish(event)
    const attributes = {
      'messaging.system': opts.bus.kind === 'nats' ? 'nats' : 'in-process',
      'messaging.operation.type': 'send',
      'messaging.destination.name': event.type,
      'messaging.message.id': event.id,
    }
    return inSpan(`publish ${event.type}`, { kind: SpanKind.PRODUCER, parent: contextFrom(event.trace), attributes }, () =>
      opts.bus.publish({ ...event, trace: carrierOf() ?? event.trace }),
    )
  }

  const task = createBackgroundTask({
    name: 'outbox relay',
    logger: opts.logger,
    intervalMs: opts.intervalMs ?? 250,
    // The relay retries on its interval without waiting longer: the bus coming back is noticed at once.
    backoff: { baseMs: 0, maxMs: 0 },
    // The service kicks it once it serves (whatever was pending when the last process stopped).
    runAtStart: false,
    async pass() {
      const rows = (await conn().execute('select id, payload from outbox where sent_at is null order by seq limit ?', [batchSize])) as {
        id: string
        payload: EventEnvelope | string
      }[]
      let published = 0
      for (const row of rows) {
        const event = typeof row.payload === 'string' ? (JSON.parse(row.payload) as EventEnvelope) : row.payload
        try {
          await publish(event)
        } catch (err) {
          await conn().execute('update outbox set attempts = attempts + 1 where id = ?', [row.id])
          throw err
        }
        await conn().execute('update outbox set sent_at = now(), attempts = attempts + 1 where id = ?', [row.id])
        published++
      }
      return { done: published, more: rows.length === batchSize }
    },
    chores: [{ everyMs: 3_600_000, run: () => conn().execute("delete from outbox where sent_at < now() - interval '7 days'") }],
  })

  const relay: OutboxRelay = {
    flush: task.runNow,
    kick: task.kick,
    async stop() {
      forget()
      await task.stop()
    },
  }
  const forget = kickOnCommit(opts.orm, relay)
  task.start()
  return relay
}

/**
 * The outbox's backlog on `registry`, read at scrape time: events not yet published
 * (`outbox_unsent_events`) and how long the oldest has waited (`outbox_oldest_unsent_age_seconds`,
 * 0 when none). One query on the pending rows' partial index per scrape.
 */
export function outboxMetrics(registry: Registry, orm: MikroORM): void {
  scrapedGauges(
    registry,
    {
      unsent: { name: 'outbox_unsent_events', help: 'Outbox events recorded and not yet published to the bus.' },
      oldestAgeSeconds: { name: 'outbox_oldest_unsent_age_seconds', help: 'Seconds the oldest unpublished outbox event has waited (0 when none).' },
    },
    async () => {
      const [row] = (await orm.em
        .getConnection()
        .execute('select count(*)::int as unsent, coalesce(extract(epoch from now() - min(occurred_at)), 0)::float8 as age from outbox where sent_at is null')) as {
        unsent: number
        age: number
      }[]
      return [{ values: { unsent: Number(row?.unsent ?? 0), oldestAgeSeconds: Math.max(0, Number(row?.age ?? 0)) } }]
    },
  )
}
