import type { Hono } from 'hono'
import type { MikroORM } from '@mikro-orm/postgresql'
import {
  ProjectedUser,
  closeOnSignal,
  createLogger,
  createNatsBus,
  createTokenVerifier,
  createUserProjection,
  listen,
  openDatabase,
  publicUrl,
  serviceDatabaseUrl,
  startOutboxRelay,
  trustedProxies,
  type AppEnv,
  type EventBus,
  type KeySource,
  type Logger,
  type PlatformEnv,
  type Subscription,
} from '@portal/server-kit'
import { createApp } from './app.ts'
import { createCertsMailHandler, subscribeCertsMail } from './consumers/certs.consumer.ts'
import { createTeamReminderMailHandler, subscribeTeamReminderMail } from './consumers/team-reminder.consumer.ts'
import { createIdentityMailHandler, subscribeIdentityMail } from './consumers/identity.consumer.ts'
import { createGroupsHandler, subscribeGroups } from './consumers/groups.consumer.ts'
import { createLearningHandler, subscribeLearning } from './consumers/learning.consumer.ts'
import { startReportScheduler } from './group-reports/report-scheduler.ts'
import type { RuleService } from './group-reports/rule.service.ts'
import { learningFacts } from './group-reports/learning-facts.repository.ts'
import { EmailDelivery } from './deliveries/delivery.entity.ts'
import { createDeliveryRepository } from './deliveries/delivery.repository.ts'
import { startDeliverySender, type SenderOptions } from './deliveries/delivery.sender.ts'
import { createMailboxTransport } from './mail/mailbox-transport.ts'
import { createSmtpTransport } from './mail/smtp-transport.ts'
import { MailboxEntry } from './mailbox/mailbox-message.entity.ts'
import { createMailboxRepository } from './mailbox/mailbox.repository.ts'
import { loadNotifyEnv } from './env.ts'
import { migrationsList } from './migrations/index.ts'

export interface NotifyDeps {
  env: PlatformEnv
  logger: Logger
  bus: EventBus
  port: number
  hostname?: string
  /** Identity's public keys: its JWKS URL in cluster mode, a document or getter in single-node. */
  jwks: KeySource
  /** Full URL of notify's own database; default: its database on env.DATABASE_URL's server (tests pass a fresh one). */
  databaseUrl?: string
  /** Tuning of the delivery sender (tests use short retry delays). */
  sender?: Partial<SenderOptions>
  /** Current time (tests move it). */
  clock?: () => Date
}

/** Durable consumer name of notify's projection of identity's users (and its inbox key). */
export const USERS_CONSUMER = 'notify-users'

/** Every entity of notify's database. */
export const entities = [EmailDelivery, MailboxEntry, ProjectedUser]

/**
 * Starts svc-notify: its database, the sender, the outbox relay (delivery outcomes of
 * certification notices), the durable subscriptions to identity's mail and user events, certs'
 * notices and reminders and learning's events, and the HTTP app. `close()` stops all of it but not
 * the bus (the caller owns it).
 */
export async function start(deps: NotifyDeps): Promise<{ port: number; app: Hono<AppEnv>; orm: MikroORM; rules: RuleService; close(): Promise<void> }> {
  const { env, logger } = deps
  const db = await openDatabase({
    service: 'notify',
    url: deps.databaseUrl ?? (env.DATABASE_URL ? serviceDatabaseUrl(env.DATABASE_URL, 'notify') : undefined),
    dataDir: env.DATA_DIR,
    entities,
    migrations: migrationsList,
    logger,
  })
  const mailbox = env.SMTP_URL ? null : createMailboxRepository(db.orm)
  const transport = env.SMTP_URL ? createSmtpTransport({ url: env.SMTP_URL, from: env.MAIL_FROM }) : createMailboxTransport(mailbox!)
  const deliveries = createDeliveryRepository(db.orm)
  const sender = startDeliverySender({ deliveries, transport, logger, options: deps.sender })
  sender.kick() // whatever was pending when the last process stopped
  const relay = startOutboxRelay({ orm: db.orm, bus: deps.bus, logger })
  const users = createUserProjection({ orm: db.orm, logger, consumer: USERS_CONSUMER, onDeleted: learningFacts.dropUser })
  const verifier = createTokenVerifier(deps.jwks, { issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE })
  const { app, rules } = createApp({ orm: db.orm, verifier, logger, mailbox, deliveries, kick: sender.kick, senderCounts: sender.counts, clock: deps.clock })
  const scheduler = startReportScheduler({ rules, logger })
  const subscriptions: Subscription[] = []
  let server: Awaited<ReturnType<typeof listen>> | undefined
  const stopAll = async () => {
    scheduler.stop()
    for (const s of subscriptions) await s.stop()
    await relay.stop()
    await sender.stop()
    await transport.close()
    await db.close()
  }
  try {
    subscriptions.push(await subscribeIdentityMail(deps.bus, createIdentityMailHandler({ orm: db.orm, deliveries, logger, onQueued: sender.kick })))
    subscriptions.push(await users.subscribe(deps.bus))
    // The launchers set PUBLIC_URL from the gateway's port.
    subscriptions.push(await subscribeTeamReminderMail(deps.bus, createTeamReminderMailHandler({ orm: db.orm, deliveries, logger, onQueued: sender.kick, portalUrl: publicUrl(env) })))
    subscriptions.push(await subscribeCertsMail(deps.bus, createCertsMailHandler({ orm: db.orm, deliveries, logger, onQueued: sender.kick })))
    subscriptions.push(await subscribeGroups(deps.bus, createGroupsHandler({ orm: db.orm, logger })))
    subscriptions.push(await subscribeLearning(deps.bus, createLearningHandler({ orm: db.orm, deliveries, rules, logger, onQueued: sender.kick })))
    await users.requestBackfill()
    relay.kick()
    server = await listen(app, deps.port, deps.hostname, { trustedProxies: trustedProxies(env.TRUSTED_PROXIES) })
    logger.info('svc-notify listening', { port: server.port, transport: transport.kind })
    const running = server
    return {
      port: running.port,
      app,
      orm: db.orm,
      rules,
      async close() {
        await running.close()
        await stopAll()
      },
    }
  } catch (err) {
    await server?.close()
    await stopAll()
    throw err
  }
}

// The cluster deployable: its own process with PostgreSQL, NATS JetStream and SMTP.
if (import.meta.main) {
  const { env, port, hostname, jwksUrl } = loadNotifyEnv()
  const logger = createLogger('notify', env.LOG_LEVEL)
  const bus = await createNatsBus({ url: env.NATS_URL!, logger })
  const service = await start({ env, logger, bus, port, hostname, jwks: new URL(jwksUrl) })
  closeOnSignal(logger, () => service.close(), () => bus.close())
}
