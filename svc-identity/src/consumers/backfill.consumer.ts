import { LockMode, type MikroORM } from '@mikro-orm/postgresql'
import { Events, type EventEnvelope } from '@portal/contracts'
import { handleOnce, recordEvent, type EventBus, type Logger, type Subscription } from '@portal/server-kit'
import { UserGroupEntity, groupFacts } from '../groups/index.ts'
import { UserEntity, userFacts } from '../users/index.ts'

/** Identity's durable consumer of backfill requests (and its inbox key). */
export const BACKFILL_CONSUMER = 'identity-backfill'
const PAGE = 500

/**
 * Answers `identity.users.backfill-requested.v1`: announces every user once more as
 * `identity.user.updated.v1` with their current facts, and every group as `identity.group.created.v1`, through the outbox in one transaction, so a
 * projection started late (a new service, or one that gained fields) fills up without an identity
 * migration per consumer. Users are share-locked while they are read, so an update cannot commit
 * between the read and the announcement with older facts winning; every projection receives the
 * announcements and, holding the same facts, changes nothing.
 */
export function createBackfillHandler(deps: { orm: MikroORM; logger: Logger }) {
  return async (event: EventEnvelope): Promise<void> => {
    if (event.type !== 'identity.users.backfill-requested.v1') return
    const request = Events['identity.users.backfill-requested.v1'].safeParse(event.data)
    if (!request.success) {
      deps.logger.error('dropping malformed event', { eventId: event.id, type: event.type })
      return
    }
    let announced = 0
    await handleOnce(deps.orm, BACKFILL_CONSUMER, event, async (em) => {
      for (let offset = 0; ; offset += PAGE) {
        const users = await em.find(UserEntity, {}, { orderBy: { createdAt: 'asc', id: 'asc' }, limit: PAGE, offset, lockMode: LockMode.PESSIMISTIC_READ })
        for (const user of users) recordEvent(em, 'identity.user.updated.v1', userFacts(user))
        announced += users.length
        await em.flush()
        em.clear()
        if (users.length < PAGE) break
      }
      // The groups too: a projection of them (notify's rules) starts the same way.
      for (const group of await em.find(UserGroupEntity, {}, { orderBy: { createdAt: 'asc', id: 'asc' } })) recordEvent(em, 'identity.group.created.v1', groupFacts(group))
    })
    deps.logger.info('announced every user and group again', { consumer: request.data.consumer, users: announced })
  }
}

/** Subscribes the handler durably to backfill requests. */
export function subscribeBackfillRequests(bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> {
  return bus.subscribe(BACKFILL_CONSUMER, ['identity.users.backfill-requested.v1'], handler)
}
