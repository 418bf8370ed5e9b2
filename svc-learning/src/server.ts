import type { Hono } from 'hono'
import type { MikroORM } from '@mikro-orm/postgresql'
import { z } from 'zod'
import {
  PlatformEnv,
  createLogger,
  createNatsBus,
  createTokenVerifier,
  listen,
  trustedProxies,
  openDatabase,
  parseEnv,
  serviceDatabaseUrl,
  startOutboxRelay,
  type AppEnv,
  type EventBus,
  type KeySource,
  type Logger,
  type OutboxRelay,
  type Storage,
  ProjectedUser,
  closeOnSignal,
  openStorage,
  storageDirVariable,
} from '@portal/server-kit'
import { createApp } from './app.ts'
import type { CourseService } from './courses/course.service.ts'
import { ExamAttemptEntity } from './exams/attempts/attempt.entity.ts'
import { startAttemptSweeper } from './exams/attempts/attempt.service.ts'
import { createLearningUsers } from './consumers/identity.consumer.ts'
import { CourseAssignmentEntity, CourseEntity, CourseModuleEntity } from './courses/course.entity.ts'
import { ExamAssignmentEntity, ExamEntity, ExamQuestionEntity } from './exams/exam.entity.ts'
import { join } from 'node:path'
import { createLaunchTokens, loadOrCreateLaunchSecret } from './courses/launch/launch-token.ts'
import { migrationsList } from './migrations/index.ts'

export { seedDemoData, type SeedTarget } from './demo/demo-data.ts'

/** Every entity of learning's database. */
export const entities = [
  ExamEntity,
  ExamQuestionEntity,
  ExamAssignmentEntity,
  ExamAttemptEntity,
  CourseEntity,
  CourseModuleEntity,
  CourseAssignmentEntity,
  ProjectedUser,
]

export interface LearningDeps {
  env: PlatformEnv
  logger: Logger
  bus: EventBus
  port: number
  hostname?: string
  /** Identity's public keys: its JWKS URL in cluster mode, a document or getter in single-node. */
  jwks: KeySource
  /** Current time (tests move it past deadlines). */
  clock?: () => Date
  /** How often overdue attempts are finalised (default 3 s). */
  sweepIntervalMs?: number
  /** Full URL of learning's own database; default: its database on env.DATABASE_URL's server. */
  databaseUrl?: string
  /** Module files and packages; default: S3 when S3_BUCKET is set, else STORAGE_DIR, else a local folder under DATA_DIR (`storage/learning`). */
  storage?: Storage
  /** Launch-token secret (base64url, at least 32 bytes); default: generated into DATA_DIR. */
  launchSecret?: string
  /** Origin the gateway serves course content from (`CONTENT_ORIGIN`); the launch answers point there. */
  contentOrigin?: string
}

export interface LearningServer {
  port: number
  app: Hono<AppEnv>
  orm: MikroORM
  relay: OutboxRelay
  /** Module files and extracted packages. */
  storage: Storage
  /** Course authoring (the demo seeding creates its course through it). */
  courses: CourseService
  close(): Promise<void>
}

/**
 * Opens learning's database, starts the outbox relay, the attempt sweeper, the package ingest
 * worker, the storage garbage cleaner and the durable subscription to identity's user events
 * (the `users` projection), and serves the app. `close()` leaves the bus open.
 */
