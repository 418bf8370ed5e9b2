import { join } from 'node:path'
import { z } from 'zod'
import {
  PlatformEnv,
  createLogger,
  createTokenIssuer,
  defineService,
  loadOrCreateSigningKey,
  loadServiceSecretBox,
  parseEnv,
  runServiceProcess,
  stoppedWithJobs,
  type ServeOptions,
  type ServiceDeps,
  type TokenIssuer,
} from '@portal/server-kit'
import { createApp } from './app.ts'
import { resealClientSecrets } from './sign-in/index.ts'
import { createBackfillHandler, subscribeBackfillRequests } from './consumers/index.ts'
import { createBackgroundTasks } from './background.ts'
import {
  KnownDeviceEntity,
  PasswordResetTokenEntity,
  RefreshTokenEntity,
  VerificationCodeEntity,
  VerificationDecoyEntity,
  type KdfParams,
  type PasswordHasher,
} from './auth/index.ts'
import type { IdentityEnv } from './context.ts'
import { IdentitySettings, identitySettings } from './settings.ts'
import { UserGroupEntity } from './groups/index.ts'
import { migrationsList } from './migrations/index.ts'
import { UserEntity } from './users/index.ts'

export { seedDemoData, type DemoLogin, type SeedTarget } from './demo/index.ts'
export type { IdentityEnv } from './context.ts'
export { IdentitySettings } from './settings.ts'

/** Every entity of identity's database. */
export const entities = [UserEntity, UserGroupEntity, VerificationCodeEntity, VerificationDecoyEntity, PasswordResetTokenEntity, RefreshTokenEntity, KnownDeviceEntity]

/** What identity adds to the platform's parts: its token issuer and the tuning tests use. */
export interface IdentityOptions {
  issuer: TokenIssuer
  /** Password KDF cost (tests pass cheap values). */
  kdf?: KdfParams
  /** The password KDF itself (tests count or slow its calls). */
  hasher?: PasswordHasher
  /** How long a user's auth version is remembered between token checks (default 1 s; tests 0). */
  tokenCheckTtlMs?: number
}

/** Identity: auth, users and groups, and the answer to other services' requests for every user. */
export const identityService = defineService({
  name: 'identity',
  entities,
  migrations: migrationsList,
  async features(ctx, deps: ServiceDeps<IdentityEnv> & IdentityOptions) {
    const background = createBackgroundTasks(ctx.logger)
    const { orm, verifier, env, relay, logger, clock } = ctx
    // Stored secrets sealed under SECRETS_KEY (or the key file); one stored plain or under a previous key is sealed again now.
    const secrets = await loadServiceSecretBox(env, 'identity')
    await resealClientSecrets(orm, secrets, logger)
    const app = createApp({
      orm,
      verifier,
      env,
      relay,
      logger,
      clock,
      issuer: deps.issuer,
      kdf: deps.kdf,
      hasher: deps.hasher,
      background,
      tokenCheckTtlMs: deps.tokenCheckTtlMs,
      secrets,
    })
    return {
      app,
      // Projections started late ask for every user again (see consumers/backfill.consumer.ts).
      consumers: [(bus) => subscribeBackfillRequests(bus, createBackfillHandler(ctx))],
      // Work requests left running (a reset link, say) finishes before the relay stops.
      jobs: [stoppedWithJobs(() => background.settled())],
      parts: { env: ctx.env, issuer: deps.issuer, verifier: ctx.verifier, background, kdf: deps.kdf, secrets },
    }
  },
})

export interface IdentityDeps extends Omit<ServiceDeps<IdentityEnv>, 'jwks'>, Omit<IdentityOptions, 'issuer'>, ServeOptions {}

export type IdentityServer = Awaited<ReturnType<typeof start>>

/** Loads identity's signing key (DATA_DIR, or JWT_PRIVATE_JWK) and starts the service with it. */
export async function start(deps: IdentityDeps) {
  const { env } = deps
  const key = await loadOrCreateSigningKey(join(env.DATA_DIR, 'identity', 'jwt-private.jwk'), env.JWT_PRIVATE_JWK)
  const issuer = createTokenIssuer(key, { issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE, ttlSeconds: identitySettings(env).ACCESS_TOKEN_TTL_SECONDS })
  const server = await identityService.start({ ...deps, issuer, jwks: issuer.jwks() })
  const hostname = deps.hostname ?? '127.0.0.1'
  /** Where other services fetch the public keys (served by this process). */
  const jwksUrl = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${server.port}/auth/jwks.json`
  return { ...server, jwksUrl }
}

/** Environment when run on its own: the platform's plus this service's port and key. */
export const IdentityProcessEnv = PlatformEnv.extend(IdentitySettings.shape).extend({
  IDENTITY_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  JWT_PRIVATE_JWK: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  /** Interface to listen on: loopback unless told (a container sets 0.0.0.0); the gateway is the way in. */
  HOST: z.string().default('127.0.0.1'),
})

if (import.meta.main) {
  const env = parseEnv(IdentityProcessEnv, { ...process.env })
  const port = env.IDENTITY_PORT ?? (process.env.PORT ? env.PORT : 4001)
  if (Boolean(env.NATS_URL) !== Boolean(env.DATABASE_URL)) {
    createLogger('identity', env.LOG_LEVEL).error('cluster mode needs both NATS_URL and DATABASE_URL (or neither for a standalone dev run)')
    process.exit(1)
  }
  await runServiceProcess('identity', env, ({ logger, bus }) => start({ env, logger, bus, port, hostname: env.HOST }))
}
