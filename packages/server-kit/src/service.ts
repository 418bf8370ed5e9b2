import { join } from 'node:path'
import type { Hono } from 'hono'
import type { AnyEntity, EntitySchema, MikroORM } from '@mikro-orm/postgresql'
import { withAppMiddleware } from './app-scope.ts'
import { createTokenVerifier, type KeySource, type TokenVerifier } from './auth.ts'
import { createInProcessBus, type EventBus, type Subscription } from './bus.ts'
import { trustedProxies } from './client-address.ts'
import { openDatabase, type MigrationEntry } from './db.ts'
import { serviceDatabaseUrl, type PlatformEnv } from './env.ts'
import { listen, type AppEnv } from './http.ts'
import { createIdempotencyExpiry, idempotency } from './idempotency.ts'
import { createLogger, type Logger } from './logger.ts'
import { consumerLagMetrics, createMetrics, withServiceMetrics, type Metrics } from './metrics.ts'
import { createNatsBus } from './nats-bus.ts'
import { outboxMetrics, startOutboxRelay, type OutboxRelay } from './outbox.ts'
import { closeOnSignal } from './process.ts'
import { createGarbageCleaner, type GarbageCleaner } from './storage-garbage.ts'
import { openStorage, type Storage } from './storage.ts'
import { startTracing } from './tracing.ts'

/**
 * What was started, undone in the reverse order: the one shutdown order of a service (its server,
 * then its consumers, its jobs, its relay, its database) and of the launcher's services.
 */
export function createShutdownStack(logger?: Logger) {
  const steps: (() => unknown)[] = []
  let closing: Promise<void> | undefined
  return {
    /** Remembers how to undo what just started. */
    defer(step: () => unknown): void {
      steps.push(step)
    },
    /** Awaits `started` and remembers its `close()`. */
    async add<T extends { close(): Promise<unknown> }>(started: Promise<T> | T): Promise<T> {
      const part = await started
      steps.push(() => part.close())
      return part
    },
    /**
     * Undoes everything, last first; once (a second call waits for the first). A step that fails
     * does not keep the rest open: the first failure is thrown once all steps ran.
     */
    close(): Promise<void> {
      closing ??= (async () => {
        let failure: { err: unknown } | undefined
        for (const step of steps.splice(0).reverse()) {
          try {
            await step()
          } catch (err) {
            logger?.error('a shutdown step failed', { err: err as Error })
            failure ??= { err }
          }
        }
        if (failure) throw failure.err
      })()
      return closing
    },
  }
}
export type ShutdownStack = ReturnType<typeof createShutdownStack>

/** Background work of a service: started once its database is ready (not in route tests), stopped after its consumers. */
export interface ServiceJob {
  start(): void
  /** Also called when `start()` was not (route tests): then it has nothing to wait for. */
  stop(): unknown
}

/** A job made by a function that starts it at once (e.g. `startAttemptSweeper`); `running` is what it made. */
export function startedJob<T extends { stop(): unknown }>(start: () => T): ServiceJob & { readonly running: T | undefined } {
  let running: T | undefined
  return {
    get running() {
      return running
    },
    start() {
      running ??= start()
    },
    stop: () => running?.stop(),
  }
}

/** Work that runs on its own once made (a schedule, requests' background tasks): nothing to start, stopped in the jobs' place. */
export const stoppedWithJobs = (stop: () => unknown): ServiceJob => ({ start: () => undefined, stop })

/** What every service receives from the platform: its configuration, logger and the event bus. */
export interface ServiceDeps<E extends PlatformEnv = PlatformEnv> {
  env: E
  logger: Logger
  bus: EventBus
  /** Identity's public keys: its JWKS URL in cluster mode, a document or getter in single-node and tests. */
  jwks: KeySource
  /** Full URL of the service's own database; default: its database on env.DATABASE_URL's server, else an embedded PGlite under DATA_DIR. */
  databaseUrl?: string
  /** The service's files (when it declares `storage`); default: S3 when S3_BUCKET is set, else STORAGE_DIR, else `<DATA_DIR>/storage/<name>`. */
  storage?: Storage
  /** Current time (tests move it). */
  clock?: () => Date
}

/** Where a started service listens. */
export interface ServeOptions {
  /** 0: any free port. */
  port: number
  /** Interface (default loopback: the gateway is the way in). */
  hostname?: string
}

/** The files of a service that declares `storage`: its storage and the cleaner of what nothing refers to. */
export interface ServiceFiles {
  storage: Storage
  garbage: GarbageCleaner
}

