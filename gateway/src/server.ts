import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { PlatformEnv, UPLOAD_REQUEST_TIMEOUT_MS, closeOnSignal, createLogger, parseEnv, type Logger } from '@portal/server-kit'
import { createServer } from 'node:http'
import { createGatewayHandler } from './app.ts'
import { RemotesEnv, remotesFromEnv, type RemoteConfig } from './registry.ts'
import type { Upstream } from './routes.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** The shell's build, served by the gateway. */
const shellDir = `${root}shell/dist`

export interface GatewayDeps {
  logger: Logger
  upstreams: Record<Upstream, string>
  port: number
  hostname?: string
  /** Where each remote comes from; default: its workspace's build folder, served by the gateway. */
  remotes?: RemoteConfig[]
}

/** Starts the gateway on `port`. */
export async function start(deps: GatewayDeps) {
  const remotes = deps.remotes ?? remotesFromEnv({}, root)
  const handler = createGatewayHandler({ logger: deps.logger, upstreams: deps.upstreams, shellDir, remotes })
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
  NOTIFY_URL: z.url().default('http://127.0.0.1:4004'),
}).extend(RemotesEnv.shape)

if (import.meta.main) {
  const env = parseEnv(GatewayEnv)
  const logger = createLogger('gateway', env.LOG_LEVEL)
  const gw = await start({
    logger,
    port: env.PORT,
    hostname: env.HOST,
    upstreams: {
      identity: env.IDENTITY_URL.replace(/\/$/, ''),
      learning: env.LEARNING_URL.replace(/\/$/, ''),
      notify: env.NOTIFY_URL.replace(/\/$/, ''),
    },
    remotes: remotesFromEnv(env, root),
  })
  logger.info('gateway listening', { port: gw.port })
  closeOnSignal(logger, gw.close)
}
