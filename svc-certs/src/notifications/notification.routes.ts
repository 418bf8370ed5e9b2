import { Hono } from 'hono'
import { z } from 'zod'
import {
  AcknowledgeBody,
  CERT_NOTIFICATION_MESSAGES as M,
  ConfigPathParams,
  DashboardQuery,
  NotificationConfigInput,
  NotificationLogsQuery,
  SendReminderBody,
  StatsQuery,
} from '@portal/contracts'
import { AppError, authenticate, requireAdmin, validate, type AppEnv, type TokenVerifier } from '@portal/server-kit'
import { IdParam } from '../shared/index.ts'
import type { NotificationService } from './notification.service.ts'

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
    .get('/acknowledge', validate('query', AcknowledgeBody), (c) => {
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
    })
    .post('/acknowledge', async (c) => {
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
    })

/** `/certification-notifications` (admin §7): admins only. */
export const notificationRoutes = (svc: NotificationService, verifier: TokenVerifier) =>
  new Hono<AppEnv>()
    .use(authenticate(verifier), requireAdmin)
    .get('/configs', async (c) => c.json({ configs: await svc.configs() }))
    .get('/configs/:branch/:department', validate('param', ConfigPathParams), async (c) => {
      const p = c.req.valid('param')
      return c.json({ config: await svc.config(p.branch, p.department) })
    })
    .put('/configs/:id{[0-9]+}', validate('param', IdParam), validate('json', NotificationConfigInput), async (c) =>
      c.json({ message: M.configUpdated, config: await svc.updateConfig(c.get('actor'), c.req.valid('param').id, c.req.valid('json')) }),
    )
    .get('/logs', validate('query', NotificationLogsQuery), async (c) => c.json({ logs: await svc.logs(c.req.valid('query')) }))
    .get('/dashboard', validate('query', DashboardQuery), async (c) => c.json(await svc.dashboard(c.req.valid('query'))))
    .get('/stats', validate('query', StatsQuery), async (c) => c.json(await svc.stats(c.req.valid('query'))))
    .get('/forecast', async (c) => c.json(await svc.forecast()))
    .post('/trigger/:kind{daily|weekly}', validate('param', z.object({ kind: z.enum(['daily', 'weekly']) })), async (c) => {
      const kind = c.req.valid('param').kind
      const run = await svc.trigger(kind)
      return c.json({ message: kind === 'daily' ? M.dailyTriggered : M.weeklyTriggered, run })
    })
    .post('/send-reminder', validate('json', SendReminderBody), async (c) => c.json(await svc.sendReminder(c.req.valid('json').technician_certification_id)))
