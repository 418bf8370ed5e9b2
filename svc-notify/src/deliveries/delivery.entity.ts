import { defineEntity, p } from '@mikro-orm/postgresql'

export type DeliveryStatus = 'pending' | 'sent' | 'failed'

/**
 * One e-mail to send, written in the same transaction as the inbox row of the event that asked
 * for it; the sender moves it from pending to sent (or failed after the last retry), one claimed
 * attempt at a time (decision 0043).
 */
export const EmailDelivery = defineEntity({
  name: 'EmailDelivery',
  tableName: 'email_deliveries',
  properties: {
    id: p.uuid().primary(),
    eventId: p.uuid(),
    /** The certification notice this mail delivers (its outcome is published with it); null for other mails. */
    noticeId: p.uuid().nullable(),
    kind: p.string(),
    to: p.string().fieldName('recipient'),
    subject: p.text(),
    text: p.text(),
    html: p.text(),
    status: p.string().$type<DeliveryStatus>().default('pending'),
    attempts: p.integer().default(0),
    nextAttemptAt: p.datetime(),
    lastError: p.text().nullable(),
    createdAt: p.datetime(),
    sentAt: p.datetime().nullable(),
    /** When the attempt in flight was handed to the transport; null once its outcome is recorded. */
    sendingSince: p.datetime().nullable(),
    /** Times the mail was sent again after an attempt interrupted before its outcome was recorded. */
    unknownOutcomeResends: p.integer().default(0),
  },
})
