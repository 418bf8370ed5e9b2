import type { OutgoingEmail } from './message.ts'

/** Where rendered e-mails go: an SMTP server, or the dev mailbox in single-node mode. */
export interface MailTransport {
  readonly kind: 'smtp' | 'mailbox'
  /** Resolves once the mail was accepted; throws `MailRejected` when retrying cannot help. */
  send(mail: OutgoingEmail): Promise<void>
  close(): Promise<void>
}

/** A permanent failure (e.g. the SMTP server rejected the recipient with a 5xx). */
export class MailRejected extends Error {}
