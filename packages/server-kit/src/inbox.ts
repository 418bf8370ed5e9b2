import { defineEntity, p, type EntityManager, type MikroORM } from '@mikro-orm/postgresql'
import type { EventEnvelope } from '@portal/contracts'

/** An event a consumer has already handled. */
export const InboxEntry = defineEntity({
  name: 'InboxEntry',
  tableName: 'inbox',
  properties: {
    consumer: p.string().primary(),
    eventId: p.uuid().primary(),
    handledAt: p.datetime(),
  },
})

/**
 * Runs `fn` for an event at most once per consumer: the inbox row and the handler's writes
 * commit together, so a redelivered event (or a concurrent duplicate) has no second effect.
 * Resolves with false when the event had been handled already.
 */
export async function handleOnce(orm: MikroORM, consumer: string, event: Pick<EventEnvelope, 'id'>, fn: (em: EntityManager) => Promise<void>): Promise<boolean> {
  return orm.em.fork().transactional(async (em) => {
    const inserted = (await em.execute('insert into inbox (consumer, event_id, handled_at) values (?, ?, now()) on conflict do nothing returning event_id', [
      consumer,
      event.id,
    ])) as unknown[]
    if (inserted.length === 0) return false
    await fn(em)
    return true
  })
}
