import { Hono } from 'hono'
import { z } from 'zod'
import { SaveTrackingBody, SendReportBody, UpdateNotificationRuleBody } from '@portal/contracts'
import { authenticate, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import { IdParam } from '../shared/index.ts'
import type { RuleService } from './rule.service.ts'

const GroupParam = z.object({ group: z.string().trim().min(1).max(100) })

/** `/admin/notification-rules` (admin §7): the groups' rules, admins only. */
export const notificationRuleRoutes = (svc: RuleService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier), requireAdmin)
    .get('/', async (c) => c.json(await svc.list()))
    .put('/:id{[0-9]+}', validate('param', IdParam), validate('json', UpdateNotificationRuleBody), async (c) =>
      c.json(await svc.update(c.get('actor'), c.req.valid('param').id, c.req.valid('json'))),
    )

/** `/email-reports/groups/{group}` (admin §7): tracking configuration and the test report, admins only. */
export const emailReportRoutes = (svc: RuleService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier), requireAdmin)
    .get('/groups/:group/tracking', validate('param', GroupParam), async (c) => c.json(await svc.tracking(c.req.valid('param').group)))
    .put('/groups/:group/tracking', validate('param', GroupParam), validate('json', SaveTrackingBody), async (c) =>
      c.json(await svc.saveTracking(c.get('actor'), c.req.valid('param').group, c.req.valid('json'))),
    )
    .post('/groups/:group/send-report', validate('param', GroupParam), validate('json', SendReportBody), async (c) =>
      c.json(await svc.sendReport(c.get('actor'), c.req.valid('param').group, c.req.valid('json').reportType)),
    )
