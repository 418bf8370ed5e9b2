import { Hono } from 'hono'
import { createMiddleware } from 'hono/factory'
import { z } from 'zod'
import { MailboxMessage } from '@portal/contracts'
import { AppError, doc, validate, type AppEnv } from '@portal/server-kit'
import { mailboxPage, MAILBOX_PAGE_CSP } from './mailbox.page.ts'
import type { MailboxStore } from './mailbox.repository.ts'

/** Query of both mailbox views; `to` is matched case-insensitively. */
export const MailboxQuery = z.object({
  to: z
    .string()
    .trim()
    .max(320, 'to is too long')
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(z.email('to must be an e-mail address').optional()),
  limit: z.coerce.number().int('limit must be a whole number').min(1).max(500).default(100),
})

const tags = ['Dev mailbox']

/**
 * The dev mailbox: `GET /dev/mailbox` (JSON, `MailboxMessage[]`) and `GET /mailbox` (a page).
 * With `mailbox` null (mail goes out by SMTP) both answer 404.
 */
export const mailboxRoutes = (mailbox: MailboxStore | null) => {
  const off = createMiddleware<AppEnv>(async (_c, next) => {
    if (!mailbox) throw new AppError(404, 'mailbox_off', 'The dev mailbox is off: e-mail goes out by SMTP')
    await next()
  })
  return new Hono<AppEnv>()
    .use('/dev/mailbox', off)
    .use('/mailbox', off)
    .get(
      '/dev/mailbox',
      doc({
        summary: 'The dev mailbox: mails the portal sent, newest first',
        description: 'Only when mail goes to the dev mailbox (no SMTP_URL); otherwise 404 `mailbox_off`.',
        tags,
        roles: 'anyone (a development aid, off in deployments that send mail)',
        responses: { 200: z.array(MailboxMessage), 404: null },
      }),
      validate('query', MailboxQuery),
      async (c) => {
        return c.json(await mailbox!.list(c.req.valid('query')))
      },
    )
    .get(
      '/mailbox',
      doc({
        summary: 'The dev mailbox as a page',
        tags,
        roles: 'anyone (a development aid, off in deployments that send mail)',
        query: MailboxQuery,
        responses: { 200: { media: 'text/html', description: 'The page' }, 400: null, 404: null },
      }),
      async (c) => {
        c.header('Content-Security-Policy', MAILBOX_PAGE_CSP)
        c.header('X-Content-Type-Options', 'nosniff')
        c.header('Cache-Control', 'no-store')
        const query = MailboxQuery.safeParse(c.req.query())
        if (!query.success) {
          const to = c.req.query('to')
          return c.html(mailboxPage({ messages: [], to, error: query.error.issues[0]!.message }), 400)
        }
        return c.html(mailboxPage({ messages: await mailbox!.list(query.data), to: query.data.to }))
      },
    )
}
