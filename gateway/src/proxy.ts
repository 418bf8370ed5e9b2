import { Agent, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Logger } from '@portal/server-kit'
import type { RouteEntry } from './routes.ts'

const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authorization', 'proxy-authenticate', 'host',
])
const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/

export interface ProxyOptions {
  logger: Logger
  upstreams: Record<string, string>
  /** Headers added to every answer (security headers). */
  responseHeaders: Record<string, string>
  timeoutMs?: number
}

/**
 * Streams a request to the owning service and its answer back, at the level of Node's HTTP
 * objects (no Request/Response conversion on the hot path): keep-alive connections to each
 * service, hop-by-hop headers dropped, a request id and the client address passed on.
 */
export function createProxy(opts: ProxyOptions) {
  const agent = new Agent({ keepAlive: true, maxSockets: 512, maxFreeSockets: 64 })
  const targets = Object.fromEntries(Object.entries(opts.upstreams).map(([k, v]) => [k, new URL(v)]))
  const fail = (res: ServerResponse, requestId: string, status: number, message: string, code: string) => {
    if (res.headersSent) return void res.destroy()
    const body = JSON.stringify({ message, code })
    res.writeHead(status, { ...opts.responseHeaders, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-request-id': requestId })
    res.end(body)
  }

  return (req: IncomingMessage, res: ServerResponse, route: Pick<RouteEntry, 'strip'> & { upstream: string }, path: string) => {
    const incomingId = req.headers['x-request-id']
    const requestId = typeof incomingId === 'string' && REQUEST_ID.test(incomingId) ? incomingId : crypto.randomUUID()
    const target = targets[route.upstream]!
    const headers: Record<string, string | string[]> = {}
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v
    headers['x-request-id'] = requestId
    headers['x-forwarded-for'] = req.socket.remoteAddress ?? 'unknown'
    headers['x-forwarded-host'] = req.headers.host ?? ''
    headers['x-forwarded-proto'] = 'http'
    const upstream = httpRequest(
      {
        agent,
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: path.slice(route.strip.length),
        headers,
        timeout: opts.timeoutMs ?? 600_000,
      },
      (up) => {
        const out: Record<string, string | string[]> = { ...opts.responseHeaders }
        for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v
        out['x-request-id'] = requestId
        res.writeHead(up.statusCode ?? 502, out)
        up.pipe(res)
        up.on('error', () => res.destroy())
      },
    )
    upstream.on('timeout', () => upstream.destroy(new Error('upstream timeout')))
    upstream.on('error', (err) => {
      opts.logger.warn('upstream unreachable', { upstream: route.upstream, requestId, err })
      fail(res, requestId, 503, 'The service is temporarily unavailable. Please try again.', 'upstream_unavailable')
    })
    req.on('aborted', () => upstream.destroy())
    req.pipe(upstream)
  }
}
