import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Hono, type Context } from 'hono'
import { compress } from 'hono/compress'
import { secureHeaders } from 'hono/secure-headers'
import { serveStatic } from '@hono/node-server/serve-static'
import type { RemoteRegistry } from '@portal/contracts'
import { errorHandler, notFoundHandler, requestContext, type AppEnv, type Logger, createMetrics } from '@portal/server-kit'
import { ROUTE_TABLE, resolveRoute, type RouteEntry, type Upstream } from './routes.ts'

export interface RemoteConfig {
  /** Module Federation name, e.g. mf_learner. */
  name: string
  /** Folder of its production build, served under `/remotes/<name with dashes>/`. */
  dir: string
  /** Public URL of the build; defaults to this gateway's `/remotes/<folder>/`. */
  publicBase?: string
}

export interface GatewayOptions {
  logger: Logger
  upstreams: Record<Upstream, string>
  shellDir: string
  remotes: RemoteConfig[]
  routes?: readonly RouteEntry[]
  /** Upstream request timeout. */
  timeoutMs?: number
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authorization', 'proxy-authenticate', 'host']

const folderOf = (r: RemoteConfig) => r.name.replace(/_/g, '-')

/** The gateway: one route table to the services, the shell and remotes, a remote registry. */
export function createGateway(opts: GatewayOptions) {
  const routes = opts.routes ?? ROUTE_TABLE
  const metrics = createMetrics('gateway')
  const app = new Hono<AppEnv>()
  app.use(requestContext(opts.logger, metrics))
  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", 'blob:'],
        frameAncestors: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
      // Same-origin frames are allowed: course content plays in frames of the portal itself.
      xFrameOptions: 'SAMEORIGIN',
      referrerPolicy: 'same-origin',
      crossOriginEmbedderPolicy: false,
      crossOriginResourcePolicy: 'same-origin',
      permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
    }),
  )
  app.onError(errorHandler(opts.logger))

  app.get('/healthz', async (c) => {
    const checks = await Promise.all(
      Object.entries(opts.upstreams).map(async ([name, base]) => {
        try {
          const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2_000) })
          return [name, res.ok ? 'ok' : `status ${res.status}`] as const
        } catch {
          return [name, 'unreachable'] as const
        }
      }),
    )
    const ok = checks.every(([, s]) => s === 'ok')
    return c.json({ status: ok ? 'ok' : 'degraded', services: Object.fromEntries(checks) }, ok ? 200 : 503)
  })
  app.get('/metrics', (c) => c.text(metrics.render()))

  const registry: RemoteRegistry = {
    remotes: Object.fromEntries(
      opts.remotes.map((r) => [r.name, { entry: `${r.publicBase ?? `/remotes/${folderOf(r)}/`}mf-manifest.json` }]),
    ),
  }
  app.get('/remote-registry.json', (c) => {
    c.header('Cache-Control', 'no-cache')
    return c.json(registry)
  })

  const forward = async (c: Context<AppEnv>, route: RouteEntry) => {
    const url = new URL(c.req.url)
    const target = `${opts.upstreams[route.upstream]}${url.pathname.slice(route.strip.length)}${url.search}`
    const headers = new Headers(c.req.raw.headers)
    for (const h of HOP_BY_HOP) headers.delete(h)
    headers.set('x-request-id', c.get('requestId'))
    const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined
    const peer = env?.incoming?.socket?.remoteAddress
    headers.set('x-forwarded-for', peer ?? 'unknown')
    headers.set('x-forwarded-host', url.host)
    headers.set('x-forwarded-proto', url.protocol.replace(':', ''))
    const hasBody = c.req.method !== 'GET' && c.req.method !== 'HEAD'
    let res: Response
    try {
      res = await fetch(target, {
        method: c.req.method,
        headers,
        body: hasBody ? c.req.raw.body : undefined,
        redirect: 'manual',
        signal: AbortSignal.timeout(opts.timeoutMs ?? 600_000),
        ...(hasBody ? { duplex: 'half' } : {}),
      } as RequestInit)
    } catch (err) {
      opts.logger.warn('upstream unreachable', { upstream: route.upstream, requestId: c.get('requestId'), err: err as Error })
      return c.json({ message: 'The service is temporarily unavailable. Please try again.', code: 'upstream_unavailable' }, 503)
    }
    const out = new Headers(res.headers)
    for (const h of HOP_BY_HOP) out.delete(h)
    out.delete('content-encoding')
    out.delete('content-length')
    out.set('x-request-id', c.get('requestId'))
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers: out })
  }

  app.all('*', async (c, next) => {
    const route = resolveRoute(c.req.path, routes)
    if (route) return forward(c, route)
    if (c.req.path === '/api' || c.req.path.startsWith('/api/')) return notFoundHandler(c)
    await next()
  })

  // Static builds are compressed (API answers pass through as the services sent them).
  app.use('*', compress())
  // Static builds: hashed files are immutable; entry documents are revalidated.
  const cacheHeaders = (path: string, c: Context) => {
    const immutable = /\.[0-9a-f]{8,}\.(js|css|woff2?|png|svg|jpg)$/.test(path)
    c.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
  }
  for (const r of opts.remotes) {
    const base = `/remotes/${folderOf(r)}`
    app.use(
      `${base}/*`,
      serveStatic({ root: r.dir, rewriteRequestPath: (p) => p.slice(base.length), onFound: cacheHeaders }),
    )
    app.all(`${base}/*`, (c) => c.json({ message: 'Not found', code: 'not_found' }, 404))
  }
  app.use('/*', serveStatic({ root: opts.shellDir, onFound: cacheHeaders }))
  const indexFile = join(opts.shellDir, 'index.html')
  app.get('*', async (c) => {
    if (!existsSync(indexFile)) return c.text('The shell has not been built: run npm run build', 503)
    // Client-side routes (e.g. /user-dashboard) get the shell's page.
    if (/\.[a-z0-9]{1,8}$/i.test(c.req.path)) return notFoundHandler(c)
    c.header('Cache-Control', 'no-cache')
    const { readFile } = await import('node:fs/promises')
    return c.html(await readFile(indexFile, 'utf8'))
  })
  app.notFound(notFoundHandler)
  return app
}

export { ROUTE_TABLE, resolveRoute }
