import { Hono } from 'hono'
import { z } from 'zod'
import {
  AcknowledgeBody,
  AcknowledgeResponse,
  CertificationDashboard,
  CertReminderResponse,
  ComplianceForecast,
  NotificationConfigResponse,
  NotificationConfigsResponse,
  NotificationLogsResponse,
  NotificationStats,
  TriggerResponse,
  CERT_NOTIFICATION_MESSAGES as M,
  ConfigPathParams,
  DashboardQuery,
  NotificationConfigInput,
  NotificationLogsQuery,
  SendReminderBody,
  StatsQuery,
} from '@portal/contracts'
import { AppError, authenticate, doc, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import { IdParam } from '../shared/index.ts'
import type { NotificationService } from './notification.service.ts'

const tags = ['Expiry notifications']
const htmlPage = { media: 'text/html', description: 'A page' }
const escape = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
/** The small page the e-mailed link opens (a page with a button, so mail scanners that fetch links acknowledge nothing). */
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title></head>` +
  `<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem"><h1 style="font-size:1.4rem">${escape(title)}</h1>${body}</body></html>`

/**
 * The manager's acknowledgement of a 7-day escalation (beyond the spec; decision 0027): public,
 * the signed token is the credential. GET shows a confirmation button; POST (the button's form,
 * or JSON) records it once.
 */
export const acknowledgementRoutes = (svc: NotificationService) =>
  new Hono<AppEnv>()
    .get(
      '/acknowledge',
      doc({
        summary: "The e-mailed escalation link's confirmation page",
        tags,
        roles: 'anyone holding the signed token the e-mail carries',
        responses: { 200: htmlPage, 400: null },
      }),
      validate('query', AcknowledgeBody),
      (c) => {
        const token = escape(c.req.valid('query').token)
        return c.html(
          page(
            'Acknowledge certification escalation',
            `<p>Confirm that you have seen this escalation. The acknowledgement is recorded in the notification log.</p>` +
              `<form method="post"><input type="hidden" name="token" value="${token}"><button type="submit">Acknowledge</button></form>`,
          ),
          200,
          { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
        )
      },
    )
    .post(
      '/acknowledge',
      doc({
        summary: "Records a manager's acknowledgement of an escalation, once",
        description: 'The confirmation page posts the form (answered with a page); a client may post JSON (answered with JSON).',
        tags,
        roles: 'anyone holding the signed token the e-mail carries',
        body: { media: 'application/json', schema: AcknowledgeBody, description: 'Or the same field as a form (`application/x-www-form-urlencoded`)' },
        responses: { 200: AcknowledgeResponse, 400: null, 404: null, 409: null },
      }),
      async (c) => {
        const form = !(c.req.header('content-type') ?? '').includes('application/json')
        const raw = form ? Object.fromEntries(Object.entries(await c.req.parseBody()).map(([k, v]) => [k, String(v)])) : await c.req.json().catch(() => ({}))
        const parsed = AcknowledgeBody.safeParse(raw)
        try {
          if (!parsed.success) throw new AppError(400, 'ack_invalid', M.ackInvalid)
          const result = await svc.acknowledge(parsed.data.token)
          return form ? c.html(page('Escalation acknowledged', `<p>${escape(result.message)}</p>`)) : c.json(result)
        } catch (err) {
          if (!form || !(err instanceof AppError)) throw err
          return c.html(page('Acknowledgement not recorded', `<p>${escape(err.message)}</p>`), err.status as 400)
        }
      },
    )

/** `/certification-notifications` (admin §7): admins only. */
export const notificationRoutes = (svc: NotificationService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier), requireAdmin)
    .get('/configs', doc({ summary: 'The notification settings of every branch and department', tags, responses: { 200: NotificationConfigsResponse } }), async (c) =>
      c.json({ configs: await svc.configs() }),
    )
    .get(
      '/configs/:branch/:department',
      doc({ summary: "A branch and department's notification settings", tags, responses: { 200: NotificationConfigResponse, 404: null } }),
      validate('param', ConfigPathParams),
      async (c) => {
        const p = c.req.valid('param')
        return c.json({ config: await svc.config(p.branch, p.department) })
      },
    )
    .put(
      '/configs/:id{[0-9]+}',
      doc({ summary: 'Edits notification settings', tags, responses: { 200: NotificationConfigResponse, 404: null } }),
      validate('param', IdParam),
      validate('json', NotificationConfigInput),
      async (c) => c.json({ message: M.configUpdated, config: await svc.updateConfig(c.get('actor'), c.req.valid('param').id, c.req.valid('json')) }),
    )
    .get('/logs', doc({ summary: 'The notification log', tags, responses: { 200: NotificationLogsResponse } }), validate('query', NotificationLogsQuery), async (c) =>
      c.json({ logs: await svc.logs(c.req.valid('query')) }),
    )
    .get(
      '/dashboard',
      doc({ summary: 'Expiring and expired certifications with compliance figures', tags, responses: { 200: CertificationDashboard } }),
      validate('query', DashboardQuery),
      async (c) => c.json(await svc.dashboard(c.req.valid('query'))),
    )
    .get('/stats', doc({ summary: 'Notification counts by type and status', tags, responses: { 200: NotificationStats } }), validate('query', StatsQuery), async (c) =>
      c.json(await svc.stats(c.req.valid('query'))),
    )
    .get('/forecast', doc({ summary: 'Compliance forecast: who falls out of compliance and when', tags, responses: { 200: ComplianceForecast } }), async (c) =>
      c.json(await svc.forecast()),
    )
    .post(
      '/trigger/:kind{daily|weekly}',
      doc({ summary: 'Runs the daily check or the weekly reports now', tags, responses: { 200: TriggerResponse, 409: { description: 'A run is going on elsewhere' } } }),
      validate('param', z.object({ kind: z.enum(['daily', 'weekly']) })),
      async (c) => {
        const kind = c.req.valid('param').kind
        const run = await svc.trigger(kind)
        return c.json({ message: kind === 'daily' ? M.dailyTriggered : M.weeklyTriggered, run })
      },
    )
    .post(
      '/send-reminder',
      doc({ summary: 'Sends a technician a reminder of one certification', tags, responses: { 200: CertReminderResponse, 404: null } }),
      validate('json', SendReminderBody),
      async (c) => c.json(await svc.sendReminder(c.req.valid('json').technician_certification_id)),
    )
