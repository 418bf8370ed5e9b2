import { ProjectedUser, createUserProjection, defineService, publicUrl, runServiceProcess, startedJob, type ServeOptions, type ServiceDeps } from '@portal/server-kit'
import { createApp } from './app.ts'
import { createCertsMailHandler, subscribeCertsMail } from './consumers/certs.consumer.ts'
import { createTeamReminderMailHandler, subscribeTeamReminderMail } from './consumers/team-reminder.consumer.ts'
import { createIdentityMailHandler, subscribeIdentityMail } from './consumers/identity.consumer.ts'
import { createGroupsHandler, subscribeGroups } from './consumers/groups.consumer.ts'
import { createLearningHandler, subscribeLearning } from './consumers/learning.consumer.ts'
import { startReportScheduler } from './group-reports/report-scheduler.ts'
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

/** What notify adds to the platform's parts. */
export interface NotifyOptions {
  /** Tuning of the delivery sender (tests use short retry delays). */
  sender?: Partial<SenderOptions>
}

/** Durable consumer name of notify's projection of identity's users (and its inbox key). */
export const USERS_CONSUMER = 'notify-users'

/** Every entity of notify's database. */
export const entities = [EmailDelivery, MailboxEntry, ProjectedUser]

/**
 * svc-notify: e-mail deliveries (SMTP, or the dev mailbox without SMTP_URL), admin e-mails and
 * group reports. Beside the platform's parts: the delivery sender and the report scheduler, and
 * the durable subscriptions to identity's mail and user events, certs' notices and reminders and
 * learning's events. Its outbox carries the delivery outcomes of certification notices.
 */
export const notifyService = defineService({
  name: 'notify',
  entities,
  migrations: migrationsList,
  features(ctx, deps: ServiceDeps & NotifyOptions) {
    const { orm, verifier, logger, clock, env } = ctx
    const mailbox = env.SMTP_URL ? null : createMailboxRepository(orm)
    const transport = env.SMTP_URL ? createSmtpTransport({ url: env.SMTP_URL, from: env.MAIL_FROM }) : createMailboxTransport(mailbox!)
    const deliveries = createDeliveryRepository(orm)
    // Sends whatever was pending when the last process stopped, then what the consumers queue.
    const sender = startedJob(() => {
      const running = startDeliverySender({ deliveries, transport, logger, options: deps.sender })
      running.kick()
      return running
    })
    const kick = () => sender.running?.kick()
    const senderCounts = () => sender.running?.counts() ?? { unknownOutcomeResends: 0, foundAccepted: 0 }
    const { app, ctx: notify, rules } = createApp({ orm, verifier, logger, mailbox, deliveries, kick, senderCounts, clock })
    return {
      app,
      users: createUserProjection({ orm, logger, consumer: USERS_CONSUMER, onDeleted: learningFacts.dropUser }),
      consumers: [
        (bus) => subscribeIdentityMail(bus, createIdentityMailHandler({ orm, deliveries, logger, onQueued: kick })),
        // The launchers set PUBLIC_URL from the gateway's port.
        (bus) => subscribeTeamReminderMail(bus, createTeamReminderMailHandler({ orm, deliveries, logger, onQueued: kick, portalUrl: publicUrl(env) })),
        (bus) => subscribeCertsMail(bus, createCertsMailHandler({ orm, deliveries, logger, onQueued: kick })),
        (bus) => subscribeGroups(bus, createGroupsHandler({ orm, logger })),
        (bus) => subscribeLearning(bus, createLearningHandler({ orm, deliveries, rules, logger, onQueued: kick })),
      ],
      jobs: [sender, startedJob(() => startReportScheduler({ rules, logger }))],
      close: () => transport.close(),
      describe: () => ({ transport: transport.kind }),
      parts: { rules, ctx: notify, deliveries, mailbox },
    }
  },
})

export interface NotifyDeps extends ServiceDeps, NotifyOptions, ServeOptions {}

/** Starts svc-notify; `close()` stops all of it but not the bus (the caller owns it). */
export const start = (deps: NotifyDeps) => notifyService.start(deps)

// The cluster deployable: its own process with PostgreSQL, NATS JetStream and SMTP.
if (import.meta.main) {
  const { env, port, hostname, jwksUrl } = loadNotifyEnv()
  await runServiceProcess('notify', env, ({ logger, bus }) => start({ env, logger, bus, port, hostname, jwks: new URL(jwksUrl) }))
}
