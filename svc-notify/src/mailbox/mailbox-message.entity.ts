import { defineEntity, p } from '@mikro-orm/postgresql'

/** A message kept by the dev mailbox (the transport when no SMTP server is configured). */
export const MailboxEntry = defineEntity({
  name: 'MailboxEntry',
  tableName: 'mailbox_messages',
  properties: {
    id: p.uuid().primary(),
    to: p.string().fieldName('recipient'),
    subject: p.text(),
    text: p.text(),
    html: p.text(),
    sentAt: p.datetime(),
  },
})
