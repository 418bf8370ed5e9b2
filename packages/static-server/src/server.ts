#!/usr/bin/env node
/**
 * The server a remote deploys with (one process per remote in cluster mode and compose): its
 * build folder over HTTP, with health and metrics. `npm start -w mf-exams` serves `mf-exams/dist`.
 */
import { existsSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import { cors } from 'hono/cors'
import { z } from 'zod'
import { PlatformEnv, closeOnSignal, createLogger, createServiceApp, listen, parseEnv, type Logger } from '@portal/server-kit'
import { serveBuild } from './static.ts'

export interface StaticServerOptions {
  /** Name in logs, health and metrics (e.g. mf-exams). */
  name: string
  logger: Logger
  root: string
  previousRoots?: readonly string[]
  /**
   * Origins allowed to fetch the build (a portal that loads this remote from another origin:
   * `mf-manifest.json` is fetched with CORS); `*` for any. Empty: same origin only.
   */
  corsOrigins?: readonly string[]
}

/** The app: health, readiness and metrics as every service has them, then the build. */
export function createStaticServerApp(opts: StaticServerOptions) {
  const app = createServiceApp({ service: opts.name, logger: opts.logger })
  const crossOrigin = !!opts.corsOrigins?.length
  if (crossOrigin) {
    const origins = opts.corsOrigins!
    app.use('*', cors({ origin: origins.includes('*') ? '*' : [...origins], allowMethods: ['GET', 'HEAD'], maxAge: 600 }))
  }
  app.use('*', async (c, next) => {
    await next()
    c.header('X-Content-Type-Options', 'nosniff')
    // A portal on another origin loads these scripts (same-origin: the gateway sets its own policy).
    if (crossOrigin) c.header('Cross-Origin-Resource-Policy', 'cross-origin')
  })
  app.use('*', serveBuild({ root: opts.root, previousRoots: opts.previousRoots }))
  return app
}

const list = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )

const StaticEnv = PlatformEnv.pick({ PORT: true, LOG_LEVEL: true }).extend({
  HOST: z.string().default('0.0.0.0'),
  /** The build folder, relative to the working directory. */
  STATIC_DIR: z.string().default('dist'),
  /** Earlier builds (comma-separated) whose hashed chunks stay servable after a redeploy. */
  STATIC_PREVIOUS_DIRS: list,
  CORS_ORIGINS: list,
})

/** Starts the server from the environment (see .env.example). */
export async function start(source: Record<string, string | undefined> = process.env) {
  const env = parseEnv(StaticEnv, source)
  const root = resolve(env.STATIC_DIR)
  // mf-exams/dist serves as mf-exams.
  const name = basename(dirname(root))
  const logger = createLogger(name, env.LOG_LEVEL)
  if (!existsSync(root)) throw new Error(`No build at ${root}: run npm run build -w ${name}`)
  const app = createStaticServerApp({
    name,
    logger,
    root,
    previousRoots: env.STATIC_PREVIOUS_DIRS.map((d) => resolve(d)),
    corsOrigins: env.CORS_ORIGINS,
  })
  const server = await listen(app, env.PORT, env.HOST)
  logger.info('serving build', { root, port: server.port })
  return { logger, port: server.port, close: server.close }
}

if (import.meta.main) {
  const server = await start()
  closeOnSignal(server.logger, server.close)
}
