import type { OutgoingEmail } from './message.ts'
import type { MailTransport } from './transport.ts'

/**
 * The dev mailbox: "sending" stores the message where `/mailbox` and `/dev/mailbox` show it. It
 * can tell whether an interrupted attempt got there, so a mail is never sent twice.
 */
export function createMailboxTransport(store: { save(mail: OutgoingEmail): Promise<void>; has(id: string): Promise<boolean> }): MailTransport {
  return {
    kind: 'mailbox',
    send: (mail) => store.save(mail),
    wasAccepted: (mail) => store.has(mail.id),
    async close() {},
  }
}
