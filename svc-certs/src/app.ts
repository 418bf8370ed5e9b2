import type { MikroORM } from '@mikro-orm/postgresql'
import { auditTrailRoutes, createLogger, createServiceApp, projectionTokenCheck, withTokenCheck, type GarbageCleaner, type Logger, type Storage, type TokenVerifier } from '@portal/server-kit'
import { adminCertificationRoutes } from './certification-types/certification-type.routes.ts'
import { createCertificationTypeService } from './certification-types/certification-type.service.ts'
import { certificationRoutes, isProofUpload } from './certifications/certification.routes.ts'
import { createCertificationService } from './certifications/certification.service.ts'
import type { CertsContext } from './context.ts'
import { createPromotionService } from './promotions/promotion.service.ts'
import { revenueRoutes } from './revenue/revenue.routes.ts'
import { createRevenueService } from './revenue/revenue.service.ts'
import { managerRoutes, reportRoutes } from './team/team.routes.ts'
import { createTeamService } from './team/team.service.ts'
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
}

/** Certs' Hono app (paths without the gateway's `/api`) and its services. */
export function createApp(deps: AppDeps) {
  const logger = deps.logger ?? createLogger('certs')
  const ctx: CertsContext = { orm: deps.orm, logger, now: deps.clock ?? (() => new Date()), storage: deps.storage, garbage: deps.garbage }
  const types = createCertificationTypeService(ctx)
  const certifications = createCertificationService(ctx)
  const technicians = createTechnicianService(ctx)
  const revenue = createRevenueService(ctx)
  const promotions = createPromotionService(ctx)
  const team = createTeamService(ctx, { technicians, revenue, promotions })
  const app = createServiceApp({
    service: 'certs',
    logger,
    ownBodyLimit: isProofUpload,
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
  app.route('/admin/audit/certs', auditTrailRoutes(deps.orm, 'certs', verifier))
  return { app, ctx, types, certifications, technicians, revenue, promotions, team }
}
