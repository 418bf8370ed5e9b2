import type { MikroORM } from '@mikro-orm/postgresql'
import { Events, type EventEnvelope } from '@portal/contracts'
import { handleOnce, type EventBus, type Logger, type Subscription } from '@portal/server-kit'
import { ruleRepository } from '../group-reports/index.ts'

/** Durable consumer name of notify's projection of identity's groups (and its inbox key). */
export const GROUPS_CONSUMER = 'notify-groups'

/** Records each group identity announces and makes its notification rule (a rule per group, admin §3). */
export function createGroupsHandler(deps: { orm: MikroORM; logger: Logger }) {
  return async (event: EventEnvelope): Promise<void> => {
    if (event.type !== 'identity.group.created.v1') return
    const parsed = Events['identity.group.created.v1'].safeParse(event.data)
    if (!parsed.success) {
      deps.logger.error('dropping malformed event', { eventId: event.id, type: event.type })
      return
    }
    const g = parsed.data
    await handleOnce(deps.orm, GROUPS_CONSUMER, event, (em) => ruleRepository.groupCreated(em, { id: g.groupId, name: g.name, createdAt: new Date(g.createdAt) }))
  }
}

export const subscribeGroups = (bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> =>
  bus.subscribe(GROUPS_CONSUMER, ['identity.group.created.v1'], handler)
