import { join } from 'node:path'
import type { Hono } from 'hono'
import type { MikroORM } from '@mikro-orm/postgresql'
import { z } from 'zod'
import {
  PlatformEnv,
  createInProcessBus,
  createLogger,
  createNatsBus,
  createTokenIssuer,
  createTokenVerifier,
  listen,
  trustedProxies,
  loadOrCreateSigningKey,
  openDatabase,
  parseEnv,
  serviceDatabaseUrl,
  startOutboxRelay,
  type AppEnv,
  type EventBus,
  type Logger,
  type OutboxRelay,
  closeOnSignal,
} from '@portal/server-kit'
import { createApp } from './app.ts'
import { createBackfillHandler, subscribeBackfillRequests } from './consumers/backfill.consumer.ts'
import { createBackgroundTasks } from './background.ts'
import { KnownDeviceEntity, PasswordResetTokenEntity, RefreshTokenEntity, VerificationCodeEntity, VerificationDecoyEntity } from './auth/auth.entity.ts'
import type { KdfParams } from './auth/password.ts'
import type { IdentityEnv } from './context.ts'
import { IdentitySettings, identitySettings } from './settings.ts'
import { UserGroupEntity } from './groups/group.entity.ts'
import { migrationsList } from './migrations/index.ts'
import { UserEntity } from './users/user.entity.ts'

export { seedDemoData, type DemoLogin, type SeedTarget } from './demo/demo-data.ts'
export type { IdentityEnv } from './context.ts'
export { IdentitySettings } from './settings.ts'

/** Every entity of identity's database. */
export const entities = [UserEntity, UserGroupEntity, VerificationCodeEntity, VerificationDecoyEntity, PasswordResetTokenEntity, RefreshTokenEntity, KnownDeviceEntity]

export interface IdentityDeps {
  env: IdentityEnv
  logger: Logger
  bus: EventBus
  port: number
  hostname?: string
  /** Password KDF cost (tests pass cheap values). */
  kdf?: KdfParams
}

export interface IdentityServer {
  port: number
  app: Hono<AppEnv>
  /** Where other services fetch the public keys (served by this process). */
  jwksUrl: string
  orm: MikroORM
  env: IdentityEnv
  relay: OutboxRelay
  kdf?: KdfParams
  close(): Promise<void>
}

/** Opens identity's database, loads the signing key, starts the outbox relay and serves the app. */
export async function start(deps: IdentityDeps): Promise<IdentityServer> {
  const { env, logger } = deps
  const db = await openDatabase({
    service: 'identity',
    url: env.DATABASE_URL ? serviceDatabaseUrl(env.DATABASE_URL, 'identity') : undefined,
    dataDir: env.DATA_DIR,
    entities,
    migrations: migrationsList,
    logger,
  })
  try {
    const key = await loadOrCreateSigningKey(join(env.DATA_DIR, 'identity', 'jwt-private.jwk'), env.JWT_PRIVATE_JWK)
    const opts = { issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE }
    const issuer = createTokenIssuer(key, { ...opts, ttlSeconds: identitySettings(env).ACCESS_TOKEN_TTL_SECONDS })
    const verifier = createTokenVerifier(issuer.jwks(), opts)
    const relay = startOutboxRelay({ orm: db.orm, bus: deps.bus, logger })
    // Projections started late ask for every user again (see consumers/backfill.consumer.ts).
    const backfill = await subscribeBackfillRequests(deps.bus, createBackfillHandler({ orm: db.orm, logger }))
    const background = createBackgroundTasks(logger)
    const app = createApp({ orm: db.orm, issuer, verifier, env, relay, logger, kdf: deps.kdf, background })
    const hostname = deps.hostname ?? '127.0.0.1'
    const server = await listen(app, deps.port, hostname, { trustedProxies: trustedProxies(env.TRUSTED_PROXIES) })
    relay.kick()
    logger.info('identity listening', { port: server.port })
    return {
      port: server.port,
      app,
      jwksUrl: `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${server.port}/auth/jwks.json`,
      orm: db.orm,
      env,
      relay,
      kdf: deps.kdf,
      async close() {
        await server.close()
        await backfill.stop()
        await background.settled()
        await relay.stop()
        await db.close()
      },
    }
  } catch (err) {
    await db.close()
    throw err
  }
}

/** Environment when run on its own: the platform's plus this service's port and key. */
export const IdentityProcessEnv = PlatformEnv.extend(IdentitySettings.shape).extend({
  IDENTITY_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  JWT_PRIVATE_JWK: z.string().optional().transform((v) => (v ? v : undefined)),
  /** Interface to listen on: loopback unless told (a container sets 0.0.0.0); the gateway is the way in. */
  HOST: z.string().default('127.0.0.1'),
})

if (import.meta.main) {
  const source = { ...process.env }
  const env = parseEnv(IdentityProcessEnv, source)
  const logger = createLogger('identity', env.LOG_LEVEL)
  const port = env.IDENTITY_PORT ?? (process.env.PORT ? env.PORT : 4001)
  if (Boolean(env.NATS_URL) !== Boolean(env.DATABASE_URL)) {
    logger.error('cluster mode needs both NATS_URL and DATABASE_URL (or neither for a standalone dev run)')
    process.exit(1)
  }
  const bus = env.NATS_URL ? await createNatsBus({ url: env.NATS_URL, logger }) : createInProcessBus({ logger })
  const server = await start({ env, logger, bus, port, hostname: env.HOST })
  closeOnSignal(logger, () => server.close(), () => bus.close())
}
