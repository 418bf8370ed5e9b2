import type { MikroORM } from '@mikro-orm/postgresql'
import { todayIn } from '@portal/contracts'
import {
  auditTrailRoutes,
  createLogger,
  createServiceApp,
  serveOpenApi,
  projectionTokenCheck,
  publicUrl,
  withTokenCheck,
  type GarbageCleaner,
  type Logger,
  type Storage,
  type TokenVerifier,
} from '@portal/server-kit'
import { adminCertificationRoutes } from './certification-types/certification-type.routes.ts'
import { createCertificationTypeService } from './certification-types/certification-type.service.ts'
import { certificationRoutes } from './certifications/certification.routes.ts'
import { createCertificationService } from './certifications/certification.service.ts'
import type { CertsContext } from './context.ts'
import { createPromotionService } from './promotions/promotion.service.ts'
import { revenueRoutes } from './revenue/revenue.routes.ts'
import { createRevenueService } from './revenue/revenue.service.ts'
import { managerRoutes, reportRoutes } from './team/team.routes.ts'
import { teamRepository } from './team/team.repository.ts'
import { createTeamService } from './team/team.service.ts'
import { createAckSigner } from './notifications/acknowledgement.ts'
import { acknowledgementRoutes, notificationRoutes } from './notifications/notification.routes.ts'
import { DEFAULT_SCHEDULE, createNotificationRunner, type NotificationSchedule, type RunnerDeps } from './notifications/notification.runner.ts'
import { createNotificationService } from './notifications/notification.service.ts'
import { technicianRoutes } from './technicians/technician.routes.ts'
import { createTechnicianService } from './technicians/technician.service.ts'

export interface AppDeps {
  orm: MikroORM
  verifier: TokenVerifier
  storage: Storage
  garbage: Pick<GarbageCleaner, 'collect'>
  logger?: Logger
  /** Current time (tests move it). */
  clock?: () => Date
  /** The portal's public address for e-mailed links (default: the local gateway). */
  publicUrl?: string
  /** When the expiry notifications run on their own (default: never; the server passes CERT_NOTIFY_*), and the company's time zone. */
  schedule?: NotificationSchedule
  /** Tuning of the notification runs (tests). */
  runs?: Pick<RunnerDeps, 'leaseMs' | 'batchSize' | 'afterBatch'>
}

/** Certs' Hono app (paths without the gateway's `/api`) and its services. */
export function createApp(deps: AppDeps) {
  const logger = deps.logger ?? createLogger('certs')
  const now = deps.clock ?? (() => new Date())
  const schedule = deps.schedule ?? { ...DEFAULT_SCHEDULE, enabled: false }
  // One "today" (issue 23): the company's date, the notification schedule's time zone.
  const timeZone = schedule.timeZone
  const ctx: CertsContext = { orm: deps.orm, logger, now, timeZone, today: () => todayIn(timeZone, now()), storage: deps.storage, garbage: deps.garbage }
  const types = createCertificationTypeService(ctx)
  const certifications = createCertificationService(ctx)
  const technicians = createTechnicianService(ctx, { adminTeamSummary: (em, admin, today) => teamRepository.adminSummary(em, admin, today) })
  const revenue = createRevenueService(ctx)
  const promotions = createPromotionService(ctx)
  const team = createTeamService(ctx, { technicians, revenue, promotions })
  const base = deps.publicUrl ?? publicUrl({})
  const signer = createAckSigner(deps.orm)
  const runner = createNotificationRunner({ orm: deps.orm, logger, now: ctx.now, base, signer, schedule, ...deps.runs })
  const notifications = createNotificationService({ orm: deps.orm, now: ctx.now, base, timeZone: schedule.timeZone, signer, runner })
  const app = createServiceApp({
    service: 'certs',
    logger,
    ready: async () => {
      await deps.orm.em.getConnection().execute('select 1')
    },
  })
  // Every bearer route: tokens of deleted users, or older than the user's auth version, are refused.
  const verifier = withTokenCheck(deps.verifier, projectionTokenCheck(deps.orm))
  app.route('/admin/certifications', adminCertificationRoutes(types, technicians, verifier))
  app.route('/technician', certificationRoutes(certifications, verifier))
  app.route('/technician', technicianRoutes(technicians, verifier))
  app.route('/manager', managerRoutes(team, promotions, verifier))
  app.route('/reports', reportRoutes(team, verifier))
  app.route('/revenue', revenueRoutes(revenue, verifier))
  // The acknowledgement link is public (its signed token is the credential); the rest is for admins.
  app.route('/certification-notifications', acknowledgementRoutes(notifications))
  app.route('/certification-notifications', notificationRoutes(notifications, verifier))
  app.route('/admin/audit/certs', auditTrailRoutes(deps.orm, 'certs', verifier))
  serveOpenApi(app, {
    service: 'certs',
    title: 'svc-certs',
    description: 'Certifications and their proofs, technicians and tiers, the team dashboard, revenue, and expiry notifications.',
  })
  return { app, ctx, types, certifications, technicians, revenue, promotions, team, notifications, runner }
}
