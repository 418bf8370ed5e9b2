import type { MikroORM } from '@mikro-orm/postgresql'
import { Events, type EventEnvelope } from '@portal/contracts'
import { handleOnce, type EventBus, type Logger, type Subscription } from '@portal/server-kit'
import { orgRepository } from '../assignment-reminders/index.ts'

/** Durable consumer name of notify's projection of svc-certs' notification configurations (and its inbox key). */
export const CERTS_CONFIGS_CONSUMER = 'notify-certs-configs'
/** Durable consumer name of notify's projection of technicians' paused notifications (and its inbox key). */
export const CERTS_PAUSES_CONSUMER = 'notify-certs-pauses'

/**
 * Keeps svc-certs' branch/department notification configurations (their manager and operations
 * addresses, active or not): where assignment escalations go. Each event once; the latest `at` wins.
 */
export function createCertsConfigsHandler(deps: { orm: MikroORM; logger: Logger }) {
  return async (event: EventEnvelope): Promise<void> => {
    if (event.type !== 'certs.notification-config.changed.v1') return
    const parsed = Events['certs.notification-config.changed.v1'].safeParse(event.data)
    if (!parsed.success) {
      deps.logger.error('dropping malformed event', { eventId: event.id, type: event.type })
      return
    }
    await handleOnce(deps.orm, CERTS_CONFIGS_CONSUMER, event, async (em) => {
      await orgRepository.applyConfig(em, parsed.data)
    })
  }
}

/** Keeps technicians' paused notifications (learner §4): a paused learner's own assignment reminders are held. Each event once; the latest `at` wins. */
export function createCertsPausesHandler(deps: { orm: MikroORM; logger: Logger }) {
  return async (event: EventEnvelope): Promise<void> => {
    if (event.type !== 'certs.notification-pause.changed.v1') return
    const parsed = Events['certs.notification-pause.changed.v1'].safeParse(event.data)
    if (!parsed.success) {
      deps.logger.error('dropping malformed event', { eventId: event.id, type: event.type })
      return
    }
    await handleOnce(deps.orm, CERTS_PAUSES_CONSUMER, event, async (em) => {
      await orgRepository.applyPause(em, parsed.data)
    })
  }
}

export const subscribeCertsConfigs = (bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> =>
  bus.subscribe(CERTS_CONFIGS_CONSUMER, ['certs.notification-config.changed.v1'], handler)

export const subscribeCertsPauses = (bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> =>
  bus.subscribe(CERTS_PAUSES_CONSUMER, ['certs.notification-pause.changed.v1'], handler)
