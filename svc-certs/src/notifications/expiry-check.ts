import type { EntityManager, MikroORM } from '@mikro-orm/postgresql'
import {
  bandNotificationType,
  noticeBand,
  type Branch,
  type Department,
  type EventType,
  type NoticeBand,
  type NoticeMail,
} from '@portal/contracts'
import { insertEvents, insertLogs, type LogRow } from './notice-store.ts'

/** A technician's certification with what its notices need. */
export interface NoticeFacts {
  id: number
  user_id: string
  certification_id: number
  expiration_date: string
  days_left: number
  name: string
  email: string
  branch: Branch | null
  department: Department | null
  code: string
  cert_name: string
  training_link: string | null
  tier_level: number
  paused: boolean
}

/** The columns of NoticeFacts; `?` is today's date. Deleted users are left out. */
export const FACTS_FROM = `select tc.id, tc.user_id, tc.certification_id, tc.expiration_date::text as expiration_date,
         (tc.expiration_date - ?::date) as days_left, u.name, u.email, u.branch, u.department,
         ct.code, ct.name as cert_name, ct.training_link, ct.tier_level,
         coalesce(t.notifications_paused_until > ?::timestamptz, false) as paused
    from technician_certifications tc
    join users u on u.id = tc.user_id and u.deleted_at is null
    join certification_types ct on ct.id = tc.certification_id
    left join technicians t on t.user_id = tc.user_id`

/** A configuration's addresses, by `branch|department` (active ones only). */
export interface ActiveConfig {
  id: number
  branch: Branch
  department: Department
  manager_email: string | null
  operations_manager_email: string | null
  additional_email_1: string | null
  additional_email_2: string | null
}
export const configKey = (branch: string | null, department: string | null) => `${branch}|${department}`

export async function activeConfigs(em: EntityManager): Promise<Map<string, ActiveConfig>> {
  const rows = (await em.execute(
    `select id, branch, department, manager_email, operations_manager_email, additional_email_1, additional_email_2
       from notification_configs where is_active`,
  )) as ActiveConfig[]
  return new Map(rows.map((r) => [configKey(r.branch, r.department), r]))
}

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
  const due = (await opts.orm.em.fork().execute(
    `${FACTS_FROM}
      cross join lateral (select tc.expiration_date - ?::date as days_left) d
      where tc.expiration_date <= ?::date + 30
        and not exists (select 1 from notification_notices n
                         where n.technician_certification_id = tc.id and n.expiration_date = tc.expiration_date
                           and n.band <= certs_notice_band(d.days_left))
      order by tc.id`,
    [opts.today, opts.at, opts.today, opts.today],
  )) as NoticeFacts[]
  for (let batch = 1, from = 0; from < due.length; batch++, from += batchSize) {
    if (opts.stopping?.()) break
    const rows = due.slice(from, from + batchSize)
    const em = opts.orm.em.fork()
    const done = await em.transactional(async (tx) => {
      const bands = rows.map((r) => noticeBand(Number(r.days_left))!)
      // Another run may have claimed some meanwhile: only what this insert returns is ours.
      const claimed = (await tx.execute(
        `insert into notification_notices (technician_certification_id, expiration_date, band, run_id)
         select x.id, x.exp::date, x.band, ? from jsonb_to_recordset(?::jsonb) as x(id integer, exp text, band smallint)
         on conflict do nothing returning technician_certification_id as id`,
        [opts.runId, JSON.stringify(rows.map((r, i) => ({ id: r.id, exp: r.expiration_date, band: bands[i] })))],
      )) as { id: number }[]
      const mine = new Set(claimed.map((c) => c.id))
      const configs = await activeConfigs(tx)
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
      await insertLogs(tx, logs)
      await insertEvents(tx, events, opts.at)
      await tx.execute('update notification_runs set published = published + ?, paused = paused + ? where id = ?', [pub, pau, opts.runId])
      return { pub, pau }
    })
    published += done.pub
    paused += done.pau
    await opts.afterBatch?.(batch)
  }
  return { published, paused }
}
