import { join } from 'node:path'
import type { Hono } from 'hono'
import type { MikroORM } from '@mikro-orm/postgresql'
import {
  ProjectedUser,
  closeOnSignal,
  createGarbageCleaner,
  createLogger,
  createNatsBus,
  createTokenVerifier,
  listen,
  openDatabase,
  openStorage,
  publicUrl,
  serviceDatabaseUrl,
  startOutboxRelay,
  trustedProxies,
  type AppEnv,
  type EventBus,
  type KeySource,
  type Logger,
  type OutboxRelay,
  type PlatformEnv,
  type Storage,
} from '@portal/server-kit'
import { createApp, type AppDeps } from './app.ts'
import { CertificationTypeEntity, TierRequirementEntity } from './certification-types/certification-type.entity.ts'
import { CertificationPeriodEntity, TechnicianCertificationEntity } from './certifications/certification.entity.ts'
import { loadCertsEnv, loadNotifySchedule } from './env.ts'
import type { NotificationSchedule } from './notifications/notification.runner.ts'
import { createOutcomeHandler, subscribeOutcomes } from './notifications/outcome.consumer.ts'
import { migrationsList } from './migrations/index.ts'
import { ledgerRoutines } from './compliance/rules-sql.ts'
import { TechnicianEntity } from './technicians/technician.entity.ts'
import { createCertsUsers, type CertsUsers } from './users.ts'

export { seedDemoData, type SeedTarget } from './demo/demo-data.ts'
export { loadCertsEnv } from './env.ts'

/** Every entity of certs' database. */
export const entities = [CertificationTypeEntity, TierRequirementEntity, TechnicianCertificationEntity, CertificationPeriodEntity, TechnicianEntity, ProjectedUser]

export interface CertsDeps {
  env: PlatformEnv
  logger: Logger
  bus: EventBus
  port: number
  hostname?: string
  /** Identity's public keys: its JWKS URL in cluster mode, a document or getter in single-node. */
  jwks: KeySource
  /** Full URL of certs' own database; default: its database on env.DATABASE_URL's server. */
  databaseUrl?: string
  /** Proof files; default: S3 when S3_BUCKET is set, else a local folder under DATA_DIR (`storage/certs`). */
  storage?: Storage
  /** Current time (tests move it). */
  clock?: () => Date
  /** When the expiry notifications run; default: from CERT_NOTIFY_* (daily 06:00, Mondays 07:00, America/Los_Angeles). */
  schedule?: NotificationSchedule
  /** Tuning of the notification runs (tests). */
  runs?: AppDeps['runs']
}

export interface CertsServer {
  port: number
  app: Hono<AppEnv>
  orm: MikroORM
  relay: OutboxRelay
  storage: Storage
  /** The projection of identity's users (demo seeding waits for its users there). */
  users: CertsUsers
  /** The company's time zone (COMPANY_TIME_ZONE). */
  timeZone: string
  close(): Promise<void>
}

/**
 * Opens certs' database and storage, starts the outbox relay, the proof garbage cleaner and the
 * user projection (asking identity once for every user), and serves the app. `close()` leaves the
 * bus open.
 */
export async function start(deps: CertsDeps): Promise<CertsServer> {
  const { env, logger } = deps
  const schedule = deps.schedule ?? loadNotifySchedule()
  const db = await openDatabase({
    service: 'certs',
    url: deps.databaseUrl ?? (env.DATABASE_URL ? serviceDatabaseUrl(env.DATABASE_URL, 'certs') : undefined),
    dataDir: env.DATA_DIR,
    entities,
    migrations: migrationsList,
    routines: ledgerRoutines(schedule.timeZone),
    logger,
  })
  const relay = startOutboxRelay({ orm: db.orm, bus: deps.bus, logger })
  const storage = deps.storage ?? (await openStorage(env, 'certs', join(env.DATA_DIR, 'storage', 'certs')))
  const now = deps.clock ?? (() => new Date())
  const garbage = createGarbageCleaner({ orm: db.orm, storage, logger, now })
  const verifier = createTokenVerifier(deps.jwks, { issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE })
  const { app, certifications, runner } = createApp({ orm: db.orm, verifier, storage, garbage, logger, clock: deps.clock, publicUrl: publicUrl(env), schedule, runs: deps.runs })
  const users = createCertsUsers({ orm: db.orm, logger, certifications })
  garbage.start()
  let subscription: Awaited<ReturnType<typeof users.subscribe>> | undefined
  let outcomes: Awaited<ReturnType<typeof subscribeOutcomes>> | undefined
  try {
    subscription = await users.subscribe(deps.bus)
    outcomes = await subscribeOutcomes(deps.bus, createOutcomeHandler({ orm: db.orm, logger }))
    await users.requestBackfill()
    const server = await listen(app, deps.port, deps.hostname ?? '127.0.0.1', { trustedProxies: trustedProxies(env.TRUSTED_PROXIES) })
    relay.kick()
    logger.info('certs listening', { port: server.port, storage: storage.kind, notificationRuns: runner.nextRuns() })
    // A scheduled run of today that stopped midway (this or another instance died) goes on.
    void runner.resumeUnfinished().catch((err) => logger.error('resuming the notification run failed', { err: err as Error }))
    const sub = subscription
    const outcomeSub = outcomes
    return {
      port: server.port,
      app,
      orm: db.orm,
      relay,
      storage,
      users,
      timeZone: schedule.timeZone,
      async close() {
        await server.close()
        await runner.stop()
        await outcomeSub.stop()
        await sub.stop()
        await garbage.stop()
        await relay.stop()
        await db.close()
      },
    }
  } catch (err) {
    await runner.stop()
    await outcomes?.stop()
    await subscription?.stop()
    await garbage.stop()
    await relay.stop()
    await db.close()
    throw err
  }
}

// The cluster deployable: its own process with PostgreSQL, NATS JetStream, identity's JWKS and S3.
if (import.meta.main) {
  const { env, port, hostname, jwksUrl, storageDir } = loadCertsEnv()
  const logger = createLogger('certs', env.LOG_LEVEL)
  const bus = await createNatsBus({ url: env.NATS_URL!, logger })
  const storage = await openStorage({ ...env, STORAGE_DIR: storageDir }, 'certs', storageDir ?? '')
  const server = await start({ env, logger, bus, port, hostname, jwks: new URL(jwksUrl), storage })
  closeOnSignal(logger, () => server.close(), () => bus.close())
}
