import { Events, type EventEnvelope, type NoticeMail } from '@portal/contracts'
import type { EventBus, Subscription } from '@portal/server-kit'
import { type EmailTemplate, certificationNoticeEmail, weeklyReportEmail } from '../mail/index.ts'
import { createMailHandler, type MailHandlerDeps, type MailRequest } from './identity.consumer.ts'

/** Durable consumer name of svc-notify for svc-certs' notices (and its inbox key). */
export const NOTIFY_CERTS_CONSUMER = 'notify-certs'

export const CERTS_MAIL_SUBJECTS = [
  'certs.certification.expiring.v1',
  'certs.certification.expired.v1',
  'certs.certification.reminder-requested.v1',
  'certs.compliance.report-compiled.v1',
] as const
type CertsMailEvent = (typeof CERTS_MAIL_SUBJECTS)[number]

/** The e-mails an event asks for: one template per notice, sent to each of its recipients. */
function mailsFor(event: EventEnvelope): MailRequest[] | null {
  const notice = (n: NoticeMail, template: EmailTemplate): MailRequest => ({ kind: n.notificationType, to: n.to, noticeId: n.noticeId, template: () => template })
  switch (event.type as CertsMailEvent) {
    case 'certs.certification.expiring.v1':
    case 'certs.certification.expired.v1': {
      const data = Events['certs.certification.expiring.v1'].parse(event.data)
      return data.notices.map((n) => notice(n, certificationNoticeEmail({ notice: n, technician: data.technician, certification: data.certification })))
    }
    case 'certs.certification.reminder-requested.v1': {
      const data = Events['certs.certification.reminder-requested.v1'].parse(event.data)
      return [notice(data.notice, certificationNoticeEmail(data))]
    }
    case 'certs.compliance.report-compiled.v1': {
      const data = Events['certs.compliance.report-compiled.v1'].parse(event.data)
      return [notice(data.notice, weeklyReportEmail(data))]
    }
    default:
      return null
  }
}

/**
 * Queues the e-mails of svc-certs' notices exactly once per event (`createMailHandler`, inbox of
 * `NOTIFY_CERTS_CONSUMER`); each delivery keeps its notice id, so the sender publishes the outcome
 * svc-certs records in its log.
 */
export const createCertsMailHandler = (deps: MailHandlerDeps) => createMailHandler(deps, mailsFor, NOTIFY_CERTS_CONSUMER)

export const subscribeCertsMail = (bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> =>
  bus.subscribe(NOTIFY_CERTS_CONSUMER, [...CERTS_MAIL_SUBJECTS], handler)
