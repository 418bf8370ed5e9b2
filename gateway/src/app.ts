import { join } from 'node:path'
import { Hono } from 'hono'
import { compress } from 'hono/compress'
import { getRequestListener } from '@hono/node-server'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { timingSafeEqual } from 'node:crypto'
import { errorHandler, notFoundHandler, requestContext, type AppEnv, type Logger, createMetrics, type Metrics, type TrustedProxies } from '@portal/server-kit'
import { sendFile, serveBuild } from '@portal/static-server'
import { apiDocsRoutes } from './api-docs.ts'
import { contentOriginFor, contentOrigins, type ContentSite } from './content.ts'
import { createProxy, type UpstreamTimeouts } from './proxy.ts'
import { forwardTraced } from './proxy-span.ts'
import { allowRemoteOrigins, manifestPreloads, registryOf, remotePath, resolveRemote, type RemoteConfig } from './registry.ts'
import { ROUTE_TABLE, resolvePortalRoute, resolveRoute, type RouteEntry, type Upstream } from './routes.ts'
import { isPool, upstreamList, type UpstreamTarget } from './upstreams.ts'

export type { RemoteConfig }

export interface GatewayOptions {
  logger: Logger
  /** Each service's replicas: a URL, a comma-separated list, or a pool (see upstreams.ts). */
  upstreams: Record<Upstream, UpstreamTarget>
  shellDir: string
  remotes: RemoteConfig[]
  routes?: readonly RouteEntry[]
  /** How long services are waited for (default: 30 s for API calls, 11 min for uploads). */
  timeouts?: Partial<UpstreamTimeouts>
  /** Reverse proxies in front of the gateway whose X-Forwarded-For names the client (default loopback). */
  trustedProxies?: TrustedProxies
  /** Bearer token that opens /metrics; without one /metrics is not served (METRICS_TOKEN). */
  metricsToken?: string
  /** Where requests are counted and what /metrics serves (the started gateway's has the process metrics); default: new ones. */
  metrics?: Metrics
  /** Where course content is served (see content.ts): the portal may frame it and play its media. */
  content?: ContentSite
}

/**
 * Sent with every answer of the portal. Course content plays in frames of the content origin
 * (decision "content-origin"): only its origins (one per address of the portal when it follows
 * the host name) may be framed, and they serve the media of file modules.
 */
export function securityHeaders(contentOrigins: readonly string[] = []): Record<string, string> {
  const content = contentOrigins.map((o) => ` ${o}`).join('')
  return {
    'content-security-policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      `media-src 'self' blob:${content}`,
      "font-src 'self' data:",
      "connect-src 'self'",
      `frame-src 'self' blob:${content}`,
      "frame-ancestors 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ].join('; '),
    'x-frame-options': 'SAMEORIGIN',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'cross-origin-opener-policy': 'same-origin',
    'strict-transport-security': 'max-age=15552000; includeSubDomains',
    'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  }
}

/** The portal's headers without a content origin. */
export const SECURITY_HEADERS = securityHeaders()

/** The gateway: one route table to the services, the shell and remotes, a remote registry. */
export function createGateway(opts: GatewayOptions) {
  const metrics = opts.metrics ?? createMetrics('gateway')
  const headers = allowRemoteOrigins(securityHeaders(opts.content ? contentOrigins(opts.content) : []), opts.remotes)
  const app = new Hono<AppEnv>()
  app.use(requestContext(opts.logger, metrics))
  app.use(async (c, next) => {
    await next()
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v)
  })
  app.onError(errorHandler(opts.logger))

  const healthOf = async (base: string) => {
    try {
      const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2_000) })
      await res.body?.cancel()
      return res.ok ? 'ok' : `status ${res.status}`
    } catch {
      return 'unreachable'
    }
  }
  // A service is up when one of its replicas is; each replica is listed when there are several.
  app.get('/healthz', async (c) => {
    const checks = await Promise.all(
      Object.entries<UpstreamTarget>(opts.upstreams).map(async ([name, target]) => {
        const bases = isPool(target) ? target.replicas.map((r) => r.base) : upstreamList(target)
        const each = await Promise.all(bases.map(async (base) => [base, await healthOf(base)] as const))
        return [name, each.find(([, s]) => s === 'ok')?.[1] ?? each[0]![1], each] as const
      }),
    )
    const ok = checks.every(([, s]) => s === 'ok')
    const replicas = Object.fromEntries(checks.filter(([, , each]) => each.length > 1).map(([name, , each]) => [name, Object.fromEntries(each)]))
    const services = Object.fromEntries(checks.map(([name, s]) => [name, s]))
    return c.json({ status: ok ? 'ok' : 'degraded', services, ...(Object.keys(replicas).length ? { replicas } : {}) }, ok ? 200 : 503)
  })
  // Request counts and timings are not for the public: only a scraper holding the token reads them.
  const token = opts.metricsToken ? Buffer.from(`Bearer ${opts.metricsToken}`) : undefined
  app.get('/metrics', async (c) => {
    if (!token) return notFoundHandler(c)
    const given = Buffer.from(c.req.header('authorization') ?? '')
    if (given.length !== token.length || !timingSafeEqual(given, token)) {
      c.header('WWW-Authenticate', 'Bearer')
      return c.json({ message: 'Authentication required', code: 'unauthorized' }, 401)
    }
    return c.body(await metrics.render(), 200, { 'Content-Type': metrics.contentType })
  })

  const registry = registryOf(opts.remotes)
  const site = opts.content
  // With where course content plays for the address the portal was opened at (its Host).
  app.get('/remote-registry.json', (c) => {
    c.header('Cache-Control', 'no-cache')
    if (!site) return c.json(registry)
    return c.json({ ...registry, content: { origin: contentOriginFor(site, c.req.header('host')), portalOrigins: site.portalOrigins } })
  })

  // The API explorer over the services' OpenAPI documents (served from the portal, nothing from outside).
  app.route('/api/docs', apiDocsRoutes())

  // Routed API paths never reach this app (see createGatewayHandler); the rest of /api is unknown
  // (course content and SCORM commits among them: they are served on the content origin only).
  app.all('/api/*', notFoundHandler)
  app.all('/api', notFoundHandler)

  // Small answers of the app are compressed; static files come compressed (API answers pass
  // through as the services sent them).
  app.use('*', compress())
  // Static builds (@portal/static-server): hashed files are immutable, entry files revalidated by ETag.
  for (const r of opts.remotes) {
    if (!r.dir) continue // proxied to the remote's own server, or loaded from its own origin
    const base = remotePath(r.name)
    app.use(`${base}/*`, serveBuild({ root: r.dir, prefix: base }))
  }
  app.all('/remotes/*', (c) => c.json({ message: 'Not found', code: 'not_found' }, 404))
  app.use('/*', serveBuild({ root: opts.shellDir }))
  const indexFile = join(opts.shellDir, 'index.html')
  // The remotes' manifests come with the page's first scripts (see manifestPreloads).
  const withPreloads = manifestPreloads(registry)
  app.get('*', async (c) => {
    // Client-side routes (e.g. /user-dashboard) get the shell's page.
    if (/\.[a-z0-9]{1,8}$/i.test(c.req.path)) return notFoundHandler(c)
    return (await sendFile(c, indexFile, 'no-cache', withPreloads)) ?? c.text('The shell has not been built: run npm run build', 503)
  })
  app.notFound(notFoundHandler)
  return app
}

