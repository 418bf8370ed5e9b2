import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { PlatformEnv, UPLOAD_REQUEST_TIMEOUT_MS, closeOnSignal, createLogger, createMetrics, parseEnv, startTracing, trustedProxies, type Logger } from '@portal/server-kit'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createGatewayHandler } from './app.ts'
import { createContentHandler, NO_EXTRA_ORIGINS, type ContentAllowList, type ContentSite } from './content.ts'
import { RemotesEnv, remotesFromEnv, type RemoteConfig } from './registry.ts'
import type { Upstream } from './routes.ts'
import { createUpstreamPools, upstreamList } from './upstreams.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** The shell's build, served by the gateway. */
const shellDir = `${root}shell/dist`
/** The content player (built by mf-learner, served on the content origin only). */
const playerDir = `${root}mf-learner/dist-player`

/** The content origin's listener (decision 0018). */
export interface ContentListener {
  port: number
  /** Default: the gateway's hostname. */
  hostname?: string
  /** Its public origin for the portal's first origin; default http://localhost:<its port>. */
  origin?: string
  /**
   * No CONTENT_ORIGIN: content is served on whichever of the portal's host names the portal was
   * opened by (default: when `origin` is not given).
   */
  perHost?: boolean
  /**
   * The portal's public origins (PORTAL_ORIGINS: who may frame content; the first is the address to
   * use); default its loopback names (loopbackOrigins).
   */
  portalOrigins?: readonly string[]
  allow?: ContentAllowList
}

export interface GatewayDeps {
  logger: Logger
  /** Each service's replicas: one URL, several (a list or comma-separated), balanced and checked (upstreams.ts). */
  upstreams: Record<Upstream, string | readonly string[]>
  port: number
  hostname?: string
  /** TRUSTED_PROXIES: reverse proxies in front of the gateway (default loopback). */
  trustedProxies?: string
  /** METRICS_TOKEN: opens /metrics; without it /metrics is not served. */
  metricsToken?: string
  content: ContentListener
  /** Where each remote comes from; default: its workspace's build folder, served by the gateway. */
  remotes?: RemoteConfig[]
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void

const listenOn = (server: Server, port: number, hostname: string) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, hostname, () => {
      server.off('error', reject)
      resolve((server.address() as { port: number }).port)
    })
  })

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]']

/** The portal's origins on loopback (single node, development): each loopback name of the port, localhost first. */
export const loopbackOrigins = (port: number, protocol = 'http:') => LOOPBACK_NAMES.map((h) => new URL(`${protocol}//${h}:${port}`).origin)

/** Starts the portal on `port` and the content origin on `content.port`. */
export async function start(deps: GatewayDeps) {
  const hostname = deps.hostname ?? '0.0.0.0'
  // Each listener's policy names the other's origin: the handlers are made once both ports are known.
  let portalHandler: Handler = (_req, res) => void res.writeHead(503).end()
  let contentHandler: Handler = portalHandler
  const remotes = deps.remotes ?? remotesFromEnv({}, root)
  // Course uploads stream through for up to 10 minutes: the request timeout must outlast them.
  const options = { keepAliveTimeout: 65_000, requestTimeout: UPLOAD_REQUEST_TIMEOUT_MS }
  const portal = createServer(options, (req, res) => portalHandler(req, res))
  const content = createServer(options, (req, res) => contentHandler(req, res))
  const port = await listenOn(portal, deps.port, hostname)
  let contentPort: number
  try {
    contentPort = await listenOn(content, deps.content.port, deps.content.hostname ?? hostname)
  } catch (err) {
    portal.close()
    throw err
  }
  const contentOrigin = deps.content.origin ?? `http://localhost:${contentPort}`
  const portalOrigins = deps.content.portalOrigins ?? loopbackOrigins(port)
  const perHost = deps.content.perHost ?? deps.content.origin === undefined
  // The portal's and the content origin's requests, and the process, on the portal's /metrics.
  const metrics = createMetrics('gateway')
  metrics.collectProcessMetrics()
  // One pool per service, shared by the portal's and the content origin's proxies (one set of checks).
  const upstreams = createUpstreamPools(deps.upstreams, { logger: deps.logger })
  const site: ContentSite = { portalOrigins, origin: contentOrigin, ...(perHost ? { port: contentPort } : {}) }
  portalHandler = createGatewayHandler({
    logger: deps.logger,
    upstreams: upstreams.pools,
    trustedProxies: trustedProxies(deps.trustedProxies ?? 'loopback'),
    metricsToken: deps.metricsToken,
    metrics,
    shellDir,
    remotes,
    content: site,
  })
  contentHandler = createContentHandler({
    logger: deps.logger.child({ origin: 'content' }),
    upstreams: upstreams.pools,
    playerDir,
    portalOrigins,
    allow: deps.content.allow,
    metrics,
  })
  const closeOne = (server: Server) =>
    new Promise<void>((r) => {
      server.close(() => r())
      server.closeAllConnections()
    })
  const close = async () => {
    upstreams.close()
    await Promise.all([closeOne(portal), closeOne(content)])
  }
  return { port, contentPort, contentOrigin, close }
}

/** `https://a.example, https://*.b.example`: origins (a wildcard host allowed) for the content allow-list. */
const originList = z
  .string()
  .optional()
  .transform((v) => (v ?? '').split(/[\s,]+/).filter(Boolean))
  .pipe(z.array(z.string().regex(/^https?:\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i, 'must list origins such as https://cdn.example.com')))

