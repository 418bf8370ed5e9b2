import type { MikroORM } from '@mikro-orm/postgresql'
import { Events, type EventEnvelope } from '@portal/contracts'
import { handleOnce, type EventBus, type Logger, type Subscription } from '@portal/server-kit'

/** Durable consumer name of learning's projection of identity's user groups (and its inbox key). */
export const GROUPS_CONSUMER = 'learning-groups'

/**
 * Records each user group identity announces (`user_groups`), so an assignment rule may name a
 * group before anyone belongs to it (issue 24). A new durable consumer replays the stream from its
 * start, so groups made before this version arrive too; a group is also known by a user in it.
 */
export function createGroupsHandler(deps: { orm: MikroORM; logger: Logger }) {
  return async (event: EventEnvelope): Promise<void> => {
    if (event.type !== 'identity.group.created.v1') return
    const parsed = Events['identity.group.created.v1'].safeParse(event.data)
    if (!parsed.success) {
      deps.logger.error('dropping malformed event', { eventId: event.id, type: event.type })
      return
    }
    const g = parsed.data
    await handleOnce(deps.orm, GROUPS_CONSUMER, event, async (em) => {
      // Announced again on a backfill: the first announcement stays.
      await em.execute('insert into user_groups (id, name, created_at) values (?, ?, ?) on conflict do nothing', [g.groupId, g.name, new Date(g.createdAt)])
    })
  }
}

/** Subscribes the handler durably to identity's group events. */
export const subscribeGroups = (bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> =>
  bus.subscribe(GROUPS_CONSUMER, ['identity.group.created.v1'], handler)
