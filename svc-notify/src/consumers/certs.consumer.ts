import type { MikroORM } from '@mikro-orm/postgresql'
import { Events, type EventEnvelope, type NoticeMail } from '@portal/contracts'
import { handleOnce, type EventBus, type Logger, type Subscription } from '@portal/server-kit'
import type { DeliveryRepository } from '../deliveries/delivery.repository.ts'
import { renderEmail, type EmailTemplate } from '../mail/render.ts'
import { certificationNoticeEmail, weeklyReportEmail } from '../mail/templates/certification-notice.ts'

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
function mailsFor(event: EventEnvelope): { notice: NoticeMail; template: EmailTemplate }[] | null {
  switch (event.type as CertsMailEvent) {
    case 'certs.certification.expiring.v1':
    case 'certs.certification.expired.v1': {
      const data = Events['certs.certification.expiring.v1'].parse(event.data)
      return data.notices.map((notice) => ({ notice, template: certificationNoticeEmail({ notice, technician: data.technician, certification: data.certification }) }))
    }
    case 'certs.certification.reminder-requested.v1': {
      const data = Events['certs.certification.reminder-requested.v1'].parse(event.data)
      return [{ notice: data.notice, template: certificationNoticeEmail(data) }]
    }
    case 'certs.compliance.report-compiled.v1': {
      const data = Events['certs.compliance.report-compiled.v1'].parse(event.data)
      return [{ notice: data.notice, template: weeklyReportEmail(data) }]
    }
    default:
      return null
  }
}

/**
 * Queues the e-mails of svc-certs' notices exactly once per event (the deliveries commit with the
 * inbox row); each delivery keeps its notice id, so the sender publishes the outcome
 * svc-certs records in its log. Malformed data is logged and dropped.
 */
export function createCertsMailHandler(deps: { orm: MikroORM; deliveries: DeliveryRepository; logger: Logger; onQueued?: () => void }) {
  return async (event: EventEnvelope): Promise<void> => {
    let mails: ReturnType<typeof mailsFor>
    try {
      mails = mailsFor(event)
      if (!mails) return
    } catch (err) {
      deps.logger.error('dropping event notify cannot mail for', { eventId: event.id, type: event.type, err: err as Error })
      return
    }
    const rendered = await Promise.all(mails.map(async (m) => ({ notice: m.notice, email: await renderEmail(m.template) })))
    const queued = await handleOnce(deps.orm, NOTIFY_CERTS_CONSUMER, event, async (em) => {
      for (const { notice, email } of rendered)
        for (const to of notice.to) deps.deliveries.queue(em, { eventId: event.id, noticeId: notice.noticeId, kind: notice.notificationType, to, ...email })
    })
    if (queued) {
      deps.logger.info('certification e-mails queued', { eventId: event.id, type: event.type, notices: rendered.length })
      deps.onQueued?.()
    }
  }
}

export const subscribeCertsMail = (bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> =>
  bus.subscribe(NOTIFY_CERTS_CONSUMER, [...CERTS_MAIL_SUBJECTS], handler)
