import { join } from 'node:path'
import { z } from 'zod'
import { DEFAULT_COMPANY_TIME_ZONE } from '@portal/contracts'
import {
  PlatformEnv,
  assignmentRoutines,
  defineService,
  loadServiceSecretBox,
  openStorage,
  parseEnv,
  ProjectedUser,
  publicUrl,
  runServiceProcess,
  startedJob,
  storageDirVariable,
  type ServeOptions,
  type ServiceDeps,
} from '@portal/server-kit'
import { createApp, type AppDeps } from './app.ts'
import { ExamAssignmentEntity, ExamAttemptEntity, ExamEntity, ExamQuestionEntity, startAttemptSweeper } from './exams/index.ts'
import { createCertsHandler, createGroupsHandler, createLearningUsers, subscribeCerts, subscribeGroups } from './consumers/index.ts'
import { createDueDateScan, dueDateScanJob, DEFAULT_SCAN_INTERVAL_MS } from './assignments-scan/index.ts'
import { CourseAssignmentEntity, CourseEntity, CourseModuleEntity, createLaunchTokens, loadOrCreateLaunchSecret } from './courses/index.ts'
import { migrationsList } from './migrations/index.ts'
import { abandonSweepJob } from './cmi5/index.ts'
import { createForwardHandler, resealLrsPassword, subscribeForwarding } from './xapi-out/index.ts'
import { xapiHomePage } from './lrs/index.ts'
import type { LearningContext } from './context.ts'

export { seedDemoData, type SeedTarget } from './demo/index.ts'

/** Every entity of learning's database. */
export const entities = [ExamEntity, ExamQuestionEntity, ExamAssignmentEntity, ExamAttemptEntity, CourseEntity, CourseModuleEntity, CourseAssignmentEntity, ProjectedUser]

/** What learning adds to the platform's parts. */
export interface LearningOptions {
  /** How often overdue attempts are finalised (default 3 s). */
  sweepIntervalMs?: number
  /** Launch-token secret (base64url, at least 32 bytes); default: generated into DATA_DIR. */
  launchSecret?: string
  /** Origin the gateway serves course content from (`CONTENT_ORIGIN`); the launch answers point there. */
  contentOrigin?: string
  /** Limits of course uploads (tests lower them). */
  uploadLimits?: AppDeps['uploadLimits']
  /** The company's IANA time zone, whose date is "today" of due dates (COMPANY_TIME_ZONE; default America/Los_Angeles). */
  timeZone?: string
  /** How often the due-date scan runs (ASSIGNMENT_SCAN_INTERVAL_MS; default 15 minutes). */
  assignmentScanIntervalMs?: number
  /** Statements out's sender: interval and backoff (tests shorten them). */
  statementsOut?: AppDeps['statementsOut']
}

/**
 * Learning: exams, attempts and courses with their files. Beside the platform's parts it runs the
 * attempt sweeper and the package ingest worker, and keeps the `users` projection of identity's
 * user events.
 */
export const learningService = defineService({
  name: 'learning',
  entities,
  migrations: migrationsList,
  // The due-date state rule in SQL (issue 24), installed at every start.
  routines: () => assignmentRoutines(),
  storage: true,
  async features(ctx, deps: ServiceDeps & LearningOptions) {
    const secret = deps.launchSecret ? new Uint8Array(Buffer.from(deps.launchSecret, 'base64url')) : await loadOrCreateLaunchSecret(join(ctx.env.DATA_DIR, 'learning-launch.key'))
    const launchTokens = createLaunchTokens(secret, { now: deps.clock })
    const { orm, verifier, clock, logger, storage, garbage, relay } = ctx
    // Stored secrets sealed under SECRETS_KEY (or the key file); one stored plain or under a previous key is sealed again now.
    const secrets = await loadServiceSecretBox(ctx.env, 'learning')
    await resealLrsPassword(orm, secrets, logger)
    const {
      app,
      attempts,
      courses,
      ingest,
      statementsOut,
      cmi5,
      ctx: learning,
    } = createApp({
      orm,
      verifier,
      clock,
      logger,
      storage,
      garbage,
      launchTokens,
      contentOrigin: deps.contentOrigin,
      uploadLimits: deps.uploadLimits,
      timeZone: deps.timeZone ?? DEFAULT_COMPANY_TIME_ZONE,
      statementsOut: deps.statementsOut,
      secrets,
    })
    // Recurring rows rolled forward to their opened cycles, then reminder steps reached by due dates, once across instances (issue 24).
    const dueDateScan = createDueDateScan({ orm, logger, today: learning.today, now: clock, kick: relay.kick })
    return {
      app,
      // New and changed users get the assignment rules that take them, on the company's calendar (issue 24).
      users: createLearningUsers({ orm, logger, calendar: learning }),
      // Due dates that follow a certification's expiry; the user groups a rule may name (issue 24).
      consumers: [
        (bus) => subscribeCerts(bus, createCertsHandler({ orm, logger })),
        (bus) => subscribeGroups(bus, createGroupsHandler({ orm, logger })),
        // Statements out (issue 26): learning's own events queued as xAPI statements for the external LRS.
        (bus) =>
          subscribeForwarding(
            bus,
            createForwardHandler({ orm, logger, setting: xapiSetting(ctx.env, { contentOrigin: (deps.contentOrigin ?? '').replace(/\/$/, '') }), kick: statementsOut.kick }),
          ),
      ],
      // Overdue attempts; packages waiting for extraction (also after a crash); the due-date scan at start and on its interval.
      jobs: [
        startedJob(() => startAttemptSweeper(attempts, { intervalMs: deps.sweepIntervalMs, logger })),
        ingest,
        dueDateScanJob(dueDateScan, { logger, intervalMs: deps.assignmentScanIntervalMs }),
        statementsOut.job,
        // cmi5 sessions past their end without Terminated get Abandoned (issue 26).
        abandonSweepJob(cmi5, { logger }),
      ],
      parts: { courses, attempts, launchTokens, ctx: learning, dueDateScan },
    }
  },
})

