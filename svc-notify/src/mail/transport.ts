import type { OutgoingEmail } from './message.ts'

/** Where rendered e-mails go: an SMTP server, or the dev mailbox in single-node mode. */
export interface MailTransport {
  readonly kind: 'smtp' | 'mailbox'
  /** Resolves once the mail was accepted; throws `MailRejected` when retrying cannot help. */
  send(mail: OutgoingEmail): Promise<void>
  /**
   * Whether `mail` (its delivery id, which is its Message-ID) was accepted, for a transport that
   * can tell: asked before sending again a mail whose earlier attempt was interrupted. SMTP
   * cannot (no command asks a server about a Message-ID), so its transport has none and such a
   * mail is sent once more (decision 0043).
   */
  wasAccepted?(mail: OutgoingEmail): Promise<boolean>
  close(): Promise<void>
}

/** A permanent failure (e.g. the SMTP server rejected the recipient with a 5xx). */
export class MailRejected extends Error {}
