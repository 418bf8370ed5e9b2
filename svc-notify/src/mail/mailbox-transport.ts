import type { OutgoingEmail } from './message.ts'
import type { MailTransport } from './transport.ts'

/** The dev mailbox: "sending" stores the message where `/mailbox` and `/dev/mailbox` show it. */
export function createMailboxTransport(store: { save(mail: OutgoingEmail): Promise<void> }): MailTransport {
  return {
    kind: 'mailbox',
    send: (mail) => store.save(mail),
    async close() {},
  }
}
