import { ProjectedUser, defineService, openStorage, publicUrl, runServiceProcess, stoppedWithJobs, type ServeOptions, type ServiceDeps } from '@portal/server-kit'
import { createApp, type AppDeps } from './app.ts'
import { CertificationTypeEntity, TierRequirementEntity } from './certification-types/certification-type.entity.ts'
import { CertificationPeriodEntity, TechnicianCertificationEntity } from './certifications/certification.entity.ts'
import { loadCertsEnv, loadNotifySchedule } from './env.ts'
import type { NotificationSchedule } from './notifications/notification.runner.ts'
import { createOutcomeHandler, subscribeOutcomes } from './notifications/outcome.consumer.ts'
import { createAssignmentHandler, subscribeAssignments } from './assignments/index.ts'
import { createCompletionHandler, subscribeCompletions } from './renewals/index.ts'
import { migrationsList } from './migrations/index.ts'
import { ledgerRoutines } from './compliance/rules-sql.ts'
import { TechnicianEntity } from './technicians/technician.entity.ts'
import { createCertsUsers } from './users.ts'

export { seedDemoData, type SeedTarget } from './demo/demo-data.ts'
export { loadCertsEnv } from './env.ts'

/** Every entity of certs' database. */
export const entities = [CertificationTypeEntity, TierRequirementEntity, TechnicianCertificationEntity, CertificationPeriodEntity, TechnicianEntity, ProjectedUser]

/** What certs adds to the platform's parts. */
export interface CertsOptions {
  /** When the expiry notifications run, and the company's time zone. */
  schedule: NotificationSchedule
  /** Tuning of the notification runs (tests). */
  runs?: AppDeps['runs']
}

/**
 * Certs: certification types, technicians' certifications and their proofs, team figures and the
 * expiry notifications. Beside the platform's parts: the ledger's SQL twins (installed at every
 * start, in the company's time zone, the assignment state rule with them), the notification runner, the
 * `users` projection (a deleted user's certifications go with them), notify's delivery outcomes,
 * learning's assignments (the team's Overdue figures) and completions (certifications they renew).
 */
export const certsService = defineService({
  name: 'certs',
  entities,
  migrations: migrationsList,
  routines: (deps: ServiceDeps & CertsOptions) => ledgerRoutines(deps.schedule.timeZone),
  storage: true,
  features(ctx, deps: ServiceDeps & CertsOptions) {
    const { schedule } = deps
    const { orm, verifier, storage, garbage, logger, clock } = ctx
    const { app, certifications, runner, ...parts } = createApp({ orm, verifier, storage, garbage, logger, clock, publicUrl: publicUrl(ctx.env), schedule, runs: deps.runs })
    // The projection of identity's users (demo seeding waits for its users there).
    const users = createCertsUsers({ orm, logger, certifications })
    return {
      app,
      users,
      consumers: [
        (bus) => subscribeOutcomes(bus, createOutcomeHandler({ orm, logger })),
        (bus) => subscribeAssignments(bus, createAssignmentHandler({ orm, logger })),
        (bus) => subscribeCompletions(bus, createCompletionHandler({ orm, logger, timeZone: schedule.timeZone, now: clock, certifications, garbage })),
      ],
      // The runner's schedule starts with the app (route tests turn it off).
      jobs: [stoppedWithJobs(() => runner.stop())],
      describe: () => ({ storage: storage.kind, notificationRuns: runner.nextRuns() }),
      // A scheduled run of today that stopped midway (this or another instance died) goes on.
      serving: () => void runner.resumeUnfinished().catch((err) => logger.error('resuming the notification run failed', { err: err as Error })),
      parts: { ...parts, certifications, runner, users, garbage, timeZone: schedule.timeZone },
    }
  },
})

export interface CertsDeps extends ServiceDeps, Partial<CertsOptions>, ServeOptions {}

export type CertsServer = Awaited<ReturnType<typeof start>>

/** Starts certs, on the schedule given or else CERT_NOTIFY_* (daily 06:00, Mondays 07:00, America/Los_Angeles); `close()` leaves the bus open. */
export const start = (deps: CertsDeps) => certsService.start({ ...deps, schedule: deps.schedule ?? loadNotifySchedule() })

// The cluster deployable: its own process with PostgreSQL, NATS JetStream, identity's JWKS and S3.
if (import.meta.main) {
  const { env, port, hostname, jwksUrl, storageDir } = loadCertsEnv()
  const storage = await openStorage({ ...env, STORAGE_DIR: storageDir }, 'certs', storageDir ?? '')
  await runServiceProcess('certs', env, ({ logger, bus }) => start({ env, logger, bus, port, hostname, jwks: new URL(jwksUrl), storage }))
}
