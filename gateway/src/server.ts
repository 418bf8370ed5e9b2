import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { PlatformEnv, UPLOAD_REQUEST_TIMEOUT_MS, closeOnSignal, createLogger, parseEnv, trustedProxies, type Logger } from '@portal/server-kit'
import { createServer } from 'node:http'
import { createGatewayHandler } from './app.ts'
import type { Upstream } from './routes.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** Where the static builds live (the workspaces' dist folders by default). */
export const defaultStatic = {
  shellDir: `${root}shell/dist`,
  remotes: [
    { name: 'mf_learner', dir: `${root}mf-learner/dist` },
    { name: 'mf_exams', dir: `${root}mf-exams/dist` },
    { name: 'mf_admin', dir: `${root}mf-admin/dist` },
    { name: 'mf_certifications', dir: `${root}mf-certifications/dist` },
  ],
}

export interface GatewayDeps {
  logger: Logger
  upstreams: Record<Upstream, string>
  port: number
  hostname?: string
  /** TRUSTED_PROXIES: reverse proxies in front of the gateway (default loopback). */
  trustedProxies?: string
  /** METRICS_TOKEN: opens /metrics; without it /metrics is not served. */
  metricsToken?: string
}

/** Starts the gateway on `port`. */
export async function start(deps: GatewayDeps) {
  const handler = createGatewayHandler({
    logger: deps.logger,
    upstreams: deps.upstreams,
    trustedProxies: trustedProxies(deps.trustedProxies ?? 'loopback'),
    metricsToken: deps.metricsToken,
    ...defaultStatic,
  })
  // Course uploads stream through for up to 10 minutes: the request timeout must outlast them.
  const server = createServer({ keepAliveTimeout: 65_000, requestTimeout: UPLOAD_REQUEST_TIMEOUT_MS }, handler)
  await new Promise<void>((r) => server.listen(deps.port, deps.hostname ?? '0.0.0.0', r))
  const port = (server.address() as { port: number }).port
  const close = () =>
    new Promise<void>((r) => {
      server.close(() => r())
      server.closeAllConnections()
    })
  return { port, close }
}

const GatewayEnv = PlatformEnv.extend({
  HOST: z.string().default('0.0.0.0'),
  IDENTITY_URL: z.url().default('http://127.0.0.1:4001'),
  LEARNING_URL: z.url().default('http://127.0.0.1:4002'),
  CERTS_URL: z.url().default('http://127.0.0.1:4003'),
  NOTIFY_URL: z.url().default('http://127.0.0.1:4004'),
})

if (import.meta.main) {
  const env = parseEnv(GatewayEnv)
  const logger = createLogger('gateway', env.LOG_LEVEL)
  const gw = await start({
    logger,
    port: env.PORT,
    hostname: env.HOST,
    trustedProxies: env.TRUSTED_PROXIES,
    metricsToken: env.METRICS_TOKEN,
    upstreams: {
      identity: env.IDENTITY_URL.replace(/\/$/, ''),
      learning: env.LEARNING_URL.replace(/\/$/, ''),
      certs: env.CERTS_URL.replace(/\/$/, ''),
      notify: env.NOTIFY_URL.replace(/\/$/, ''),
    },
  })
  logger.info('gateway listening', { port: gw.port })
  closeOnSignal(logger, gw.close)
}
