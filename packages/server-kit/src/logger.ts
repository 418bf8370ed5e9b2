import { createRequire } from 'node:module'
import { hostname } from 'node:os'
import { pino, stdTimeFunctions, type DestinationStream, type Logger as Pino, type StreamEntry } from 'pino'

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'
/** `json`: one JSON object a line (services, CI, tests); `pretty`: coloured lines for a person at a terminal. */
export type LogFormat = 'json' | 'pretty'

/** Structured logger, one line per entry (JSON unless pretty output is asked). */
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

/**
 * Fields that hold a secret whatever their value, at the top of an entry or one level down (e.g.
 * `headers.authorization`): written as `[redacted]`.
 */
const SECRET_FIELDS = ['authorization', 'cookie', 'set-cookie', 'password', 'secret', 'token', 'accessToken', 'refreshToken', 'clientSecret', 'apiKey']
const REDACT_PATHS = SECRET_FIELDS.flatMap((f) => [`["${f}"]`, `*["${f}"]`])

/** An error as its message and stack only: other properties (SQL parameters, responses) stay out of the logs. */
const serializeError = (err: unknown) => (err instanceof Error ? { type: err.name, message: err.message, stack: err.stack } : err)

export interface LoggerOptions {
  /** Default `LOG_FORMAT` from the environment, else `json`. */
  format?: LogFormat
  /** Where lines go (tests); default stdout, and stderr for errors. */
  destination?: DestinationStream
}

// The streams are looked up at each write, so what replaces them later (a test's spy) is used.
const stdout: DestinationStream = { write: (line) => void process.stdout.write(line) }
const stderr: DestinationStream = { write: (line) => void process.stderr.write(line) }

/** pino-pretty, loaded only when pretty output is asked (services in cluster mode never load it). */
function prettyStream(to: NodeJS.WriteStream): DestinationStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty')
  return pretty({
    destination: to,
    sync: true,
    colorize: to.isTTY === true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
    messageFormat: '[{service}] {msg}',
    singleLine: true,
  })
}

function destinationOf(format: LogFormat): DestinationStream {
  const streams: StreamEntry[] =
    format === 'pretty'
      ? [
          { level: 'debug', stream: prettyStream(process.stdout) },
          { level: 'error', stream: prettyStream(process.stderr) },
        ]
      : [
          { level: 'debug', stream: stdout },
          { level: 'error', stream: stderr },
        ]
  // dedupe: a line goes to the stream of the highest level it reaches only (errors to stderr alone).
  return pino.multistream(streams, { dedupe: true })
}

/**
 * `root` with `bindings` on every line. A child is made from the root with all its bindings, so a
 * binding given again (`service` of a service in the single-node process) replaces the earlier one
 * instead of appearing twice in the line.
 */
function wrap(root: Pino, bindings: Record<string, unknown>): Logger {
  // pino's child (its bindings serialized and redacted) is made at the first line this logger
  // writes: each request gets a child (`requestContext`) and most write no line at LOG_LEVEL=error.
  let made: Pino | undefined
  const p = () => (made ??= root.child(bindings))
  return {
    debug: (msg, fields) => void (root.isLevelEnabled('debug') && (fields ? p().debug(fields, msg) : p().debug(msg))),
    info: (msg, fields) => void (root.isLevelEnabled('info') && (fields ? p().info(fields, msg) : p().info(msg))),
    warn: (msg, fields) => void (root.isLevelEnabled('warn') && (fields ? p().warn(fields, msg) : p().warn(msg))),
    error: (msg, fields) => void (root.isLevelEnabled('error') && (fields ? p().error(fields, msg) : p().error(msg))),
    child: (more) => wrap(root, { ...bindings, ...more }),
  }
}

/**
 * Creates a pino logger for `service`: JSON lines with `time` (ISO), `level` (its name), `service`,
 * `msg` and the fields, to stdout (errors to stderr), or pretty lines (`LOG_FORMAT=pretty`).
 * Secret fields (`authorization`, `cookie`, `password`, ...) are written as `[redacted]`, every JWT
 * anywhere in a line (messages, fields, stacks) as `[token]`, and `err` as its message and stack.
 */
export function createLogger(service: string, level: LogLevel = (process.env.LOG_LEVEL as LogLevel | undefined) ?? 'info', opts: LoggerOptions = {}): Logger {
  const format = opts.format ?? (process.env.LOG_FORMAT === 'pretty' ? 'pretty' : 'json')
  const root = pino(
    {
      level,
      base: { pid: process.pid, hostname: hostname() },
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: serializeError },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      // The whole serialized line, so a token is caught wherever it is quoted (and in pretty output too).
      hooks: { streamWrite: redactTokens },
    },
    opts.destination ?? (level === 'silent' ? stdout : destinationOf(format)),
  )
  return wrap(root, { service })
}
