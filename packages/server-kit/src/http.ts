import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { createMiddleware } from 'hono/factory'
import { matchedRoutes } from 'hono/route'
import type { MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { serve, type ServerType } from '@hono/node-server'
import { context as traceContexts } from '@opentelemetry/api'
import type { IncomingMessage } from 'node:http'
import { scopedAppMiddleware } from './app-scope.ts'
import type { Actor } from './auth.ts'
import { clientAddressFrom, LOOPBACK_PROXIES, type TrustedProxies } from './client-address.ts'
import { AppError, errorHandler, notFoundHandler } from './errors.ts'
import type { Logger } from './logger.ts'
import { createMetrics, serviceMetrics, type Metrics } from './metrics.ts'
import { SpanKind, SpanStatusCode, contextOfRequest, startRequestTrace, tracingEnabled } from './tracing.ts'

/** Hono environment of every service app. */
export type AppEnv = { Variables: { requestId: string; actor: Actor; logger: Logger } }

export interface ServiceAppOptions {
  service: string
  logger: Logger
  /** Largest request body accepted (bytes) by a route without `ownBodyLimit`; default 1 MiB. */
  maxBodyBytes?: number
  /** Readiness checks, e.g. a database ping. */
  ready?: () => Promise<void>
  /** Where requests are counted and what `/metrics` serves; default: the service's (`serviceMetrics`), else new ones. */
  metrics?: Metrics
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/
const tooLarge = () => new AppError(413, 'payload_too_large', 'Request body is too large')

/**
 * Request id (kept from the gateway's `X-Request-Id` when well-formed, else new; echoed as
 * `X-Request-Id`) and one log line per request (info). With tracing on (`startTracing`), a server
 * span per request continuing the caller's `traceparent` (the matched route and status on it, no
 * path or query) when its trace is sampled (`startRequestTrace`: none for a dropped trace, whose
 * context is carried on), its trace id in the log line (`trace_id`).
 */
export const requestContext = (logger: Logger, metrics?: Metrics) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const incoming = c.req.header('x-request-id')
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID()
    c.set('requestId', requestId)
    c.set('logger', logger.child({ requestId }))
    c.header('X-Request-Id', requestId)
    const start = performance.now()
    const traced = tracingEnabled()
      ? startRequestTrace(
          c.req.method,
          { kind: SpanKind.SERVER, attributes: { 'http.request.method': c.req.method } },
          { traceparent: c.req.header('traceparent'), tracestate: c.req.header('tracestate') },
        )
      : undefined
    const span = traced?.span
    try {
      await (traced ? traceContexts.with(contextOfRequest(traced), next) : next())
    } finally {
      if (span) {
        span.updateName(`${c.req.method} ${c.req.routePath ?? 'unmatched'}`)
        span.setAttributes({ 'http.route': c.req.routePath ?? 'unmatched', 'http.response.status_code': c.res.status })
        if (c.res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
        span.end()
      }
    }
    const ms = performance.now() - start
    // The matched pattern (`/items/:id`): a raw path would make a series per id or token.
    metrics?.observe(c.req.method, c.req.routePath ?? 'unmatched', c.res.status, ms)
    // One line per request: the matched route (`/scorm/commit/:token`) to group by.
    if (c.req.path !== '/healthz' && c.req.path !== '/metrics')
      logger.info('request', {
        requestId,
        userId: (c.get('actor') as Actor | undefined)?.userId,
        method: c.req.method,
        route: c.req.routePath,
        // The path only where the route does not say what was asked (a wildcard, as the gateway's):
        // other paths may hold one-time credentials that are no JWT (a cmi5 fetch URL's token).
        ...(c.req.routePath.includes('*') ? { path: c.req.path } : {}),
        status: c.res.status,
        durationMs: Math.round(ms * 10) / 10,
        ...(traced ? { trace_id: traced.spanContext.traceId } : {}),
      })
  })

const MULTIPART = /^multipart\/form-data\s*(;|$)/i

/** The 400 for a body its reader could not read or parse: named after what was expected. */
function unreadableBody(reader: string, contentType: string | undefined): AppError {
  if (reader === 'json') return new AppError(400, 'invalid_json', 'The body is not valid JSON')
  if ((reader === 'parseBody' || reader === 'formData') && MULTIPART.test(contentType ?? '')) return new AppError(400, 'invalid_multipart', 'Malformed multipart body')
  if (reader === 'parseBody' || reader === 'formData') return new AppError(400, 'invalid_form', 'The body is not a valid form')
  return new AppError(400, 'unreadable_body', 'The request body could not be read')
}

const BODY_READERS = ['json', 'text', 'arrayBuffer', 'bytes', 'blob', 'formData', 'parseBody'] as const

/**
 * The body readers of `c.req` (`json()`, `parseBody()`, `formData()`, ...) answer a body they
 * cannot read or parse with a 400 in the error shape (`invalid_json`, `invalid_multipart`,
 * `invalid_form`, `unreadable_body`) instead of rejecting with a SyntaxError or TypeError that
 * would be a logged 500: e.g. a multipart content type over a body that is not multipart. Every
 * service app has it (`createServiceApp`), so a route reading its body by hand needs no try/catch.
 */
export const malformedBodyAs400: MiddlewareHandler = (c, next) => {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return next()
  const req = c.req as unknown as Record<(typeof BODY_READERS)[number], (...args: unknown[]) => Promise<unknown>>
  for (const reader of BODY_READERS) {
    const read = req[reader].bind(c.req)
    req[reader] = (...args) =>
      read(...args).catch((err: unknown) => {
        throw err instanceof AppError || err instanceof HTTPException ? err : unreadableBody(reader, c.req.header('content-type'))
      })
  }
  return next()
}

/**
 * Put on a route (`.post('/upload', ownBodyLimit, handler)`) that enforces its own body limit, e.g.
 * a streamed upload or a hot path reading its body itself (`readBodyText`): the common limit of
 * `createServiceApp` (`maxBodyBytes`) is for every other route.
 */
export const ownBodyLimit: MiddlewareHandler = (_c, next) => next()

/** A service's Hono app with the common middleware, error shape, health, readiness and metrics. */
export function createServiceApp(opts: ServiceAppOptions): Hono<AppEnv> {
  const metrics = opts.metrics ?? serviceMetrics() ?? createMetrics(opts.service)
  const app = new Hono<AppEnv>()
  app.use(requestContext(opts.logger, metrics))
  const limit = bodyLimit({
    maxSize: opts.maxBodyBytes ?? 1024 * 1024,
    onError: () => {
      throw tooLarge()
    },
  })
  app.use((c, next) => (matchedRoutes(c).some((r) => r.handler === ownBodyLimit) ? next() : limit(c, next)))
  app.use(malformedBodyAs400)
  // What the service being built puts on every request (defineService: Idempotency-Key).
  for (const middleware of scopedAppMiddleware()) app.use(middleware)
  app.onError(errorHandler(opts.logger))
  app.notFound(notFoundHandler)
  app.get('/healthz', (c) => c.json({ status: 'ok', service: opts.service }))
  app.get('/readyz', async (c) => {
    try {
      await opts.ready?.()
      return c.json({ status: 'ready', service: opts.service })
    } catch {
      return c.json({ status: 'not ready', service: opts.service }, 503)
    }
  })
  app.get('/metrics', async (c) => c.body(await metrics.render(), 200, { 'Content-Type': metrics.contentType }))
  return app
}

/** What a service's Node server hands every request (see `listen`). */
interface ServerEnv {
  incoming?: IncomingMessage
  trustedProxies?: TrustedProxies
}

/**
 * The client's address: the socket's peer, or what `X-Forwarded-For` says when that peer is a
 * trusted proxy (the gateway; `listen`'s `trustedProxies`, loopback by default). Without a socket
 * (in-process `app.request()` in tests) the header is all there is.
 */
export function clientAddress(c: Context): string {
  const env = c.env as ServerEnv | undefined
  const fwd = c.req.header('x-forwarded-for')
  const socket = env?.incoming?.socket
  if (!socket) return fwd ? fwd.split(',')[0]!.trim() : 'unknown'
  return clientAddressFrom(socket.remoteAddress, fwd, env.trustedProxies ?? LOOPBACK_PROXIES)
}

/**
 * The request body as text, at most `maxBytes` (413 beyond). For routes that skip the common body
 * limit (`ownBodyLimit`) on a hot path: under Node it reads the IncomingMessage directly, which
 * spares the web-stream wrapping Hono's body limit and `c.req.text()` cost; elsewhere (tests
 * calling `app.request()`) it reads the Request.
 */
export async function readBodyText(c: Context, maxBytes: number): Promise<string> {
  const declared = Number(c.req.header('content-length') ?? NaN)
  if (declared > maxBytes) throw tooLarge()
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
  if (!incoming || incoming.readableEnded || incoming.readableDidRead) {
    const text = await c.req.text()
    if (Buffer.byteLength(text) > maxBytes) throw tooLarge()
    return text
  }
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) {
        incoming.off('data', onData)
        incoming.resume() // drain the rest so the connection stays usable for the 413
        reject(tooLarge())
        return
      }
      chunks.push(chunk)
    }
    incoming.on('data', onData)
    incoming.once('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8')))
    incoming.once('error', reject)
  })
}

