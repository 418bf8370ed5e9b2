import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { Hono, type Context } from 'hono'
import { compress } from 'hono/compress'
import { getRequestListener } from '@hono/node-server'
import { serveStatic } from '@hono/node-server/serve-static'
import { CONTENT_PLAYER_PATH } from '@portal/contracts'
import { createMetrics, errorHandler, notFoundHandler, requestContext, type AppEnv, type Logger, type Metrics } from '@portal/server-kit'
import { createProxy, type UpstreamTimeouts } from './proxy.ts'
import { forwardTraced } from './proxy-span.ts'
import type { UpstreamTarget } from './upstreams.ts'
import { CONTENT_ROUTE_TABLE, resolveRoute, type Upstream } from './routes.ts'

/*
 * The content origin (decision "content-origin"): a listener of its own, on another port or host
 * name than the portal, so that course content — hostile until proven otherwise — never runs as the
 * portal. It serves only the package files, the commits the content player sends, and the player.
 */

/**
 * Where course content is served for each address of the portal. Content may be framed only by
 * the portal's origins (`PORTAL_ORIGINS`): opened at another address, the portal gets frames the
 * browser refuses, so the viewer says which address to use instead (decision 0018).
 */
export interface ContentSite {
  /** The addresses the portal may be opened at, the one to use first (PUBLIC_URL's origin). */
  portalOrigins: readonly string[]
  /** The content origin (CONTENT_ORIGIN, else the first portal origin's host on `port`). */
  origin: string
  /**
   * Without CONTENT_ORIGIN: the content listener's port, served on whichever of its host names the
   * portal was opened by (opened at http://127.0.0.1:8080, content is at http://127.0.0.1:8081).
   */
  port?: number
}

const onPort = (origin: string, port: number) => {
  const url = new URL(origin)
  url.port = String(port)
  return url.origin
}

/**
 * The content origin for a request to the portal with this `Host`: on the same host name when the
 * content origin follows it (no CONTENT_ORIGIN) and the host is one of the portal's origins;
 * otherwise the configured one.
 */
export function contentOriginFor(site: ContentSite, host: string | undefined): string {
  if (site.port === undefined || !host) return site.origin
  const wanted = host.toLowerCase()
  const portal = site.portalOrigins.find((o) => new URL(o).host === wanted)
  return portal ? onPort(portal, site.port) : site.origin
}

/** Every content origin of the site (one per portal origin when it follows the host name): what the portal may frame and play. */
export const contentOrigins = (site: ContentSite): string[] => [...new Set([site.origin, ...(site.port === undefined ? [] : site.portalOrigins.map((o) => onPort(o, site.port!)))])]

/** Origins beyond its own that content may use (none by default): CDNs, embedded players, an xAPI LRS. */
export interface ContentAllowList {
  /** Scripts, styles, fonts and images (e.g. https://ajax.googleapis.com for jQuery). */
  scripts: readonly string[]
  /** Frames (e.g. https://www.youtube-nocookie.com for embedded videos). */
  frames: readonly string[]
  /** Requests by fetch, XHR, beacon and WebSocket (e.g. an xAPI LRS). */
  connect: readonly string[]
}

export const NO_EXTRA_ORIGINS: ContentAllowList = { scripts: [], frames: [], connect: [] }

const list = (...parts: (string | readonly string[])[]) => parts.flat().join(' ')

/**
 * The policy of package files: they run as authored (inline scripts, eval) but only from and
 * towards their own origin and the allow-list; only the player and the portal may frame them;
 * no plugins; forms post nowhere else.
 */
export function contentPolicy(portalOrigins: readonly string[], allow: ContentAllowList = NO_EXTRA_ORIGINS): string {
  return [
    "default-src 'self'",
    `script-src ${list("'self' 'unsafe-inline' 'unsafe-eval'", allow.scripts)}`,
    `style-src ${list("'self' 'unsafe-inline'", allow.scripts)}`,
    `img-src ${list("'self' data: blob:", allow.scripts)}`,
    `font-src ${list("'self' data:", allow.scripts)}`,
    "media-src 'self' data: blob:",
    `connect-src ${list("'self'", allow.connect)}`,
    `frame-src ${list("'self' blob:", allow.frames)}`,
    "worker-src 'self' blob:",
    `frame-ancestors ${list("'self'", portalOrigins)}`,
    "object-src 'none'",
    "form-action 'self'",
    "base-uri 'self'",
  ].join('; ')
}

/** The policy of the player page: its own scripts, the package's frames, commits to its own origin; framed by the portal only. */
export function playerPolicy(portalOrigins: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "frame-src 'self'",
    `frame-ancestors ${list(portalOrigins)}`,
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
  ].join('; ')
}

