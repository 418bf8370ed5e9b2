import { defineEntity, p, type EntityManager, type MikroORM } from '@mikro-orm/postgresql'
import { Events, type EventData, type EventEnvelope, type EventType } from '@portal/contracts'
import type { EventBus } from './bus.ts'
import type { Logger } from './logger.ts'

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

/** Adds an event to the outbox through `em` (flushed with the caller's transaction). */
export function recordEvent<T extends EventType>(em: EntityManager, type: T, data: EventData<T>): EventEnvelope<EventData<T>> {
  const parsed = Events[type].parse(data) as EventData<T>
  const envelope = { id: crypto.randomUUID(), type, occurredAt: new Date().toISOString(), data: parsed }
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
 * A crash between the two republishes the event; the bus dedupes it by id.
 */
export function startOutboxRelay(opts: {
  orm: MikroORM
  bus: EventBus
  logger: Logger
  intervalMs?: number
  batchSize?: number
}): OutboxRelay {
  const intervalMs = opts.intervalMs ?? 250
  const batchSize = opts.batchSize ?? 100
  let running: Promise<number> | null = null
  let again = false
  let stopped = false
  let failures = 0

  const once = async (): Promise<number> => {
    const conn = opts.orm.em.getConnection()
    const rows = (await conn.execute(
      'select id, payload from outbox where sent_at is null order by seq limit ?',
      [batchSize],
    )) as { id: string; payload: EventEnvelope | string }[]
    let published = 0
    for (const row of rows) {
      const event = typeof row.payload === 'string' ? (JSON.parse(row.payload) as EventEnvelope) : row.payload
      try {
        await opts.bus.publish(event)
      } catch (err) {
        await conn.execute('update outbox set attempts = attempts + 1 where id = ?', [row.id])
        throw err
      }
      await conn.execute('update outbox set sent_at = now(), attempts = attempts + 1 where id = ?', [row.id])
      published++
    }
    return published
  }

  const flush = async (): Promise<number> => {
    // A late kick() after stop() must not touch a database that may be closed by now.
    if (stopped) return 0
    if (running) {
      again = true
      return running
    }
    running = (async () => {
      let total = 0
      try {
        do {
          again = false
          const n = await once()
          total += n
          if (n === batchSize) again = true
        } while (again && !stopped)
        failures = 0
      } catch (err) {
        failures++
        if (failures === 1 || failures % 20 === 0) opts.logger.warn('outbox relay could not publish; will retry', { err: err as Error })
      } finally {
        running = null
      }
      return total
    })()
    return running
  }

  const timer = setInterval(() => void flush(), intervalMs)
  timer.unref()
  const pruner = setInterval(() => {
    void opts.orm.em
      .getConnection()
      .execute("delete from outbox where sent_at < now() - interval '7 days'")
      .catch(() => undefined)
  }, 3_600_000)
  pruner.unref()

  return {
    flush,
    kick: () => void flush(),
    async stop() {
      stopped = true
      clearInterval(timer)
      clearInterval(pruner)
      await running
    },
  }
}