/** What a service's features are built on. */
export interface ServiceContext<E extends PlatformEnv = PlatformEnv> {
  name: string
  env: E
  logger: Logger
  bus: EventBus
  orm: MikroORM
  relay: OutboxRelay
  /** Verifies identity's tokens. */
  verifier: TokenVerifier
  clock: () => Date
  /** The service's registry: its app's `/metrics` and background tasks use it already (made in its scope); domain metrics go here. */
  metrics: Metrics
}

/** A service's projection of identity's users: subscribed with the consumers, asked once for every user when the service starts. */
export interface ServiceUsers {
  subscribe(bus: EventBus): Promise<Subscription>
  requestBackfill(): Promise<boolean>
}

/** What a service is beyond the platform's parts: its app, consumers, jobs and what `start()` hands back. */
export interface ServiceFeatures<P> {
  app: Hono<AppEnv>
  users?: ServiceUsers
  /** Durable subscriptions, made in this order after the projection's. */
  consumers?: ((bus: EventBus) => Promise<Subscription>)[]
  /** Started after the storage cleaner, in this order. */
  jobs?: ServiceJob[]
  /** Closes what the features opened (e.g. the mail transport), once their jobs and consumers stopped. */
  close?: () => Promise<unknown>
  /** Runs once the service serves (e.g. resuming an interrupted run); not in route tests. */
  serving?: () => void
  /** Facts for the "listening" log line. */
  describe?: () => Record<string, unknown>
  /** Handed back by `start()` and `assemble()` beside the app, database and relay. */
  parts: P
}

export interface ServiceDefinition<E extends PlatformEnv, O, P, S extends boolean> {
  /** Database name on the shared server, folder name under DATA_DIR, log and storage prefix. */
  name: string
  entities: (EntitySchema<AnyEntity> | AnyEntity)[]
  migrations: MigrationEntry[]
  /** Statements run after the migrations at every start (see `OpenDatabaseOptions.routines`). */
  routines?: (deps: ServiceDeps<E> & O) => string[]
  /** Whether the service stores files (its storage and garbage cleaner are opened for it). */
  storage?: S
  features(ctx: ServiceContext<E> & (S extends true ? ServiceFiles : unknown), deps: ServiceDeps<E> & O): ServiceFeatures<P> | Promise<ServiceFeatures<P>>
}

export type RunningService<P, S extends boolean = boolean> = P &
  (S extends true ? { storage: Storage } : unknown) & {
    /** The bound port (0 when assembled for route tests: nothing is served). */
    port: number
    app: Hono<AppEnv>
    orm: MikroORM
    relay: OutboxRelay
    /** What its `/metrics` serves. */
    metrics: Metrics
    /** Stops the service in the reverse order of its start; leaves the bus open (the caller owns it). */
    close(): Promise<void>
  }

export interface Service<E extends PlatformEnv, O, P, S extends boolean> {
  name: string
  /** Opens the database, starts the relay, the jobs and the consumers, asks identity for every user and serves the app. */
  start(deps: ServiceDeps<E> & O & ServeOptions): Promise<RunningService<P, S>>
  /**
   * The same parts wired the same way, for route tests that call the app in process: nothing is
   * served, no job runs (the test drives them) and identity is not asked for its users.
   */
  assemble(deps: ServiceDeps<E> & O): Promise<RunningService<P, S>>
}

/**
 * One service's start-up and shutdown, written once for all of them (issue 31): database and
 * migrations, outbox relay, token verifier, storage and its garbage cleaner, the service's
 * features, its background jobs, its consumers and user projection, the HTTP server. Shutdown is
 * the reverse, from one stack; a start that fails half way undoes what it had started.
 */
