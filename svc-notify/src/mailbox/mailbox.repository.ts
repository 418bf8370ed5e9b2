import type { MikroORM } from '@mikro-orm/postgresql'
import type { MailboxMessage } from '@portal/contracts'
import type { OutgoingEmail } from '../mail/index.ts'

/** What the mailbox routes read. */
export interface MailboxStore {
  /** Messages newest first, optionally only those to one address (case-insensitive). */
  list(filter: { to?: string; limit: number }): Promise<MailboxMessage[]>
}

/** Queries of the mailbox_messages table. */
export function createMailboxRepository(orm: MikroORM): MailboxStore & { save(mail: OutgoingEmail): Promise<void>; has(id: string): Promise<boolean> } {
  const conn = () => orm.em.getConnection()
  return {
    /** Stores a message once: a delivery retried after a crash does not appear twice. */
    async save(mail) {
      await conn().execute(
        `insert into mailbox_messages (id, recipient, subject, text, html, sent_at)
         values (?, ?, ?, ?, ?, now()) on conflict (id) do nothing`,
        [mail.id, mail.to, mail.subject, mail.text, mail.html],
      )
    },
    /** Whether the message of delivery `id` is stored. */
    async has(id) {
      const rows = (await conn().execute('select 1 from mailbox_messages where id = ?', [id])) as unknown[]
      return rows.length > 0
    },
    async list({ to, limit }) {
      const where = to ? 'where lower(recipient) = lower(?)' : ''
      const rows = (await conn().execute(
        `select id, recipient, subject, text, html, sent_at from mailbox_messages ${where}
          order by sent_at desc, id desc limit ?`,
        to ? [to, limit] : [limit],
      )) as { id: string; recipient: string; subject: string; text: string; html: string; sent_at: Date | string }[]
      return rows.map((r) => ({
        id: r.id,
        to: r.recipient,
        subject: r.subject,
        text: r.text,
        html: r.html,
        sentAt: new Date(r.sent_at).toISOString(),
      }))
    },
  }
}
