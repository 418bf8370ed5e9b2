import type { Hono } from 'hono'
import type { MikroORM } from '@mikro-orm/postgresql'
import {
  auditTrailRoutes,
  createMetrics,
  createServiceApp,
  mailMetrics,
  projectionTokenCheck,
  serveOpenApi,
  serviceMetrics,
  withTokenCheck,
  type AppEnv,
  type Logger,
  type TokenVerifier,
} from '@portal/server-kit'
import { adminEmailRoutes, createAdminEmailService } from './admin-emails/index.ts'
import type { NotifyContext } from './context.ts'
import { type DeliveryRepository, NO_SENDS, type SenderCounts } from './deliveries/index.ts'
import { emailReportRoutes, notificationRuleRoutes, createRuleService, type RuleService } from './group-reports/index.ts'
import { mailboxRoutes, type MailboxStore } from './mailbox/index.ts'

export interface AppDeps {
  orm: MikroORM
  verifier: TokenVerifier
  logger: Logger
  /** The dev mailbox, or null when mail goes out by SMTP (the mailbox routes then answer 404). */
  mailbox: MailboxStore | null
  deliveries: DeliveryRepository
  /** Tells the sender that mails were queued. */
  kick?: () => void
  /** The sender's counts (sent, failed, interrupted attempts), served on /metrics with the queue and the request figures. */
  senderCounts?: () => SenderCounts
  /** Current time (tests move it). */
  clock?: () => Date
}

/** svc-notify's HTTP app (health, readiness, metrics, the dev mailbox, admin e-mails, group rules) and its rule service. */
export function createApp(deps: AppDeps): { app: Hono<AppEnv>; ctx: NotifyContext; rules: RuleService } {
  const ctx: NotifyContext = { orm: deps.orm, logger: deps.logger, now: deps.clock ?? (() => new Date()), deliveries: deps.deliveries, kick: deps.kick ?? (() => undefined) }
  const metrics = serviceMetrics() ?? createMetrics('notify')
  mailMetrics(metrics.registry, { queue: () => deps.deliveries.queueDepth(), sender: deps.senderCounts ?? (() => NO_SENDS) })
  const app = createServiceApp({
    service: 'notify',
    logger: deps.logger,
    metrics,
    ready: async () => {
      await deps.orm.em.getConnection().execute('select 1')
    },
  })
  // Every bearer route: tokens of deleted users, or older than the user's auth version, are refused.
  const verifier = withTokenCheck(deps.verifier, projectionTokenCheck(deps.orm))
  const rules = createRuleService(ctx)
  app.route('/', mailboxRoutes(deps.mailbox))
  app.route('/admin/emails', adminEmailRoutes(createAdminEmailService(ctx), verifier))
  app.route('/admin/notification-rules', notificationRuleRoutes(rules, verifier))
  app.route('/email-reports', emailReportRoutes(rules, verifier))
  app.route('/admin/audit/notify', auditTrailRoutes(deps.orm, 'notify', verifier))
  serveOpenApi(app, {
    service: 'notify',
    title: 'svc-notify',
    description: "E-mail: the admins' addresses, the user groups' report rules and the dev mailbox. The mails themselves follow other services' events.",
  })
  return { app, ctx, rules }
}
