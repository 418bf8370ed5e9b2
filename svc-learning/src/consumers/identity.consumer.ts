import type { MikroORM } from '@mikro-orm/postgresql'
import { Events, type EventEnvelope } from '@portal/contracts'
import { handleOnce, type EventBus, type Logger, type Subscription } from '@portal/server-kit'

/** Durable consumer name of svc-learning on the bus (and in its inbox). */
export const LEARNING_CONSUMER = 'learning'
export const IDENTITY_SUBJECTS = ['identity.user.deleted.v1'] as const

/**
 * A deleted user loses their assignments and any attempt under way; graded attempts stay (they are
 * the exam history admins report on, and the learning.exam.submitted.v1 events already went out).
 */
export function createIdentityHandler(deps: { orm: MikroORM; logger: Logger }) {
  return async (event: EventEnvelope): Promise<void> => {
    if (event.type !== 'identity.user.deleted.v1') return
    const parsed = Events['identity.user.deleted.v1'].safeParse(event.data)
    if (!parsed.success) {
      deps.logger.error('dropping malformed event', { eventId: event.id, type: event.type })
      return
    }
    const { userId } = parsed.data
    await handleOnce(deps.orm, LEARNING_CONSUMER, event, async (em) => {
      await em.execute('delete from exam_assignments where user_id = ?', [userId])
      await em.execute("delete from exam_attempts where user_id = ? and status = 'in_progress'", [userId])
    })
  }
}

export function subscribeIdentity(bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> {
  return bus.subscribe(LEARNING_CONSUMER, [...IDENTITY_SUBJECTS], handler)
}
