import { SMTPServer } from 'smtp-server'
import { simpleParser, type ParsedMail } from 'mailparser'

/**
 * A real SMTP server for tests: keeps every message it accepted, parsed. `beforeReply` sees each
 * message once it has arrived in full and is kept, before the server's 250 reply: a sender killed
 * then has had its mail accepted without knowing it (the window no SMTP client can close).
 * `beforeMailFrom` runs when a sender starts a message (MAIL FROM), before any of it is kept: a
 * sender killed while it waits has begun a send that never delivered anything.
 */
export async function startSmtpReceiver(
  opts: { rejectRecipients?: RegExp; beforeReply?: (mail: ParsedMail) => void | Promise<void>; beforeMailFrom?: (from: string) => void | Promise<void> } = {},
) {
  const received: (ParsedMail & { envelopeTo: string[] })[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onMailFrom(address, _session, callback) {
      Promise.resolve(opts.beforeMailFrom?.(address.address)).then(
        () => callback(),
        (err: Error) => callback(err),
      )
    },
    onRcptTo(address, _session, callback) {
      if (opts.rejectRecipients?.test(address.address)) {
        const err = new Error('mailbox unavailable') as Error & { responseCode: number }
        err.responseCode = 550
        return callback(err)
      }
      callback()
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          received.push(Object.assign(mail, { envelopeTo: session.envelope.rcptTo.map((r) => r.address) }))
          await opts.beforeReply?.(mail)
          callback()
        })
        .catch(callback)
    },
  })
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port))
  })
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Messages whose envelope recipient is `to`. */
    to: (to: string) => received.filter((m) => m.envelopeTo.some((r) => r.toLowerCase() === to.toLowerCase())),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>

/** Polls `check` until it returns a truthy value or `timeoutMs` passes. */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 10_000, stepMs = 50): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value as Truthy<T>
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, stepMs))
  }
}
