import { ProjectedUser, createUserProjection, defineService, publicUrl, runServiceProcess, startedJob, type ServeOptions, type ServiceDeps } from '@portal/server-kit'
import { createApp } from './app.ts'
import { createCertsMailHandler, subscribeCertsMail } from './consumers/certs.consumer.ts'
import { createTeamReminderMailHandler, subscribeTeamReminderMail } from './consumers/team-reminder.consumer.ts'
import { createIdentityMailHandler, subscribeIdentityMail } from './consumers/identity.consumer.ts'
import { createGroupsHandler, subscribeGroups } from './consumers/groups.consumer.ts'
import { createLearningHandler, subscribeLearning } from './consumers/learning.consumer.ts'
import { createAssignmentsHandler, subscribeAssignments } from './consumers/assignments.consumer.ts'
import { createCertsConfigsHandler, createCertsPausesHandler, subscribeCertsConfigs, subscribeCertsPauses } from './consumers/certs-org.consumer.ts'
import { createAssignmentDigests, orgRepository, reminderRepository, type DigestOptions } from './assignment-reminders/index.ts'
import { startReportScheduler } from './group-reports/report-scheduler.ts'
import { learningFacts } from './group-reports/learning-facts.repository.ts'
import { EmailDelivery } from './deliveries/delivery.entity.ts'
import { createDeliveryRepository } from './deliveries/delivery.repository.ts'
import { NO_SENDS, startDeliverySender, type SenderOptions } from './deliveries/delivery.sender.ts'
import { createMailboxTransport } from './mail/mailbox-transport.ts'
import { createSmtpTransport } from './mail/smtp-transport.ts'
import { MailboxEntry } from './mailbox/mailbox-message.entity.ts'
import { createMailboxRepository } from './mailbox/mailbox.repository.ts'
import { loadDigestSettings, loadNotifyEnv } from './env.ts'
import { migrationsList } from './migrations/index.ts'

/** What notify adds to the platform's parts. */
export interface NotifyOptions {
  /** Tuning of the delivery sender (tests use short retry delays). */
  sender?: Partial<SenderOptions>
  /** The training-due digests (default: DIGEST_SETTLE_MS and COMPANY_TIME_ZONE; tests settle faster). */
  digest?: Partial<DigestOptions>
}

/** Durable consumer name of notify's projection of identity's users (and its inbox key). */
export const USERS_CONSUMER = 'notify-users'

/** Every entity of notify's database. */
export const entities = [EmailDelivery, MailboxEntry, ProjectedUser]

/**
 * svc-notify: e-mail deliveries (SMTP, or the dev mailbox without SMTP_URL), admin e-mails, group
 * reports and the training-due digests. Beside the platform's parts: the delivery sender, the report
 * scheduler and the digest sender, and the durable subscriptions to identity's mail and user
 * events, certs' notices, reminders, notification configurations and pauses, and learning's events
 * (completions, assignment reminders). Its outbox carries the delivery outcomes of certification notices.
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
    const senderCounts = () => sender.running?.counts() ?? NO_SENDS
    const { app, ctx: notify, rules } = createApp({ orm, verifier, logger, mailbox, deliveries, kick, senderCounts, clock })
    // The launchers set PUBLIC_URL from the gateway's port.
    const portalUrl = publicUrl(env)
    const digests = createAssignmentDigests({ orm, deliveries, logger, now: clock, portalUrl, kick, options: { ...loadDigestSettings(), ...deps.digest } })
    const onDeleted = async (em: Parameters<typeof learningFacts.dropUser>[0], userId: string) => {
      await learningFacts.dropUser(em, userId)
      await reminderRepository.dropUser(em, userId)
      await orgRepository.dropUser(em, userId)
    }
    return {
      app,
      users: createUserProjection({ orm, logger, consumer: USERS_CONSUMER, onDeleted }),
      consumers: [
        (bus) => subscribeIdentityMail(bus, createIdentityMailHandler({ orm, deliveries, logger, onQueued: kick })),
        (bus) => subscribeTeamReminderMail(bus, createTeamReminderMailHandler({ orm, deliveries, logger, onQueued: kick, portalUrl })),
        (bus) => subscribeCertsMail(bus, createCertsMailHandler({ orm, deliveries, logger, onQueued: kick })),
        (bus) => subscribeGroups(bus, createGroupsHandler({ orm, logger })),
        (bus) => subscribeLearning(bus, createLearningHandler({ orm, deliveries, rules, logger, onQueued: kick })),
        (bus) => subscribeCertsConfigs(bus, createCertsConfigsHandler({ orm, logger })),
        (bus) => subscribeCertsPauses(bus, createCertsPausesHandler({ orm, logger })),
        (bus) => subscribeAssignments(bus, createAssignmentsHandler({ orm, logger, now: clock })),
      ],
      jobs: [sender, startedJob(() => startReportScheduler({ rules, logger })), digests.job()],
      close: () => transport.close(),
      describe: () => ({ transport: transport.kind }),
      parts: { rules, ctx: notify, deliveries, mailbox, digests },
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
