import type { MikroORM } from '@mikro-orm/postgresql'
import { Events, type EventEnvelope } from '@portal/contracts'
import { handleOnce, type EventBus, type Logger, type Subscription } from '@portal/server-kit'

/** Durable consumer name of svc-learning on the bus (and in its inbox). */
export const LEARNING_CONSUMER = 'learning'
export const IDENTITY_SUBJECTS = ['identity.user.deleted.v1'] as const

/**
 * A deleted user loses their exam and course assignments, any attempt under way and their stored
 * SCORM runtime data (whole cmi trees, shared data stores); graded attempts, module progress and
 * course completions stay (they are the history admins report on, and their events already went out).
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
      await em.execute('delete from course_assignments where user_id = ?', [userId])
      await em.execute('delete from scorm_states where user_id = ?', [userId])
      await em.execute('delete from scorm_shared_data where user_id = ?', [userId])
    })
  }
}

export function subscribeIdentity(bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> {
  return bus.subscribe(LEARNING_CONSUMER, [...IDENTITY_SUBJECTS], handler)
}