/**
 * Where statements out's IRIs point (issue 26): the portal's origin (PUBLIC_URL) for activities,
 * and the learners' account home page, the same as in the portal's own LRS (xapiHomePage:
 * XAPI_ACCOUNT_HOMEPAGE, else the content origin), so an LRS sees one learner as one agent.
 */
export function xapiSetting(env: { PUBLIC_URL?: string | undefined }, ctx: Pick<LearningContext, 'contentOrigin'>, source: Record<string, string | undefined> = process.env) {
  parseEnv(z.object({ XAPI_ACCOUNT_HOMEPAGE: z.url().optional() }), source)
  return { origin: publicUrl(env), homePage: xapiHomePage(ctx) }
}

export interface LearningDeps extends ServiceDeps, LearningOptions, ServeOptions {}

export type LearningServer = Awaited<ReturnType<typeof start>>

/** Starts learning, in the company's time zone given or else COMPANY_TIME_ZONE; `close()` leaves the bus open. */
export const start = (deps: LearningDeps) =>
  learningService.start({
    ...deps,
    timeZone: deps.timeZone ?? loadCompanyTimeZone(),
    assignmentScanIntervalMs: deps.assignmentScanIntervalMs ?? loadAssignmentScanIntervalMs(),
  })

const ianaTimeZone = z
  .string()
  .trim()
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz })
      return true
    } catch {
      return false
    }
  }, 'must be an IANA time zone such as America/Los_Angeles')

/** The company's time zone from the environment (every deployable of svc-learning, single-node included): COMPANY_TIME_ZONE, as svc-certs reads it. */
export function loadCompanyTimeZone(source: Record<string, string | undefined> = process.env): string {
  return parseEnv(z.object({ COMPANY_TIME_ZONE: ianaTimeZone.optional() }), source).COMPANY_TIME_ZONE ?? DEFAULT_COMPANY_TIME_ZONE
}

/** How often the due-date scan runs, from the environment (every deployable, single-node included): ASSIGNMENT_SCAN_INTERVAL_MS, default 15 minutes. */
export function loadAssignmentScanIntervalMs(source: Record<string, string | undefined> = process.env): number {
  return parseEnv(z.object({ ASSIGNMENT_SCAN_INTERVAL_MS: z.coerce.number().int().min(1000).max(86_400_000).default(DEFAULT_SCAN_INTERVAL_MS) }), source)
    .ASSIGNMENT_SCAN_INTERVAL_MS
}

const required = z.string({ error: 'is required to run svc-learning on its own' }).trim().min(1, 'is required to run svc-learning on its own').pipe(z.url())

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
    CONTENT_ORIGIN: z
      .url()
      .default('http://localhost:8081')
      .transform((v) => new URL(v).origin),
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
  const storage = await openStorage({ ...env, STORAGE_DIR: storageDir }, 'learning', storageDir ?? '')
  await runServiceProcess('learning', env, ({ logger, bus }) => start({ env, logger, bus, port, hostname, jwks: new URL(jwksUrl), storage, launchSecret, contentOrigin }))
}
