/** What the benchmarks share: an SMTP sink for the real registration flow, and autocannon figures. */
import type autocannon from 'autocannon'
import { SMTPServer } from 'smtp-server'

/** An SMTP server on a free port keeping every message it receives (cluster mode needs SMTP). */
export async function startSmtpSink(): Promise<{ mails: string[]; port: number; close(): void }> {
  const mails: string[] = []
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _s, cb) {
      let data = ''
      stream.on('data', (d) => (data += d))
      stream.on('end', () => {
        mails.push(data)
        cb()
      })
    },
  })
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r))
  return { mails, port: (smtp.server.address() as { port: number }).port, close: () => smtp.close() }
}

/** The code of the verification mail sent to `email`, once it has arrived. */
const decoded = new Map<string, string>()
export function verificationCode(mails: string[], email: string): string | undefined {
  for (const m of mails) {
    let text = decoded.get(m)
    if (text === undefined) decoded.set(m, (text = m.replace(/=\r?\n/g, '')))
    if (!text.includes(email)) continue
    const code = /\b(\d{6})\b/.exec(text)?.[1]
    if (code) return code
  }
  return undefined
}

/** An autocannon run's figures: mean requests/s, latency percentiles, failures. */
export const loadFigures = (r: autocannon.Result) => ({
  rps: Math.round(r.requests.average),
  p50: r.latency.p50,
  p99: r.latency.p99,
  non2xx: r.non2xx,
  errors: r.errors,
  total: r.requests.total,
})
export type LoadFiguresOf = ReturnType<typeof loadFigures>
