import nodemailer from 'nodemailer'
import { MailRejected, type MailTransport } from './transport.ts'

/** The domain of the From address, used for stable Message-IDs. */
function fromDomain(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from
  return address.split('@')[1]?.trim() || 'localhost'
}

/** Sends through the SMTP server at `url` (e.g. `smtp://user:pass@mail:587`, `smtps://…`). */
export function createSmtpTransport(opts: { url: string; from: string }): MailTransport {
  // A stalled server fails the attempt well within the sender's lease (2 min; nodemailer waits 10
  // min by default): a send that outlived its lease could also be sent by the instance claiming it next.
  const transporter = nodemailer.createTransport({ url: opts.url, connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 })
  const domain = fromDomain(opts.from)
  return {
    kind: 'smtp',
    async send(mail) {
      try {
        await transporter.sendMail({
          from: opts.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          // Stable across retries: a receiver that got the first attempt can tell it is the same mail.
          messageId: `<${mail.id}@${domain}>`,
        })
      } catch (err) {
        const code = (err as { responseCode?: number }).responseCode
        if (code !== undefined && code >= 500 && code < 600) throw new MailRejected((err as Error).message, { cause: err })
        throw err
      }
    },
    async close() {
      transporter.close()
    },
  }
}
