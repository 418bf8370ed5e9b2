import type { MikroORM } from '@mikro-orm/postgresql'
import {
  auditAdminChanges,
  auditTrailRoutes,
  createLogger,
  createMetrics,
  createServiceApp,
  serveOpenApi,
  projectionTokenCheck,
  serviceMetrics,
  withTokenCheck,
  type GarbageCleaner,
  type Logger,
  type SecretBox,
  type Storage,
  type TokenVerifier,
} from '@portal/server-kit'
import { attemptRoutes, createAttemptService, type AttemptService, adminExamRoutes, examRoutes, createExamService } from './exams/index.ts'
import { COURSE_UPLOAD, DEFAULT_COMPANY_TIME_ZONE, todayIn } from '@portal/contracts'
import type { LearningContext, UploadLimits } from './context.ts'
import type { LaunchTokens } from './shared/index.ts'
import { statsRoutes, createStatsService } from './stats/index.ts'
import {
  adminCourseRoutes,
  contentCompletion,
  contentRoutes,
  courseProgressRoutes,
  courseRoutes,
  createContentService,
  createCourseService,
  createIngestWorker,
  createProgressService,
  createScormEditorService,
  createScormService,
  moduleRoutes,
  scormEditorAdminRoutes,
  scormEditorRoutes,
  scormRoutes,
} from './courses/index.ts'
import { LEARNING_AUDITED, LearningAuditAnswer } from './audit.ts'
import { createItemAnalysisService, itemAnalysisRoutes } from './item-analysis/index.ts'
import { adminAssignmentRuleRoutes, createAssignmentService, myAssignmentRoutes } from './assignments/index.ts'
import { cmi5Routes, createCmi5Service } from './cmi5/index.ts'
import { createLrs, LRS_SECURITY_SCHEME } from './lrs/index.ts'
import { createStatementSender, createXapiOutService, forwardQueueMetrics, lrsForwardingRoutes, type SenderOptions } from './xapi-out/index.ts'

export interface AppDeps {
  orm: MikroORM
  verifier: TokenVerifier
  /** Current time (tests move it past deadlines). */
  clock?: () => Date
  logger?: Logger
  storage: Storage
  /** Removes the storage nothing refers to any more (the kit's, started with the service). */
  garbage: GarbageCleaner
  launchTokens: LaunchTokens
  uploadLimits?: Partial<UploadLimits>
  /** Where course content is served (see LearningContext.contentOrigin). */
  contentOrigin?: string
  /** The company's time zone (default America/Los_Angeles). */
  timeZone?: string
  /** Statements out's sender: its interval and backoff (tests shorten them). */
  statementsOut?: Pick<SenderOptions, 'intervalMs' | 'backoff' | 'timeoutMs'>
  /** Seals stored secrets (`loadServiceSecretBox`). */
  secrets: SecretBox
}