export function defineService<E extends PlatformEnv, O = object, P = object, S extends boolean = false>(def: ServiceDefinition<E, O, P, S>): Service<E, O, P, S> {
  const run = async (deps: ServiceDeps<E> & O, metrics: Metrics, serve?: ServeOptions): Promise<RunningService<P, S>> => {
    const { env, logger, bus } = deps
    const stack = createShutdownStack(logger)
    try {
      const db = await openDatabase({
        service: def.name,
        url: deps.databaseUrl ?? (env.DATABASE_URL ? serviceDatabaseUrl(env.DATABASE_URL, def.name, env.DATABASE_NAME_PREFIX) : undefined),
        dataDir: env.DATA_DIR,
        entities: def.entities,
        migrations: def.migrations,
        routines: def.routines?.(deps),
        logger,
      })
      stack.defer(() => db.close())
      outboxMetrics(metrics.registry, db.orm)
      const relay = startOutboxRelay({ orm: db.orm, bus, logger })
      stack.defer(() => relay.stop())
      const verifier = createTokenVerifier(deps.jwks, { issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE })
      const clock = deps.clock ?? (() => new Date())
      let files: ServiceFiles | undefined
      if (def.storage) {
        const storage = deps.storage ?? (await openStorage(env, def.name, join(env.DATA_DIR, 'storage', def.name)))
        files = { storage, garbage: createGarbageCleaner({ orm: db.orm, storage, logger, now: clock }) }
      }
      const ctx = { name: def.name, env, logger, bus, orm: db.orm, relay, verifier, clock, metrics, ...files } as ServiceContext<E> & (S extends true ? ServiceFiles : unknown)
      // Every app the features make answers a repeated write with an Idempotency-Key as it answered the first.
      const features = await withAppMiddleware([idempotency({ orm: db.orm, verifier, logger })], () => def.features(ctx, deps))
      if (features.close) stack.defer(features.close)
      const idempotencyExpiry = createIdempotencyExpiry({ orm: db.orm, logger })
      for (const job of [...(files ? [files.garbage] : []), idempotencyExpiry, ...(features.jobs ?? [])]) {
        stack.defer(() => job.stop())
        if (serve) job.start()
      }
      // The durable consumers' lag is asked of the broker when /metrics is scraped.
      const subscriptions: Subscription[] = []
      consumerLagMetrics(metrics.registry, () => subscriptions)
      const subscribing: EventBus = {
        kind: bus.kind,
        publish: (event) => bus.publish(event),
        close: () => bus.close(),
        subscribe: async (consumer, subjects, handler) => {
          const subscription = await bus.subscribe(consumer, subjects, handler)
          subscriptions.push(subscription)
          return subscription
        },
      }
      for (const subscribe of [...(features.users ? [features.users.subscribe] : []), ...(features.consumers ?? [])]) {
        const subscription = await subscribe(subscribing)
        stack.defer(() => subscription.stop())
      }
      let port = 0
      if (serve) {
        // A projection that never asked (a new deployment, or one older than the kit's projection) asks identity once for every user.
        await features.users?.requestBackfill()
        const server = await stack.add(listen(features.app, serve.port, serve.hostname ?? '127.0.0.1', { trustedProxies: trustedProxies(env.TRUSTED_PROXIES) }))
        port = server.port
      }
      // Whatever was pending when the last process stopped.
      relay.kick()
      if (serve) {
        logger.info(`${def.name} listening`, { port, ...features.describe?.() })
        features.serving?.()
      }
      return { ...features.parts, ...(files ? { storage: files.storage } : {}), port, app: features.app, orm: db.orm, relay, metrics, close: stack.close } as RunningService<P, S>
    } catch (err) {
      await stack.close().catch(() => undefined)
      throw err
    }
  }
  // One registry per service instance (route tests assemble many in one process); process metrics only where it really serves.
  const runWithMetrics = (deps: ServiceDeps<E> & O, serve?: ServeOptions) => {
    const metrics = createMetrics(def.name)
    if (serve) metrics.collectProcessMetrics()
    return withServiceMetrics(metrics, () => run(deps, metrics, serve))
  }
  return {
    name: def.name,
    // Apps and background tasks made while the service starts (or later, from its requests and consumers) record in its registry.
    start: (deps) => runWithMetrics(deps, { port: deps.port, hostname: deps.hostname }),
    assemble: (deps) => runWithMetrics(deps),
  }
}

/**
 * Runs a service as a process of its own (a cluster deployable): its logger, the bus (NATS when
 * NATS_URL is set, else in process for a standalone dev run), and a shutdown on SIGTERM or SIGINT
 * that closes the service, then the bus.
 */
export async function runServiceProcess(name: string, env: PlatformEnv, start: (io: { logger: Logger; bus: EventBus }) => Promise<{ close(): Promise<void> }>) {
  const logger = createLogger(name, env.LOG_LEVEL)
  const tracing = startTracing(name, env)
  const bus = env.NATS_URL ? await createNatsBus({ url: env.NATS_URL, logger, stream: env.NATS_STREAM, subjectPrefix: env.NATS_SUBJECT_PREFIX }) : createInProcessBus({ logger })
  const service = await start({ logger, bus })
  closeOnSignal(
    logger,
    () => service.close(),
    () => bus.close(),
    tracing.shutdown,
  )
}