/** Sent with every answer of the content origin (each path adds its policy). */
const BASE_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-dns-prefetch-control': 'off',
  'strict-transport-security': 'max-age=15552000; includeSubDomains',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
}

/** Anything else the content origin answers (errors, commit answers): nothing to run, nobody may frame it. */
const NOTHING_POLICY = "default-src 'none'; frame-ancestors 'none'"

export interface ContentOriginOptions {
  logger: Logger
  /** Each service's replicas (see upstreams.ts); learning's serve the content origin. */
  upstreams: Record<Upstream, UpstreamTarget>
  /** The content player's build (`index.html` and `assets/`). */
  playerDir: string
  /** Origins of the portal: the only ones that may frame the player and the content. */
  portalOrigins: readonly string[]
  allow?: ContentAllowList
  /** Where its requests are counted (the started gateway's, served on the portal's /metrics); default: new ones. */
  metrics?: Metrics
  /** How long learning is waited for (default: the proxy's; files stream on under its idle limit). */
  timeouts?: Partial<UpstreamTimeouts>
}

const META = '<meta name="portal-origins" content="">'
const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

/** The player and its assets, with the portal's origins written into the page (the player accepts its viewer from those only). */
function createContentApp(opts: ContentOriginOptions) {
  const app = new Hono<AppEnv>()
  const player = playerPolicy(opts.portalOrigins)
  app.use(requestContext(opts.logger, opts.metrics ?? createMetrics('gateway-content')))
  app.use(async (c, next) => {
    await next()
    for (const [k, v] of Object.entries(BASE_HEADERS)) c.res.headers.set(k, v)
    c.res.headers.set('content-security-policy', c.req.path.startsWith(CONTENT_PLAYER_PATH) && c.res.ok ? player : NOTHING_POLICY)
  })
  app.onError(errorHandler(opts.logger))
  app.get('/healthz', (c) => c.json({ status: 'ok' }))

  const indexFile = join(opts.playerDir, 'index.html')
  const origins = `<meta name="portal-origins" content="${escapeAttr(opts.portalOrigins.join(' '))}">`
  // Read each time, as the shell's page is: a rebuilt player is served at once.
  const playerPage = async (c: Context<AppEnv>) => {
    if (!existsSync(indexFile)) return c.text('The content player has not been built: run npm run build', 503)
    const html = await readFile(indexFile, 'utf8')
    if (!html.includes(META)) throw new Error(`${indexFile} has no ${META}`)
    c.header('Cache-Control', 'no-cache')
    return c.html(html.replace(META, origins))
  }
  app.get(CONTENT_PLAYER_PATH, playerPage)
  app.get(`${CONTENT_PLAYER_PATH}index.html`, playerPage)
  app.use(`${CONTENT_PLAYER_PATH}assets/*`, compress())
  app.use(
    `${CONTENT_PLAYER_PATH}assets/*`,
    serveStatic({
      root: opts.playerDir,
      rewriteRequestPath: (p) => p.slice(CONTENT_PLAYER_PATH.length - 1),
      onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable'),
    }),
  )
  app.notFound(notFoundHandler)
  return app
}

/**
 * The content origin as a Node request listener: package files and commits are streamed to
 * learning with the content's policy; the player is served from its build; everything else —
 * the portal's API above all — is not found here.
 */
export function createContentHandler(opts: ContentOriginOptions) {
  const app = createContentApp(opts)
  const toApp = getRequestListener(app.fetch)
  const files = createProxy({
    logger: opts.logger,
    upstreams: opts.upstreams,
    // media of file modules play in the portal's own page (a cross-origin media element)
    responseHeaders: { ...BASE_HEADERS, 'content-security-policy': contentPolicy(opts.portalOrigins, opts.allow), 'cross-origin-resource-policy': 'cross-origin' },
    timeouts: opts.timeouts,
  })
  const commits = createProxy({
    logger: opts.logger,
    upstreams: opts.upstreams,
    responseHeaders: { ...BASE_HEADERS, 'content-security-policy': NOTHING_POLICY },
    timeouts: opts.timeouts,
  })
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/'
    const q = url.indexOf('?')
    const path = q === -1 ? url : url.slice(0, q)
    const route = path.startsWith('/api/') ? resolveRoute(path, CONTENT_ROUTE_TABLE) : undefined
    if (route?.prefix === '/api/content') return forwardTraced(req, res, route.prefix, route.upstream, () => files(req, res, route, url))
    if (route) return forwardTraced(req, res, route.prefix, route.upstream, () => commits(req, res, route, url))
    return toApp(req, res)
  }
}
