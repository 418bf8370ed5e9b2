import { Hono } from 'hono'
import { z } from 'zod'
import { NotificationRule, NotificationRulesResponse, SaveTrackingBody, SendReportBody, SendReportResponse, TrackingConfig, UpdateNotificationRuleBody } from '@portal/contracts'
import { authenticate, doc, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import { IdParam } from '../shared/index.ts'
import type { RuleService } from './rule.service.ts'

const GroupParam = z.object({ group: z.string().trim().min(1).max(100) })

/** `/admin/notification-rules` (admin §7): the groups' rules, admins only. */
export const notificationRuleRoutes = (svc: RuleService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier), requireAdmin)
    .get('/', doc({ summary: "The user groups' notification rules", tags: ['Group reports'], responses: { 200: NotificationRulesResponse } }), async (c) =>
      c.json(await svc.list()),
    )
    .put(
      '/:id{[0-9]+}',
      doc({ summary: "Turns a group's rule on or off, or sets its recipients", tags: ['Group reports'], responses: { 200: NotificationRule, 404: null } }),
      validate('param', IdParam),
      validate('json', UpdateNotificationRuleBody),
      async (c) => c.json(await svc.update(c.get('actor'), c.req.valid('param').id, c.req.valid('json'))),
    )

/** `/email-reports/groups/{group}` (admin §7): tracking configuration and the test report, admins only. */
export const emailReportRoutes = (svc: RuleService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier), requireAdmin)
    .get(
      '/groups/:group/tracking',
      doc({ summary: "A group's report: its rule and tracked exams and courses", tags: ['Group reports'], responses: { 200: TrackingConfig, 404: null } }),
      validate('param', GroupParam),
      async (c) => c.json(await svc.tracking(c.req.valid('param').group)),
    )
    .put(
      '/groups/:group/tracking',
      doc({ summary: "Saves a group's tracked items and report schedule", tags: ['Group reports'], responses: { 200: TrackingConfig, 404: null } }),
      validate('param', GroupParam),
      validate('json', SaveTrackingBody),
      async (c) => c.json(await svc.saveTracking(c.get('actor'), c.req.valid('param').group, c.req.valid('json'))),
    )
    .post(
      '/groups/:group/send-report',
      doc({ summary: "Sends a group's report now (a test report by default)", tags: ['Group reports'], responses: { 200: SendReportResponse, 404: null } }),
      validate('param', GroupParam),
      validate('json', SendReportBody),
      async (c) => c.json(await svc.sendReport(c.get('actor'), c.req.valid('param').group, c.req.valid('json').reportType)),
    )
