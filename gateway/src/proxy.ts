import { Agent, request as httpRequest, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import { clientAddressFrom, LOOPBACK_PROXIES, UPLOAD_REQUEST_TIMEOUT_MS, type Logger, type TrustedProxies } from '@portal/server-kit'
import type { RouteEntry } from './routes.ts'
import { createUpstreamPools, type Replica, type UpstreamTarget } from './upstreams.ts'

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authorization', 'proxy-authenticate', 'host'])
const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/

/** How long the gateway waits on a service. */
export interface UpstreamTimeouts {
  /** For the answer (status and headers) to an API call; then 504. */
  apiMs: number
  /** The same for course uploads, which the service answers once the whole upload is in (up to 10 minutes). */
  uploadMs: number
  /** Longest silence while an answer streams (a paused video's reader, a slow client). */
  idleMs: number
}

export const DEFAULT_UPSTREAM_TIMEOUTS: UpstreamTimeouts = { apiMs: 30_000, uploadMs: UPLOAD_REQUEST_TIMEOUT_MS, idleMs: 600_000 }

/**
 * After a service answered before reading the whole body (413, 401 to an upload), the rest of the
 * body is read and dropped so the client gets to read the answer and its connection stays usable;
 * beyond these the connection is closed instead.
 */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024
const DRAIN_MAX_MS = 30_000

/**
 * Bytes of a request body kept while it streams, to send it to another replica; a longer body is
 * not sent again.
 */
const REPLAY_MAX_BYTES = 1024 * 1024

export interface ProxyOptions {
  logger: Logger
  /** Each service's replicas: a URL, a comma-separated list of them, or a pool shared with other proxies (see upstreams.ts). */
  upstreams: Record<string, UpstreamTarget>
  /** Headers added to every answer (security headers). */
  responseHeaders: Record<string, string>
  timeouts?: Partial<UpstreamTimeouts>
  /** Reverse proxies in front of the gateway whose `X-Forwarded-For` names the client (default loopback). */
  trustedProxies?: TrustedProxies
}

/** A request without a body (none declared) can be sent again. */
const hasBody = (req: IncomingMessage) => req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0')

/**
 * May be sent to another replica when the first could not be reached: GET and HEAD, writes with an
 * Idempotency-Key (the service answers a repeat as it answered the first), and writes of a
 * `repeatable` route (a repeat changes nothing).
 */
const idempotent = (req: IncomingMessage, route: Pick<RouteEntry, 'repeatable'>) =>
  req.method === 'GET' || req.method === 'HEAD' || typeof req.headers['idempotency-key'] === 'string' || route.repeatable === true

/** Reads and drops what is left of a request body, within bounds (see DRAIN_MAX_*). */
function drain(req: IncomingMessage) {
  if (req.readableEnded) return
  let left = DRAIN_MAX_BYTES
  const close = () => req.socket.destroy()
  const timer = setTimeout(close, DRAIN_MAX_MS)
  timer.unref()
  req.on('data', (chunk: Buffer) => {
    left -= chunk.length
    if (left < 0) close()
  })
  req.once('close', () => clearTimeout(timer))
  req.resume()
}

/**
 * Streams a request to the owning service and its answer back, at the level of Node's HTTP
 * objects (no Request/Response conversion on the hot path): keep-alive connections to each
 * service, hop-by-hop headers dropped, a request id and the client address passed on.
 *
 * A service that does not answer in time gets a 504 (`timeouts`: short for API calls, long only
 * for uploads). A connection to a service is reused only after a request it read whole: one that
 * answered early (a 413) may drop the connection right after, and the next request on it would fail.
 * As the gateway cannot see what the service read, an error answer to a request with a body closes
 * its connection too.
 *
 * A service with several replicas (upstreams.ts): each request goes to the one the pool picks. One
 * that cannot be reached (refused, reset, unreachable: no answer byte yet) is reported to the pool,
 * and an idempotent request (see `idempotent`) is sent to another replica, its body (up to
 * REPLAY_MAX_BYTES) again; any other gets the 503 as with one replica. A timeout, an answer the
 * service gave (a 5xx among them) or an answer cut short is never sent again. `close` stops the
 * checks of the pools made here (from URLs; pools handed in are their owner's).
 */
export function createProxy(opts: ProxyOptions) {
  const agent = new Agent({ keepAlive: true, maxSockets: 512, maxFreeSockets: 64 })
  const { pools, close } = createUpstreamPools(opts.upstreams, { logger: opts.logger })
  const timeouts = { ...DEFAULT_UPSTREAM_TIMEOUTS, ...opts.timeouts }
  const trusted = opts.trustedProxies ?? LOOPBACK_PROXIES
  const fail = (res: ServerResponse, requestId: string, status: number, message: string, code: string) => {
    if (res.headersSent) return void res.destroy()
    const body = JSON.stringify({ message, code })
    res.writeHead(status, { ...opts.responseHeaders, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-request-id': requestId })
    res.end(body)
  }

  const proxy = (req: IncomingMessage, res: ServerResponse, route: Pick<RouteEntry, 'strip' | 'timeout' | 'repeatable'> & { upstream: string }, path: string) => {
    const incomingId = req.headers['x-request-id']
    const requestId = typeof incomingId === 'string' && REQUEST_ID.test(incomingId) ? incomingId : crypto.randomUUID()
    const pool = pools[route.upstream]!
    const headers: Record<string, string | string[]> = {}
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v
    headers['x-request-id'] = requestId
    // The client as the gateway sees it: its reverse proxies' X-Forwarded-For is believed, a client's own is not.
    const forwarded = req.headers['x-forwarded-for']
    headers['x-forwarded-for'] = clientAddressFrom(req.socket.remoteAddress, Array.isArray(forwarded) ? forwarded.join(',') : forwarded, trusted)
    headers['x-forwarded-host'] = req.headers.host ?? ''
    headers['x-forwarded-proto'] = 'http'
    const withBody = hasBody(req)
    const log = { upstream: route.upstream, requestId, method: req.method, path }
    const elsewhere = pool.replicas.length > 1 && idempotent(req, route)
    const tried = new Set<Replica>()
    // The body so far, to send to another replica; dropped once an answer starts or past the bound.
    let replay: Buffer[] | undefined
    let kept = 0
    const keep = (chunk: Buffer) => {
      kept += chunk.length
      if (kept <= REPLAY_MAX_BYTES) return void replay?.push(chunk)
      replay = undefined
      req.off('data', keep)
    }
    if (elsewhere && withBody) {
      replay = []
      req.on('data', keep)
    }

    let settled = false // an answer (the service's or ours) has started, or the client went away
    let response: IncomingMessage | undefined
    const timer = setTimeout(
      () => {
        if (settled) return
        settled = true
        opts.logger.warn('upstream timed out', log)
        current.destroy()
        fail(res, requestId, 504, 'The service did not answer in time. Please try again.', 'upstream_timeout')
      },
      route.timeout === 'upload' ? timeouts.uploadMs : timeouts.apiMs,
    )
    timer.unref()
    res.once('close', () => {
      clearTimeout(timer)
      if (res.writableFinished) return
      settled = true // the client went away
      current.destroy()
    })

    const send = (replica: Replica, retry: boolean): ClientRequest => {
      tried.add(replica)
      replica.inFlight += 1
      const upstream = httpRequest({ agent, hostname: replica.url.hostname, port: replica.url.port, method: req.method, path: path.slice(route.strip.length), headers }, (up) => {
        if (settled) return void upstream.destroy()
        settled = true
        response = up
        clearTimeout(timer)
        replay = undefined
        req.off('data', keep)
        upstream.setTimeout(timeouts.idleMs, () => upstream.destroy(new Error('upstream idle')))
        if (!upstream.writableFinished) {
          // Answered before it had the whole body: the rest is dropped, and the connection to the
          // service is closed once the answer is through instead of going back to the pool.
          req.unpipe(upstream)
          drain(req)
          up.once('end', () => upstream.destroy())
        } else if (withBody && (up.statusCode ?? 502) >= 400) {
          // Sent whole, but an error may have been answered without reading the body (a 413 on its
          // declared length, a 401 before an upload): what the service's parser had not taken may
          // still wait in the connection, which the service then drops. Closed once the answer is
          // through instead of going back to the pool, where the next request (with a body, so not
          // sent again) would get a 503.
          upstream.shouldKeepAlive = false
        }
        const out: Record<string, string | string[]> = { ...opts.responseHeaders }
        for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v
        out['x-request-id'] = requestId
        res.writeHead(up.statusCode ?? 502, out)
        up.pipe(res)
        up.on('error', () => res.destroy())
      })
      upstream.on('error', (err: NodeJS.ErrnoException) => {
        if (settled) {
          // Broken while the answer streamed: the client's answer is cut short too.
          if (response && !response.complete) res.destroy()
          return
        }
        // A kept-alive connection the service closed meanwhile: a request without a body is sent again once.
        const stale = upstream.reusedSocket && err.code === 'ECONNRESET'
        if (retry && stale) {
          current = send(replica, false)
          current.end()
          return
        }
        // A connection the service closed while idle says nothing of the replica.
        if (!stale) pool.failed(replica, err)
        const next = elsewhere && (!withBody || replay) ? pool.pick(tried) : undefined
        if (next) {
          opts.logger.warn('upstream replica unreachable, sent to another', { ...log, replica: replica.base, to: next.base, err })
          current = send(next, !withBody)
          if (!withBody) return void current.end()
          for (const chunk of replay!) current.write(chunk)
          if (req.readableEnded) current.end()
          else req.pipe(current)
          return
        }
        settled = true
        clearTimeout(timer)
        opts.logger.warn('upstream unreachable', { ...log, replica: replica.base, err })
        fail(res, requestId, 503, 'The service is temporarily unavailable. Please try again.', 'upstream_unavailable')
      })
      upstream.once('close', () => (replica.inFlight -= 1))
      return upstream
    }

    let current = send(pool.pick()!, !withBody)
    if (withBody) req.pipe(current)
    else current.end()
  }
  return Object.assign(proxy, { close })
}
