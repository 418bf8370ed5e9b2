import type { MikroORM } from '@mikro-orm/postgresql'
import { Events, type EventEnvelope } from '@portal/contracts'
import { handleOnce, type EventBus, type Logger, type Subscription } from '@portal/server-kit'
import { notificationRepository } from './notification.repository.ts'

/** Durable consumer name of svc-certs for svc-notify's delivery outcomes (and its inbox key). */
export const OUTCOMES_CONSUMER = 'certs-notice-outcomes'
export const OUTCOME_SUBJECTS = ['notify.email.sent.v1', 'notify.email.failed.v1'] as const

/**
 * Records the outcome of a notice's delivery in its log entry, once per event: a failure of any
 * recipient marks it failed (and stays), a delivery marks a queued entry sent. Outcomes of mails
 * that are not certification notices match no entry and change nothing.
 */
export function createOutcomeHandler(deps: { orm: MikroORM; logger: Logger }) {
  return async (event: EventEnvelope): Promise<void> => {
    if (!(OUTCOME_SUBJECTS as readonly string[]).includes(event.type)) return
    const parsed = Events['notify.email.sent.v1'].safeParse(event.data)
    if (!parsed.success) {
      deps.logger.error('dropping a malformed delivery outcome', { eventId: event.id, type: event.type })
      return
    }
    const failed = event.type === 'notify.email.failed.v1'
    await handleOnce(deps.orm, OUTCOMES_CONSUMER, event, async (em) => {
      await notificationRepository.recordOutcome(em, { noticeId: parsed.data.noticeId, failed, error: parsed.data.error, at: parsed.data.at })
    })
  }
}

export const subscribeOutcomes = (bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> =>
  bus.subscribe(OUTCOMES_CONSUMER, [...OUTCOME_SUBJECTS], handler)
