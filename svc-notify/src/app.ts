import type { Hono } from 'hono'
import { createServiceApp, type AppEnv, type Logger } from '@portal/server-kit'
import { mailboxRoutes } from './mailbox/mailbox.routes.ts'
import type { MailboxStore } from './mailbox/mailbox.repository.ts'

export interface AppDeps {
  logger: Logger
  /** The dev mailbox, or null when mail goes out by SMTP (the mailbox routes then answer 404). */
  mailbox: MailboxStore | null
  /** Readiness check (database ping). */
  ready?: () => Promise<void>
}

/** svc-notify's HTTP app: health, readiness, metrics and the dev mailbox. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = createServiceApp({ service: 'notify', logger: deps.logger, ready: deps.ready })
  app.route('/', mailboxRoutes(deps.mailbox))
  return app
}
