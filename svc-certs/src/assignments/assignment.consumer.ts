import type { MikroORM } from '@mikro-orm/postgresql'
import { Events, type EventEnvelope } from '@portal/contracts'
import { handleOnce, type EventBus, type Logger, type Subscription } from '@portal/server-kit'
import { assignmentRepository } from './assignment.repository.ts'

/** Durable consumer name of svc-certs for learning's assignment events (and its inbox key). */
export const ASSIGNMENTS_CONSUMER = 'certs-assignments'
export const ASSIGNMENT_SUBJECT = 'learning.assignment.changed.v1'

/**
 * Keeps the projection of learning's assignments (issue 24: the team dashboard's Overdue figures,
 * the member page, the exports), once per event (inbox); of two events about one person and rule
 * the higher `version` wins whatever order they arrive in.
 */
export function createAssignmentHandler(deps: { orm: MikroORM; logger: Logger }) {
  return async (event: EventEnvelope): Promise<void> => {
    if (event.type !== ASSIGNMENT_SUBJECT) return
    const parsed = Events[ASSIGNMENT_SUBJECT].safeParse(event.data)
    if (!parsed.success) {
      deps.logger.error('dropping a malformed assignment event', { eventId: event.id, type: event.type })
      return
    }
    await handleOnce(deps.orm, ASSIGNMENTS_CONSUMER, event, async (em) => {
      await assignmentRepository.apply(em, parsed.data)
    })
  }
}

/** Subscribes the handler durably to learning's assignment changes. */
export const subscribeAssignments = (bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> =>
  bus.subscribe(ASSIGNMENTS_CONSUMER, [ASSIGNMENT_SUBJECT], handler)