/** Learning's Hono app (paths without the gateway's `/api`), and the attempt service the sweeper drives. */
export function createApp(deps: AppDeps) {
  const logger = deps.logger ?? createLogger('learning')
  const now = deps.clock ?? (() => new Date())
  const timeZone = deps.timeZone ?? DEFAULT_COMPANY_TIME_ZONE
  const ctx: LearningContext = {
    orm: deps.orm,
    logger,
    now,
    storage: deps.storage,
    launchTokens: deps.launchTokens,
    secrets: deps.secrets,
    uploadLimits: {
      maxFileBytes: deps.uploadLimits?.maxFileBytes ?? COURSE_UPLOAD.maxFileBytes,
      maxRequestBytes: deps.uploadLimits?.maxRequestBytes ?? COURSE_UPLOAD.maxRequestBytes,
      maxFiles: deps.uploadLimits?.maxFiles ?? COURSE_UPLOAD.maxFiles,
    },
    contentOrigin: (deps.contentOrigin ?? '').replace(/\/$/, ''),
    timeZone,
    today: () => todayIn(timeZone, now()),
  }
  // Every bearer route: tokens of deleted users, or older than the user's auth version, are refused.
  const verifier = withTokenCheck(deps.verifier, projectionTokenCheck(deps.orm))
  const exams = createExamService(ctx)
  const attempts: AttemptService = createAttemptService(ctx)
  const stats = createStatsService(ctx, attempts)
  // Background parts of the courses slice; `start()` of server.ts runs them (kicks are no-ops until then).
  const garbage = deps.garbage
  const ingest = createIngestWorker(ctx)
  const courses = createCourseService(ctx, { garbage, ingest })
  const metrics = serviceMetrics() ?? createMetrics('learning')
  const app = createServiceApp({
    service: 'learning',
    logger,
    metrics,
    maxBodyBytes: 1024 * 1024,
    ready: async () => {
      await deps.orm.em.getConnection().execute('select 1')
    },
  })
  // Learner-side course runtime; `/courses/with-progress` before the courses routes (`/courses/:id`).
  app.use(auditAdminChanges(deps.orm, LEARNING_AUDITED, LearningAuditAnswer))
  const progress = createProgressService(ctx, { contentCompletion })
  const content = createContentService(ctx)
  const scorm = createScormService(ctx)
  app.route('/courses', courseProgressRoutes(progress, verifier))
  app.route('/modules', moduleRoutes(progress, content, verifier))
  app.route('/scorm', scormRoutes(scorm, verifier, deps.launchTokens, metrics))
  app.route('/scorm-editor', scormEditorRoutes(scorm, verifier))
  app.route('/scorm-editor', scormEditorAdminRoutes(createScormEditorService(ctx), ctx, verifier))
  app.route('/content', contentRoutes(content, deps.launchTokens, deps.storage))
  // cmi5 (issue 26): launches, AU statuses, waivers and the fetch URL; its runtime judges the LRS's statements (onStatements).
  const cmi5 = createCmi5Service(ctx)
  app.route('/cmi5', cmi5Routes(cmi5, verifier, logger))
  // The learning record store AUs report to (xAPI 1.0.3, the session's auth-token).
  app.route('/lrs', createLrs(ctx, { onStatements: (em, session, statements) => cmi5.onStatements(em, session, statements), judges: cmi5.judges }))
  app.route('/exams', attemptRoutes(attempts, verifier))
  app.route('/exams', examRoutes(exams, verifier))
  app.route('/admin/exams', adminExamRoutes(exams, verifier))
  app.route('/admin/exams', itemAnalysisRoutes(createItemAnalysisService(ctx), verifier))
  app.route('/users', statsRoutes(stats, verifier))
  app.route('/courses', courseRoutes(courses, verifier))
  app.route('/admin/courses', adminCourseRoutes(courses, verifier))
  // Training that is due (issue 24): admins' rules and reports, each learner's own list.
  const assignments = createAssignmentService(ctx)
  app.route('/admin/assignment-rules', adminAssignmentRuleRoutes(assignments, verifier))
  app.route('/assignments', myAssignmentRoutes(assignments, verifier))
  app.route('/admin/audit/learning', auditTrailRoutes(deps.orm, 'learning', verifier))
  // Statements out (issue 26): the external LRS's settings; the sender (a job of server.ts) goes at once when they are saved.
  const statementsOut = createStatementSender({ orm: deps.orm, logger, now, secrets: deps.secrets, ...deps.statementsOut })
  forwardQueueMetrics(metrics.registry, deps.orm)
  app.route('/admin/lrs-forwarding', lrsForwardingRoutes(createXapiOutService(ctx, { onSaved: statementsOut.kick }), verifier))
  serveOpenApi(app, {
    service: 'learning',
    title: 'svc-learning',
    description:
      'Courses and their modules (SCORM, cmi5, files), progress, exams and attempts, assignments, the learning record store and statements out. Content files, SCORM commits, the LRS and the cmi5 fetch URL are served on the content origin only.',
    securitySchemes: { [LRS_SECURITY_SCHEME]: { type: 'http', scheme: 'basic', description: "The launch's auth-token (cmi5 fetch URL) as `Authorization: Basic <auth-token>`" } },
  })
  return { app, attempts, ctx, courses, ingest, garbage, cmi5, statementsOut }
}