/** A path segment of dots (`..`, `%2e%2e`, `.`) or a backslash: what URL parsers resolve away. */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)|\\/i

/**
 * The URL as the services' own URL parser reads it (`/api/users/../metrics` is `/api/metrics`):
 * routing and forwarding use that, so a path cannot reach a service outside the route table (its
 * /metrics, /readyz) or another service than the one routed to.
 */
export function resolveDotSegments(url: string): string {
  const q = url.indexOf('?')
  if (!DOT_SEGMENT.test(q === -1 ? url : url.slice(0, q))) return url
  const parsed = new URL(url, 'http://gateway')
  return parsed.pathname + parsed.search
}

/**
 * The gateway as a Node request listener: routed API calls are streamed to their service by the
 * proxy; everything else (static builds, registry, health, unknown /api paths) goes to the app.
 */
export function createGatewayHandler(opts: GatewayOptions) {
  const routes = opts.routes ?? ROUTE_TABLE
  const app = createGateway(opts)
  const toApp = getRequestListener(app.fetch)
  // The remotes with a server of their own are upstreams too (`/remotes/<folder>/` is theirs).
  const remoteUpstreams = Object.fromEntries(opts.remotes.flatMap((r) => (r.url ? [[r.name, r.url]] : [])))
  const proxy = createProxy({
    logger: opts.logger,
    upstreams: { ...opts.upstreams, ...remoteUpstreams },
    responseHeaders: allowRemoteOrigins(securityHeaders(opts.content ? contentOrigins(opts.content) : []), opts.remotes),
    timeouts: opts.timeouts,
    trustedProxies: opts.trustedProxies,
  })
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = resolveDotSegments(req.url ?? '/')
    const q = url.indexOf('?')
    const path = q === -1 ? url : url.slice(0, q)
    // Course content and SCORM commits are the content origin's: not found here.
    const route = path.startsWith('/api/') || path.startsWith('/mailbox') ? resolvePortalRoute(path, routes, req.method) : undefined
    if (route) return forwardTraced(req, res, route.prefix, route.upstream, () => proxy(req, res, route, url))
    const remote = resolveRemote(opts.remotes, url)
    if (remote) return forwardTraced(req, res, remotePath(remote.name), remote.name, () => proxy(req, res, { upstream: remote.name, strip: '' }, remote.path))
    return toApp(req, res)
  }
}

export { ROUTE_TABLE, resolveRoute }