export async function start(deps: LearningDeps): Promise<LearningServer> {
  const { env, logger } = deps
  const db = await openDatabase({
    service: 'learning',
    url: deps.databaseUrl ?? (env.DATABASE_URL ? serviceDatabaseUrl(env.DATABASE_URL, 'learning') : undefined),
    dataDir: env.DATA_DIR,
    entities,
    migrations: migrationsList,
    logger,
  })
  const relay = startOutboxRelay({ orm: db.orm, bus: deps.bus, logger })
  const verifier = createTokenVerifier(deps.jwks, { issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE })
  const storage = deps.storage ?? (await openStorage(env, 'learning', join(env.DATA_DIR, 'storage', 'learning')))
  const secret = deps.launchSecret
    ? new Uint8Array(Buffer.from(deps.launchSecret, 'base64url'))
    : await loadOrCreateLaunchSecret(join(env.DATA_DIR, 'learning-launch.key'))
  const launchTokens = createLaunchTokens(secret, { now: deps.clock })
  const { app, attempts, courses, ingest, garbage } = createApp({ orm: db.orm, verifier, clock: deps.clock, logger, storage, launchTokens, contentOrigin: deps.contentOrigin })
  const sweeper = startAttemptSweeper(attempts, { intervalMs: deps.sweepIntervalMs, logger })
  // Packages waiting for extraction (also after a crash) and storage nothing refers to any more.
  ingest.start()
  garbage.start()
  const users = createLearningUsers({ orm: db.orm, logger })
  let subscription: Awaited<ReturnType<typeof users.subscribe>> | undefined
  try {
    subscription = await users.subscribe(deps.bus)
    // A projection that never asked (a new deployment, or one older than the kit's projection) asks
    // identity once for every user.
    await users.requestBackfill()
    const server = await listen(app, deps.port, deps.hostname ?? '127.0.0.1', { trustedProxies: trustedProxies(env.TRUSTED_PROXIES) })
    relay.kick()
    logger.info('learning listening', { port: server.port })
    const sub = subscription
    return {
      port: server.port,
      app,
      orm: db.orm,
      relay,
      storage,
      courses,
      async close() {
        await server.close()
        await sub.stop()
        await sweeper.stop()
        await ingest.stop()
        await garbage.stop()
        await relay.stop()
        await db.close()
      },
    }
  } catch (err) {
    await subscription?.stop()
    await sweeper.stop()
    await ingest.stop()
    await garbage.stop()
    await relay.stop()
    await db.close()
    throw err
  }
}

const required = z
  .string({ error: 'is required to run svc-learning on its own' })
  .trim()
  .min(1, 'is required to run svc-learning on its own')
  .pipe(z.url())

/** The cluster deployable's variables: the platform's with its engines required, plus port and host. */
export const learningProcessEnv = (source: Record<string, string | undefined>) =>
  PlatformEnv.extend({
    DATABASE_URL: required,
    NATS_URL: required,
    IDENTITY_JWKS_URL: required,
    /** Shared folder of module files and extracted packages (every instance must see the same one), unless S3_BUCKET is set. */
    STORAGE_DIR: storageDirVariable(source, 'is required to run svc-learning on its own'),
    /** Secret of the content launch tokens, base64url of at least 32 bytes, the same on every instance. */
    LAUNCH_TOKEN_SECRET: z
      .string({ error: 'is required to run svc-learning on its own' })
      .trim()
      .refine((v) => Buffer.from(v, 'base64url').length >= 32, 'must be base64url of at least 32 random bytes'),
    /** Origin the gateway serves course content from: the same value as the gateway's CONTENT_ORIGIN. */
    CONTENT_ORIGIN: z.url().default('http://localhost:8081').transform((v) => new URL(v).origin),
    /** Port when run alone; falls back to PORT, then 4002. */
    LEARNING_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    /** Interface to listen on: loopback unless told (a container sets 0.0.0.0); the gateway is the way in. */
    HOST: z.string().trim().min(1).default('127.0.0.1'),
  })

/** Parses the configuration of svc-learning run on its own. */
export function loadLearningEnv(source: Record<string, string | undefined> = process.env) {
  const env = parseEnv(learningProcessEnv(source), source)
  const port = env.LEARNING_PORT ?? (source.PORT ? env.PORT : 4002)
  return {
    env: env satisfies PlatformEnv as PlatformEnv,
    port,
    hostname: env.HOST,
    jwksUrl: env.IDENTITY_JWKS_URL,
    storageDir: env.STORAGE_DIR,
    launchSecret: env.LAUNCH_TOKEN_SECRET,
    contentOrigin: env.CONTENT_ORIGIN,
  }
}

// The cluster deployable: its own process with PostgreSQL, NATS JetStream and identity's JWKS.
if (import.meta.main) {
  const { env, port, hostname, jwksUrl, storageDir, launchSecret, contentOrigin } = loadLearningEnv()
  const logger = createLogger('learning', env.LOG_LEVEL)
  const bus = await createNatsBus({ url: env.NATS_URL!, logger })
  const storage = await openStorage({ ...env, STORAGE_DIR: storageDir }, 'learning', storageDir ?? '')
  const server = await start({ env, logger, bus, port, hostname, jwks: new URL(jwksUrl), storage, launchSecret, contentOrigin })
  closeOnSignal(logger, () => server.close(), () => bus.close())
}
