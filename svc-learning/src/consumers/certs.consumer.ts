import type { MikroORM } from '@mikro-orm/postgresql'
import { Events, type EventEnvelope } from '@portal/contracts'
import { handleOnce, type EventBus, type Logger, type Subscription } from '@portal/server-kit'
import { followCertification, type CertificationFact } from '../assignments-scan/index.ts'

/** Durable consumer name of svc-learning for certs' certification events (and its inbox key). */
export const CERTS_CONSUMER = 'learning-certs'
export const CERTIFICATION_SUBJECTS = ['certs.certification.added.v1', 'certs.certification.updated.v1', 'certs.certification.deleted.v1'] as const

/** The fact an event states about a certification (a deletion: no expiry any more). */
function factOf(event: EventEnvelope): CertificationFact | null {
  if (event.type === 'certs.certification.deleted.v1') {
    const parsed = Events['certs.certification.deleted.v1'].safeParse(event.data)
    return parsed.success ? { ...parsed.data, expirationDate: null, occurredAt: event.occurredAt } : null
  }
  const parsed = Events['certs.certification.added.v1'].safeParse(event.data)
  if (!parsed.success) return null
  const { certificationId, userId, certificationTypeId, expirationDate } = parsed.data
  return { certificationId, userId, certificationTypeId, expirationDate: expirationDate === null ? null : expirationDate.slice(0, 10), occurredAt: event.occurredAt }
}

/**
 * Keeps learning's projection of certifications' expiries, once per event (inbox), the newest
 * event of a certification winning, and moves the due dates of assignments that recur ahead of a
 * certification's expiry when the person's latest expiry changes (`followCertification`).
 */
export function createCertsHandler(deps: { orm: MikroORM; logger: Logger }) {
  return async (event: EventEnvelope): Promise<void> => {
    if (!(CERTIFICATION_SUBJECTS as readonly string[]).includes(event.type)) return
    const fact = factOf(event)
    if (!fact) {
      deps.logger.error('dropping malformed event', { eventId: event.id, type: event.type })
      return
    }
    await handleOnce(deps.orm, CERTS_CONSUMER, event, async (em) => {
      const { moved } = await followCertification(em, fact)
      if (moved > 0) deps.logger.info('assignments moved to a certification’s expiry', { userId: fact.userId, certificationTypeId: fact.certificationTypeId, moved })
    })
  }
}

/** Subscribes the handler durably to certs' certification events. */
export const subscribeCerts = (bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> =>
  bus.subscribe(CERTS_CONSUMER, [...CERTIFICATION_SUBJECTS], handler)
