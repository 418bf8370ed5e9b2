import type { MikroORM } from '@mikro-orm/postgresql'
import { bandNotificationType, noticeBand, type EventType, type NoticeBand, type NoticeMail } from '@portal/contracts'
import { configKey, notificationRepository as repo, type ActiveConfig, type LogRow, type NoticeFacts } from './notification.repository.ts'

// The facts a notice is written from are the repository's (`NoticeFacts`, `FACTS_FROM`; the expiry benchmark reads the latter here).
export { FACTS_FROM, configKey, type ActiveConfig, type NoticeFacts } from './notification.repository.ts'

/** Links a notice carries. */
export interface NoticeLinks {
  /** The portal's public address, without a trailing slash. */
  base: string
  /** The signed acknowledgement link of a manager escalation's notice id. */
  acknowledgeUrl: (noticeId: string) => Promise<string>
}

export const noticeTechnician = (f: NoticeFacts, base: string) => ({
  userId: f.user_id,
  name: f.name,
  email: f.email,
  branch: f.branch,
  department: f.department,
  profileUrl: `${base}/technician/profile`,
  teamProfileUrl: `${base}/manager/technician/${f.user_id}`,
})
export const noticeCertification = (f: NoticeFacts) => ({
  userCertificationId: f.id,
  certificationTypeId: f.certification_id,
  code: f.code,
  name: f.cert_name,
  expirationDate: f.expiration_date,
  daysLeft: Number(f.days_left),
  trainingLink: f.training_link,
})

/** A log row of a notice about `f`. */
export const logOf = (f: NoticeFacts, o: Pick<LogRow, 'notice_id' | 'run_id' | 'notification_type' | 'recipient_emails' | 'status' | 'sent_at'>): LogRow => ({
  ...o,
  user_id: f.user_id,
  technician_name: f.name,
  branch: f.branch,
  department: f.department,
  technician_certification_id: f.id,
  certification_id: f.certification_id,
  certification_code: f.code,
  certification_name: f.cert_name,
  expiration_date: f.expiration_date,
  days_until_expiry: Number(f.days_left),
})

const unique = (emails: (string | null)[]) => [...new Set(emails.filter((e): e is string => Boolean(e)).map((e) => e.toLowerCase()))]

/**
 * The notices of one band for one certification: the technician's own (withheld and logged as
 * paused while their notifications are paused), the manager's escalation at 7 days and the
 * operations manager's and additional addresses' once expired, band 0: the day after the
 * expiration date (a pause silences reminders, not compliance).
 */
export async function noticesFor(f: NoticeFacts, band: NoticeBand, config: ActiveConfig | undefined, links: NoticeLinks, runId: number | null, at: Date) {
  const sentAt = at.toISOString()
  const notices: NoticeMail[] = []
  const logs: LogRow[] = []
  const ownType = bandNotificationType(band)
  const own = crypto.randomUUID()
  if (f.paused) logs.push(logOf(f, { notice_id: own, run_id: runId, notification_type: ownType, recipient_emails: [f.email], status: 'paused', sent_at: sentAt }))
  else {
    notices.push({ noticeId: own, notificationType: ownType, to: [f.email] })
    logs.push(logOf(f, { notice_id: own, run_id: runId, notification_type: ownType, recipient_emails: [f.email], status: 'queued', sent_at: sentAt }))
  }
  if (band === 7 && config?.manager_email) {
    const id = crypto.randomUUID()
    const to = [config.manager_email]
    notices.push({ noticeId: id, notificationType: 'manager_escalation', to, acknowledgeUrl: await links.acknowledgeUrl(id) })
    logs.push(logOf(f, { notice_id: id, run_id: runId, notification_type: 'manager_escalation', recipient_emails: to, status: 'queued', sent_at: sentAt }))
  }
  if (band === 0 && config) {
    const to = unique([config.operations_manager_email, config.additional_email_1, config.additional_email_2])
    if (to.length > 0) {
      const id = crypto.randomUUID()
      notices.push({ noticeId: id, notificationType: 'ops_escalation', to })
      logs.push(logOf(f, { notice_id: id, run_id: runId, notification_type: 'ops_escalation', recipient_emails: to, status: 'queued', sent_at: sentAt }))
    }
  }
  const event =
    notices.length === 0
      ? null
      : {
          type: (band === 0 ? 'certs.certification.expired.v1' : 'certs.certification.expiring.v1') as EventType,
          data: { band, technician: noticeTechnician(f, links.base), certification: noticeCertification(f), notices },
        }
  return { event, logs, paused: f.paused ? 1 : 0, published: notices.length }
}

export interface DailyCheckOptions {
  orm: MikroORM
  today: string
  at: Date
  runId: number
  links: NoticeLinks
  /** Certifications per transaction. */
  batchSize?: number
  /** Between batches: a stop request ends the run early (the next run goes on from there). */
  stopping?: () => boolean
  /** Called after each committed batch (tests stop a run there). */
  afterBatch?: (batch: number) => Promise<void> | void
}

/**
 * The daily check: every certification within 30 days of expiry (or past it) whose current band's
 * notice has not gone yet. Each batch claims the notices' unique keys, writes the log and the
 * outbox events in one transaction, so a run stopped at any point and the next one send each
 * notice exactly once, and two runs at once cannot both claim one.
 */
export async function runDailyCheck(opts: DailyCheckOptions): Promise<{ published: number; paused: number }> {
  const batchSize = opts.batchSize ?? 2000
  let published = 0
  let paused = 0
  // One scan finds what is due (the bare read any check needs); the batches then claim it.
  const due = await repo.due(opts.orm.em.fork(), opts.today, opts.at)
  for (let batch = 1, from = 0; from < due.length; batch++, from += batchSize) {
    if (opts.stopping?.()) break
    const rows = due.slice(from, from + batchSize)
    const em = opts.orm.em.fork()
    const done = await em.transactional(async (tx) => {
      const bands = rows.map((r) => noticeBand(Number(r.days_left))!)
      // Another run may have claimed some meanwhile: only what this insert returns is ours.
      const mine = await repo.claimNotices(
        tx,
        opts.runId,
        rows.map((r, i) => ({ id: r.id, exp: r.expiration_date, band: bands[i]! })),
      )
      const configs = await repo.activeConfigs(tx)
      const logs: LogRow[] = []
      const events: { type: EventType; data: unknown }[] = []
      let pub = 0
      let pau = 0
      for (const [i, f] of rows.entries()) {
        if (!mine.has(f.id)) continue
        const n = await noticesFor(f, bands[i]!, configs.get(configKey(f.branch, f.department)), opts.links, opts.runId, opts.at)
        logs.push(...n.logs)
        if (n.event) events.push(n.event)
        pub += n.published
        pau += n.paused
      }
      await repo.insertLogs(tx, logs)
      await repo.insertEvents(tx, events, opts.at)
      await repo.countRun(tx, opts.runId, pub, pau)
      return { pub, pau }
    })
    published += done.pub
    paused += done.pau
    await opts.afterBatch?.(batch)
  }
  return { published, paused }
}
