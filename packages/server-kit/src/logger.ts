export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'
const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }

/** Structured JSON logger, one line per entry. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
  child(bindings: Record<string, unknown>): Logger
}

/**
 * A JWT anywhere in a log line: content launch tokens travel in URL paths (`/content/{token}/…`,
 * `/scorm/commit/{token}`) and are the credential there, so paths, messages and stacks that quote
 * them must not carry them whole; bearer tokens likewise.
 */
const JWT = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g

/** `text` with every JWT in it replaced by `[token]`. */
export const redactTokens = (text: string) => text.replace(JWT, '[token]')

/** Creates a JSON-lines logger writing to stdout (errors to stderr); tokens are redacted from every line. */
export function createLogger(service: string, level: LogLevel = (process.env.LOG_LEVEL as LogLevel | undefined) ?? 'info', bindings: Record<string, unknown> = {}): Logger {
  const min = order[level] ?? order.info
  const write = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) => {
    if (order[lvl] < min) return
    const entry: Record<string, unknown> = { time: new Date().toISOString(), level: lvl, service, msg, ...bindings, ...fields }
    if (fields?.err instanceof Error) entry.err = { message: fields.err.message, stack: fields.err.stack }
    const line = redactTokens(JSON.stringify(entry)) + '\n'
    if (lvl === 'error') process.stderr.write(line)
    else process.stdout.write(line)
  }
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (b) => createLogger(service, level, { ...bindings, ...b }),
  }
}