/** `http://localhost:8080, https://portal.example.com`: exact origins (the portal's addresses). */
const exactOriginList = z
  .string()
  .optional()
  .transform((v) => (v ?? '').split(/[\s,]+/).filter(Boolean))
  .pipe(z.array(z.string().regex(/^https?:\/\/([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(:\d{1,5})?\/?$/i, 'must list origins such as https://portal.example.com')))
  .transform((list) => list.map((o) => new URL(o).origin))

const optionalOrigin = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(z.url().optional())
  .transform((v) => (v ? new URL(v).origin : undefined))

/** The content origin's variables (the gateway process and the single-node launcher read them). */
export const ContentEnv = z.object({
  /** Port of the content origin's listener; default PORT + 1 (an empty value too, as .env.example has it). */
  CONTENT_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(65535).optional()),
  /** Public origin of course content, e.g. https://content.example.com; default the PUBLIC_URL's host (else localhost) on CONTENT_PORT. */
  CONTENT_ORIGIN: optionalOrigin,
  /**
   * Addresses the portal may be opened at besides PUBLIC_URL (content plays only there): default
   * its loopback names when PUBLIC_URL is on loopback or unset, else none.
   */
  PORTAL_ORIGINS: exactOriginList,
  CONTENT_ALLOW_SCRIPTS: originList,
  CONTENT_ALLOW_FRAMES: originList,
  CONTENT_ALLOW_CONNECT: originList,
})

/**
 * The content listener as the variables describe it. Its origin is left to `start` only when its
 * port is chosen at start (port 0).
 */
export function contentListenerOf(env: z.infer<typeof ContentEnv> & { PORT: number; PUBLIC_URL?: string }): ContentListener {
  const port = env.CONTENT_PORT ?? (env.PORT ? env.PORT + 1 : 0)
  const publicUrl = env.PUBLIC_URL ? new URL(env.PUBLIC_URL) : null
  const origin = env.CONTENT_ORIGIN ?? (port ? `${publicUrl?.protocol ?? 'http:'}//${publicUrl?.hostname ?? 'localhost'}:${port}` : undefined)
  const allow = { scripts: env.CONTENT_ALLOW_SCRIPTS, frames: env.CONTENT_ALLOW_FRAMES, connect: env.CONTENT_ALLOW_CONNECT }
  const portalOrigins = portalOriginsOf(env.PORT, publicUrl, env.PORTAL_ORIGINS)
  return {
    port,
    ...(origin ? { origin } : {}),
    perHost: !env.CONTENT_ORIGIN,
    ...(portalOrigins ? { portalOrigins } : {}),
    allow: allow.scripts.length || allow.frames.length || allow.connect.length ? allow : NO_EXTRA_ORIGINS,
  }
}

/**
 * The portal's origins: PUBLIC_URL's (default http://localhost:PORT) first, then PORTAL_ORIGINS,
 * or without it the other loopback names when the portal is on loopback. Unknown (left to `start`)
 * when neither PUBLIC_URL nor PORT names the portal.
 */
function portalOriginsOf(port: number, publicUrl: URL | null, listed: readonly string[]): string[] | undefined {
  const own = publicUrl ?? (port ? new URL(`http://localhost:${port}`) : null)
  if (!own) return listed.length ? [...listed] : undefined
  const onLoopback = LOOPBACK_NAMES.includes(own.hostname) || /^127\./.test(own.hostname)
  const others = listed.length ? listed : onLoopback ? loopbackOrigins(Number(own.port || (own.protocol === 'https:' ? 443 : 80)), own.protocol) : []
  return [...new Set([own.origin, ...others])]
}

/** A service's replicas: one URL or several, comma-separated (`http://10.0.0.5:4002,http://10.0.0.6:4002`). */
export const upstreamUrls = z
  .string()
  .transform((v) => upstreamList(v))
  .pipe(z.array(z.url()).min(1, 'must name at least one URL, or several comma-separated'))

const GatewayEnv = PlatformEnv.extend({
  HOST: z.string().default('0.0.0.0'),
  IDENTITY_URL: upstreamUrls.default(['http://127.0.0.1:4001']),
  LEARNING_URL: upstreamUrls.default(['http://127.0.0.1:4002']),
  CERTS_URL: upstreamUrls.default(['http://127.0.0.1:4003']),
  NOTIFY_URL: upstreamUrls.default(['http://127.0.0.1:4004']),
})
  .extend(ContentEnv.shape)
  .extend(RemotesEnv.shape)

if (import.meta.main) {
  const env = parseEnv(GatewayEnv)
  const logger = createLogger('gateway', env.LOG_LEVEL)
  const tracing = startTracing('gateway', env)
  const gw = await start({
    logger,
    port: env.PORT,
    hostname: env.HOST,
    trustedProxies: env.TRUSTED_PROXIES,
    metricsToken: env.METRICS_TOKEN,
    upstreams: { identity: env.IDENTITY_URL, learning: env.LEARNING_URL, certs: env.CERTS_URL, notify: env.NOTIFY_URL },
    content: contentListenerOf(env),
    remotes: remotesFromEnv(env, root),
  })
  logger.info('gateway listening', { port: gw.port, contentPort: gw.contentPort, contentOrigin: gw.contentOrigin })
  closeOnSignal(logger, gw.close, tracing.shutdown)
}