/** Longest a request may take to arrive whole (the course upload timeout plus a margin). */
export const UPLOAD_REQUEST_TIMEOUT_MS = 660_000

export interface ListenOptions {
  /** Proxies whose `X-Forwarded-For` names the client (`clientAddress`); default loopback only. */
  trustedProxies?: TrustedProxies
}

/** Starts a Hono app on `port` (0 = any free port); resolves with the bound port. */
export function listen(app: { fetch: (req: Request, env?: unknown) => Response | Promise<Response> }, port: number, hostname = '127.0.0.1', opts: ListenOptions = {}) {
  const trusted = opts.trustedProxies ?? LOOPBACK_PROXIES
  const fetch = (req: Request, env: object) => {
    ;(env as ServerEnv).trustedProxies = trusted
    return app.fetch(req, env)
  }
  return new Promise<{ port: number; server: ServerType; close(): Promise<void> }>((resolveListen) => {
    // Course uploads may take up to 10 minutes (learner §9): Node's default 5-minute request
    // timeout would cut them off; idle sockets are still closed by the keep-alive timeout.
    const server = serve({ fetch, port, hostname, serverOptions: { requestTimeout: UPLOAD_REQUEST_TIMEOUT_MS } }, (info) =>
      resolveListen({
        port: info.port,
        server,
        close: () =>
          new Promise<void>((r) => {
            server.close(() => r())
            ;(server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.()
          }),
      }),
    )
  })
}
