import type { MikroORM } from '@mikro-orm/postgresql'
import { Events, type EventEnvelope } from '@portal/contracts'
import { handleOnce, type EventBus, type Logger, type Subscription } from '@portal/server-kit'
import type { DeliveryRepository } from '../deliveries/index.ts'
import { renderEmail, type EmailTemplate, passwordResetEmail, registrationAttemptEmail, verificationEmail } from '../mail/index.ts'

/** Durable consumer name of svc-notify on the bus (and in its inbox). */
export const NOTIFY_CONSUMER = 'notify'

export const IDENTITY_MAIL_SUBJECTS = ['identity.verification.requested.v1', 'identity.password-reset.requested.v1', 'identity.registration.attempted.v1'] as const
type MailEvent = (typeof IDENTITY_MAIL_SUBJECTS)[number]

/** The mail an event asks for: its kind, recipient and template. */
/** One e-mail an event asks for: its template, to one or several addresses (a delivery each), with the notice it answers if any. */
export type MailRequest = { kind: string; to: string | readonly string[]; noticeId?: string; template: () => EmailTemplate }

/** The mail an identity event asks for, or null when the event is not one notify mails for. */
function mailFor(event: EventEnvelope): MailRequest | null {
  switch (event.type as MailEvent) {
    case 'identity.verification.requested.v1': {
      const data = Events['identity.verification.requested.v1'].parse(event.data)
      return { kind: 'verification', to: data.email, template: () => verificationEmail(data) }
    }
    case 'identity.password-reset.requested.v1': {
      const data = Events['identity.password-reset.requested.v1'].parse(event.data)
      return { kind: 'password-reset', to: data.email, template: () => passwordResetEmail(data) }
    }
    case 'identity.registration.attempted.v1': {
      const data = Events['identity.registration.attempted.v1'].parse(event.data)
      return { kind: 'registration-attempt', to: data.email, template: () => registrationAttemptEmail(data) }
    }
    default:
      return null
  }
}

export interface MailHandlerDeps {
  orm: MikroORM
  deliveries: DeliveryRepository
  logger: Logger
  /** Called after a delivery was queued (kicks the sender). */
  onQueued?: () => void
}

/** Handles identity's mail events exactly once (see `createMailHandler`). */
export const createIdentityMailHandler = (deps: MailHandlerDeps) => createMailHandler(deps, mailFor)

/**
 * Handles mail events exactly once: the delivery rows commit with the inbox row (of `consumer`),
 * so a redelivered event queues nothing, and the sender sends the rows later even after a crash.
 * Malformed data is logged and dropped: retrying it could never succeed.
 */
export function createMailHandler(deps: MailHandlerDeps, mailFor: (event: EventEnvelope) => MailRequest | readonly MailRequest[] | null, consumer = NOTIFY_CONSUMER) {
  return async (event: EventEnvelope): Promise<void> => {
    let mails: { mail: MailRequest; template: EmailTemplate }[]
    try {
      const asked = mailFor(event)
      if (!asked) return
      mails = (Array.isArray(asked) ? asked : [asked as MailRequest]).map((mail) => ({ mail, template: mail.template() }))
    } catch (err) {
      deps.logger.error('dropping event notify cannot mail for', { eventId: event.id, type: event.type, err: err as Error })
      return
    }
    // A render failure is ours, not the event's: it throws, so the event comes again after a fix.
    const rendered = await Promise.all(mails.map(async ({ mail, template }) => ({ mail, email: await renderEmail(template) })))
    const queued = await handleOnce(deps.orm, consumer, event, async (em) => {
      for (const { mail, email } of rendered)
        for (const to of typeof mail.to === 'string' ? [mail.to] : mail.to) deps.deliveries.queue(em, { eventId: event.id, noticeId: mail.noticeId, kind: mail.kind, to, ...email })
    })
    if (queued) {
      deps.logger.info('e-mail queued', { eventId: event.id, type: event.type, mails: rendered.length })
      deps.onQueued?.()
    }
  }
}

/** Subscribes the handler durably to identity's mail events. */
export function subscribeIdentityMail(bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> {
  return bus.subscribe(NOTIFY_CONSUMER, [...IDENTITY_MAIL_SUBJECTS], handler)
}
