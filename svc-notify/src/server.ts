import type { Hono } from 'hono'
import {
  closeOnSignal,
  createLogger,
  createNatsBus,
  listen,
  openDatabase,
  serviceDatabaseUrl,
  startOutboxRelay,
  trustedProxies,
  type AppEnv,
  type EventBus,
  type Logger,
  type PlatformEnv,
} from '@portal/server-kit'
import { createApp } from './app.ts'
import { createCertsMailHandler, subscribeCertsMail } from './consumers/certs.consumer.ts'
import { createIdentityMailHandler, subscribeIdentityMail } from './consumers/identity.consumer.ts'
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
  /** Full URL of notify's own database; default: its database on env.DATABASE_URL's server (tests pass a fresh one). */
  databaseUrl?: string
  /** Tuning of the delivery sender (tests use short retry delays). */
  sender?: Partial<SenderOptions>
}

/**
 * Starts svc-notify: its database, the sender, the outbox relay (delivery outcomes of
 * certification notices), the durable subscriptions to identity's and certs' mail events and the
 * HTTP app. `close()` stops all of it but not the bus (the caller owns it).
 */
export async function start(deps: NotifyDeps): Promise<{ port: number; app: Hono<AppEnv>; close(): Promise<void> }> {
  const { env, logger } = deps
  const db = await openDatabase({
    service: 'notify',
    url: deps.databaseUrl ?? (env.DATABASE_URL ? serviceDatabaseUrl(env.DATABASE_URL, 'notify') : undefined),
    dataDir: env.DATA_DIR,
    entities: [EmailDelivery, MailboxEntry],
    migrations: migrationsList,
    logger,
  })
  const mailbox = env.SMTP_URL ? null : createMailboxRepository(db.orm)
  const transport = env.SMTP_URL ? createSmtpTransport({ url: env.SMTP_URL, from: env.MAIL_FROM }) : createMailboxTransport(mailbox!)
  const deliveries = createDeliveryRepository(db.orm)
  const sender = startDeliverySender({ deliveries, transport, logger, options: deps.sender })
  sender.kick() // whatever was pending when the last process stopped
  const relay = startOutboxRelay({ orm: db.orm, bus: deps.bus, logger })
  relay.kick()
  let subscription: Awaited<ReturnType<typeof subscribeIdentityMail>> | undefined
  let certsSubscription: Awaited<ReturnType<typeof subscribeCertsMail>> | undefined
  let server: Awaited<ReturnType<typeof listen>> | undefined
  try {
    const handler = createIdentityMailHandler({ orm: db.orm, deliveries, logger, onQueued: sender.kick })
    subscription = await subscribeIdentityMail(deps.bus, handler)
    certsSubscription = await subscribeCertsMail(deps.bus, createCertsMailHandler({ orm: db.orm, deliveries, logger, onQueued: sender.kick }))
    const app = createApp({
      logger,
      mailbox,
      ready: async () => {
        await db.orm.em.getConnection().execute('select 1')
      },
    })
    server = await listen(app, deps.port, deps.hostname, { trustedProxies: trustedProxies(env.TRUSTED_PROXIES) })
    logger.info('svc-notify listening', { port: server.port, transport: transport.kind })
    const running = server
    const sub = subscription
    const certsSub = certsSubscription
    return {
      port: running.port,
      app,
      async close() {
        await running.close()
        await sub.stop()
        await certsSub.stop()
        await sender.stop()
        await relay.stop()
        await transport.close()
        await db.close()
      },
    }
  } catch (err) {
    await server?.close()
    await subscription?.stop()
    await certsSubscription?.stop()
    await sender.stop()
    await relay.stop()
    await transport.close()
    await db.close()
    throw err
  }
}

// The cluster deployable: its own process with PostgreSQL, NATS JetStream and SMTP.
if (import.meta.main) {
  const { env, port, hostname } = loadNotifyEnv()
  const logger = createLogger('notify', env.LOG_LEVEL)
  const bus = await createNatsBus({ url: env.NATS_URL!, logger })
  const service = await start({ env, logger, bus, port, hostname })
  closeOnSignal(logger, () => service.close(), () => bus.close())
}
