import { sqlConditions } from '@portal/server-kit'
import type { EntityManager } from '@mikro-orm/postgresql'
import {
  BRANCHES,
  DEPARTMENTS,
  EXPIRY_BANDS,
  Events,
  type Branch,
  type CertNotificationType,
  type Department,
  type EventType,
  type NotificationConfig,
  type NotificationLog,
  type NotificationStatus,
  type TriggerResponse,
} from '@portal/contracts'
import { TECHNICIAN_CONDITIONS } from '../compliance/index.ts'

/**
 * Every statement of the certification expiry notifications (decision 0046): configurations, the
 * notification log, the runs and the notices they claim, the acknowledgement key, Certification
 * Notification Management's list and counts, and the facts a notice is written from. Values are
 * bound (`?`), never spliced; rows are mapped here, so the services see typed objects.
 */

export type RunKind = 'daily' | 'weekly'
export type RunTrigger = 'schedule' | 'manual'
export type RunOutcome = TriggerResponse['run']

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

async function activeConfigs(em: EntityManager): Promise<Map<string, ActiveConfig>> {
  const rows = (await em.execute(
    `select id, branch, department, manager_email, operations_manager_email, additional_email_1, additional_email_2
       from notification_configs where is_active`,
  )) as ActiveConfig[]
  return new Map(rows.map((r) => [configKey(r.branch, r.department), r]))
}

/** A dashboard request's rows: the window, expired ones or not, one branch, and at most `limit` of each group. */
export interface DashboardFilter {
  days: number
  include_expired: boolean
  branch?: Branch | undefined
  limit?: number | undefined
}

/** Whether the kept figures' group counts are the window's: every group whole (the groups past the window are left out). */
export const keptGroupsAnswer = (q: Pick<DashboardFilter, 'days'>) => q.days >= EXPIRY_BANDS.notice

/** The groups' day ranges, from the badge's bands (`expirationBadge`, `certs_badge`): [from, to] days left, to included. */
const GROUP_DAYS = [
  ['expired', null, -1],
  ['critical', 0, EXPIRY_BANDS.critical],
  ['warning', EXPIRY_BANDS.critical + 1, EXPIRY_BANDS.warning],
  ['notice', EXPIRY_BANDS.warning + 1, EXPIRY_BANDS.notice],
] as const

/**
 * Certification Notification Management's list (also run bare by the benchmark's ceiling): the
 * certifications expiring within `days` of `today` (and the expired ones unless left out), with
 * what a row shows, soonest first. With `limit` (the screen), the first of each group, each read
 * along the expiry index and stopped there, so 10,000 technicians' thousands of due certifications
 * are counted, not all sent. The groups' totals are the kept figures' (`ledgerRepository.figures`'
 * `groups`) when the window holds every group whole (`days` reaching the notice band's 60); for a
 * shorter window, which cuts a group, `counts` counts them from the certifications.
 */
export function dashboardStatements(today: string, at: Date, q: DashboardFilter): { list: { sql: string; params: unknown[] }; counts?: { sql: string; params: unknown[] } } {
  const branchFilter = (params: unknown[]) => (q.branch ? (params.push(q.branch), ' and u.branch = ?') : '')
  /** The window: due within `days`, expired ones only when included, one branch when given. */
  const within = (params: unknown[]) => {
    params.push(today, q.days)
    let filter = ' and tc.expiration_date <= ?::date + ?::int'
    if (!q.include_expired) {
      filter += ' and tc.expiration_date >= ?::date'
      params.push(today)
    }
    return filter + branchFilter(params)
  }
  if (q.limit === undefined) {
    const params: unknown[] = [today, at]
    return { list: { sql: `${FACTS_FROM} where not u.is_admin${within(params)}\n          order by tc.expiration_date, tc.id`, params } }
  }
  // One part a group in the window (the critical group always is: `days` is at least 1).
  const parts: string[] = []
  const params: unknown[] = []
  for (const [, from, to] of GROUP_DAYS) {
    if (from === null && !q.include_expired) continue
    const upto = Math.min(to, q.days)
    if (from !== null && from > upto) continue
    params.push(today, at)
    let range = ''
    if (from !== null) {
      range += ' and tc.expiration_date >= ?::date + ?::int'
      params.push(today, from)
    }
    range += ' and tc.expiration_date <= ?::date + ?::int'
    params.push(today, upto)
    const filter = branchFilter(params)
    params.push(q.limit)
    parts.push(`(${FACTS_FROM} where not u.is_admin${range}${filter}\n          order by tc.expiration_date, tc.id limit ?)`)
  }
  const list = { sql: `select * from (${parts.join('\n union all ')}) d\n order by d.expiration_date, d.id`, params }
  if (keptGroupsAnswer(q)) return { list }
  const countParams: unknown[] = [today]
  const countFilter = within(countParams)
  return {
    list,
    counts: {
      sql: `select certs_badge(certs_days_left(tc.expiration_date, ?::date)) as badge, count(*)::int as n
              from technician_certifications tc join users u on u.id = tc.user_id and u.deleted_at is null
             where not u.is_admin${countFilter}
             group by 1`,
      params: countParams,
    },
  }
}

export interface TechnicianExpiries {
  user_id: string
  name: string
  branch: Branch | null
  department: Department | null
  /** The technician's certifications that expire (soonest first), with days left. */
  items: { id: number; certification_id: number; code: string; name: string; expiration_date: string; days_left: number }[]
}

/**
 * Each technician (of one branch and department when given) with their certifications that expire
 * within `horizonDays` or have expired, soonest first.
 */
async function technicianExpiries(em: EntityManager, today: string, horizonDays: number, where: { branch?: Branch; department?: Department } = {}): Promise<TechnicianExpiries[]> {
  const params: unknown[] = [today, today, horizonDays]
  let filter = ''
  if (where.branch) {
    filter += ' and u.branch = ?'
    params.push(where.branch)
  }
  if (where.department) {
    filter += ' and u.department = ?'
    params.push(where.department)
  }
  const rows = (await em.execute(
    `select u.id as user_id, u.name, u.branch, u.department,
            coalesce(jsonb_agg(jsonb_build_object('id', tc.id, 'certification_id', tc.certification_id, 'code', ct.code, 'name', ct.name,
                       'expiration_date', tc.expiration_date::text, 'days_left', certs_days_left(tc.expiration_date, ?::date))
                     order by tc.expiration_date, tc.id) filter (where tc.id is not null), '[]'::jsonb) as items
       from users u
       left join technician_certifications tc on tc.user_id = u.id and tc.expiration_date <= ?::date + ?::int
       left join certification_types ct on ct.id = tc.certification_id
      where ${TECHNICIAN_CONDITIONS.join(' and ')}${filter}
      group by u.id, u.name, u.branch, u.department
      order by u.name, u.id`,
    params,
  )) as (Omit<TechnicianExpiries, 'items'> & { items: TechnicianExpiries['items'] | string })[]
  return rows.map((r) => ({ ...r, items: typeof r.items === 'string' ? JSON.parse(r.items) : r.items }))
}

/** A log row to write (admin §3 Notification log), one per e-mail notice or withheld notice. */
export interface LogRow {
  notice_id: string
  run_id: number | null
  user_id: string | null
  technician_name: string | null
  branch: Branch | null
  department: Department | null
  technician_certification_id: number | null
  certification_id: number | null
  certification_code: string | null
  certification_name: string | null
  notification_type: CertNotificationType
  recipient_emails: string[]
  status: NotificationStatus
  expiration_date: string | null
  days_until_expiry: number | null
  sent_at: string
}

const LOG_COLUMNS = `notice_id uuid, run_id integer, user_id uuid, technician_name text, branch text, department text,
  technician_certification_id integer, certification_id integer, certification_code text, certification_name text,
  notification_type text, recipient_emails text[], status text, expiration_date date, days_until_expiry integer, sent_at timestamptz`

/** Writes log rows in one statement (through `em`, so they commit with the caller's transaction). */
async function insertLogs(em: EntityManager, rows: LogRow[]): Promise<void> {
  if (rows.length === 0) return
  await em.execute(
    `insert into notification_logs (notice_id, run_id, user_id, technician_name, branch, department, technician_certification_id,
       certification_id, certification_code, certification_name, notification_type, recipient_emails, status, expiration_date,
       days_until_expiry, sent_at)
     select x.* from jsonb_to_recordset(?::jsonb) as x(${LOG_COLUMNS})`,
    [JSON.stringify(rows)],
  )
}

/**
 * Records events in the outbox in one statement (a run records thousands): each is checked
 * against its schema as `recordEvent` does; the relay's interval publishes them after the commit.
 */
async function insertEvents(em: EntityManager, events: { type: EventType; data: unknown }[], at: Date): Promise<void> {
  if (events.length === 0) return
  const occurredAt = at.toISOString()
  const envelopes = events.map((e) => ({ id: crypto.randomUUID(), type: e.type, occurredAt, data: Events[e.type].parse(e.data) }))
  await em.execute(
    `insert into outbox (id, type, payload, occurred_at, attempts)
     select (e->>'id')::uuid, e->>'type', e, (e->>'occurredAt')::timestamptz, 0 from jsonb_array_elements(?::jsonb) as e`,
    [JSON.stringify(envelopes)],
  )
}

/** A log row as the API shows it (admin §3). */
export const LOG_SELECT = `id::int as id, sent_at, user_id, technician_name, branch, department, technician_certification_id,
  certification_id, certification_code, certification_name, notification_type, recipient_emails, status, error,
  expiration_date::text as expiration_date, days_until_expiry, acknowledged_at, delivered_at`

export interface LogRecord extends Omit<LogRow, 'notice_id' | 'run_id' | 'sent_at'> {
  id: number
  sent_at: Date | string
  error: string | null
  acknowledged_at: Date | string | null
  delivered_at: Date | string | null
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString())

export const toNotificationLog = (r: LogRecord) => ({
  id: Number(r.id),
  sent_at: iso(r.sent_at)!,
  technician: r.user_id ? { id: r.user_id, name: r.technician_name ?? '', branch: r.branch, department: r.department } : null,
  certification: r.certification_id !== null ? { id: r.certification_id, code: r.certification_code ?? '', name: r.certification_name ?? '' } : null,
  technician_certification_id: r.technician_certification_id,
  notification_type: r.notification_type,
  recipient_emails: r.recipient_emails ?? [],
  status: r.status,
  error: r.error,
  expiration_date: r.expiration_date,
  days_until_expiry: r.days_until_expiry,
  acknowledged_at: iso(r.acknowledged_at),
  delivered_at: iso(r.delivered_at),
})

// --- Configurations (admin §7)

export interface ConfigRow extends ActiveConfig {
  is_active: boolean
  created_at: Date
  updated_at: Date
}
const CONFIG_SELECT = 'id, branch, department, manager_email, operations_manager_email, additional_email_1, additional_email_2, is_active, created_at, updated_at'
const toConfig = (r: ConfigRow): NotificationConfig => ({
  ...r,
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
})
/** The spec's order: branches, then departments as listed. */
const configOrder = (a: NotificationConfig, b: NotificationConfig) =>
  BRANCHES.indexOf(a.branch) - BRANCHES.indexOf(b.branch) || DEPARTMENTS.indexOf(a.department) - DEPARTMENTS.indexOf(b.department)

/** What the log list filters on. */
export interface LogFilter {
  branch?: Branch | undefined
  notification_type?: CertNotificationType | undefined
  status?: NotificationStatus | undefined
  limit: number
}

/** One day, branch ('' for none), type and status of the log, counted. */
export interface StatsRow {
  day: string
  branch: string
  notification_type: string
  status: string
  n: number
}

export const notificationRepository = {
  /** Every configuration, in the spec's order. */
  async configs(em: EntityManager): Promise<NotificationConfig[]> {
    const rows = (await em.execute(`select ${CONFIG_SELECT} from notification_configs`)) as ConfigRow[]
    return rows.map(toConfig).sort(configOrder)
  },

  async config(em: EntityManager, branch: Branch, department: Department): Promise<NotificationConfig | null> {
    const rows = (await em.execute(`select ${CONFIG_SELECT} from notification_configs where branch = ? and department = ?`, [branch, department])) as ConfigRow[]
    return rows[0] ? toConfig(rows[0]) : null
  },

  /** A configuration locked for an update (inside the caller's transaction). */
  async configForUpdate(em: EntityManager, id: number): Promise<ConfigRow | null> {
    const rows = (await em.execute(`select ${CONFIG_SELECT} from notification_configs where id = ? for update`, [id])) as ConfigRow[]
    return rows[0] ?? null
  },

  async updateConfig(em: EntityManager, id: number, next: ConfigRow, at: Date): Promise<NotificationConfig> {
    const rows = (await em.execute(
      `update notification_configs set manager_email = ?, operations_manager_email = ?, additional_email_1 = ?, additional_email_2 = ?,
              is_active = ?, updated_at = ? where id = ? returning ${CONFIG_SELECT}`,
      [next.manager_email, next.operations_manager_email, next.additional_email_1, next.additional_email_2, next.is_active, at, id],
    )) as ConfigRow[]
    return toConfig(rows[0]!)
  },

  /** The active configurations' addresses, by `configKey(branch, department)`. */
  activeConfigs,

  /** The active configurations with a manager e-mail (the weekly report's recipients), in id order. */
  async reportConfigs(em: EntityManager): Promise<{ id: number; branch: Branch; department: Department; manager_email: string }[]> {
    return (await em.execute(
      `select id, branch, department, manager_email from notification_configs
        where is_active and manager_email is not null order by id`,
    )) as { id: number; branch: Branch; department: Department; manager_email: string }[]
  },

  // --- The notification log (admin §3)

  /** The newest entries first, filtered. */
  async logs(em: EntityManager, q: LogFilter): Promise<NotificationLog[]> {
    const filter = sqlConditions()
      .when(q.branch, 'branch = ?', q.branch)
      .when(q.notification_type, 'notification_type = ?', q.notification_type)
      .when(q.status, 'status = ?', q.status)
    const rows = (await em.execute(`select ${LOG_SELECT} from notification_logs ${filter.where} order by sent_at desc, id desc limit ?`, [
      ...filter.values,
      q.limit,
    ])) as LogRecord[]
    return rows.map(toNotificationLog)
  },

  async logByNotice(em: EntityManager, noticeId: string): Promise<NotificationLog | null> {
    const rows = (await em.execute(`select ${LOG_SELECT} from notification_logs where notice_id = ?`, [noticeId])) as LogRecord[]
    return rows[0] ? toNotificationLog(rows[0]) : null
  },

  insertLogs,
  insertEvents,

  /** Log entries from `start` to `end` (the company's days in `timeZone`), by day, branch, type and status. */
  async stats(em: EntityManager, start: string, end: string, timeZone: string): Promise<StatsRow[]> {
    const rows = (await em.execute(
      `select (sent_at at time zone ?)::date::text as day, coalesce(branch, '') as branch, notification_type, status, count(*)::int as n
         from notification_logs
        where sent_at >= (?::date)::timestamp at time zone ? and sent_at < (?::date + 1)::timestamp at time zone ?
        group by 1, 2, 3, 4`,
      [timeZone, start, timeZone, end, timeZone],
    )) as StatsRow[]
    return rows.map((r) => ({ ...r, n: Number(r.n) }))
  },

  /** Marks a manager escalation acknowledged once: the entry, or null when there is none not yet acknowledged. */
  async acknowledge(em: EntityManager, noticeId: string, at: Date): Promise<{ id: number; acknowledged_at: string } | null> {
    const rows = (await em.execute(
      `update notification_logs set acknowledged_at = ? where notice_id = ? and notification_type = 'manager_escalation' and acknowledged_at is null
       returning id::int as id, acknowledged_at`,
      [at, noticeId],
    )) as { id: number; acknowledged_at: Date }[]
    return rows[0] ? { id: rows[0].id, acknowledged_at: new Date(rows[0].acknowledged_at).toISOString() } : null
  },

  /** Whether the log has an entry of this notice. */
  async noticeLogged(em: EntityManager, noticeId: string): Promise<boolean> {
    const rows = (await em.execute('select 1 from notification_logs where notice_id = ?', [noticeId])) as unknown[]
    return rows.length > 0
  },

  /** A delivery outcome: a failure marks the entry failed (and stays), a delivery marks a queued entry sent; paused entries stay. */
  async recordOutcome(em: EntityManager, o: { noticeId: string; failed: boolean; error: string | null | undefined; at: string }): Promise<void> {
    await em.execute(
      `update notification_logs
          set status = case when ? then 'failed' when status = 'queued' then 'sent' else status end,
              error = case when ? then ? else error end,
              delivered_at = case when ? then delivered_at else coalesce(delivered_at, ?::timestamptz) end
        where notice_id = ? and status <> 'paused'`,
      [o.failed, o.failed, o.error ?? null, o.failed, o.at, o.noticeId],
    )
  },

  // --- Notices and their facts

  /** One technician's certification with what its notices need (deleted users' none). */
  async facts(em: EntityManager, today: string, at: Date, id: number): Promise<NoticeFacts | null> {
    const rows = (await em.execute(`${FACTS_FROM} where tc.id = ?`, [today, at, id])) as NoticeFacts[]
    return rows[0] ?? null
  },

  /** Every certification within 30 days of expiry (or past it) whose current band's notice has not gone yet, by id. */
  async due(em: EntityManager, today: string, at: Date): Promise<NoticeFacts[]> {
    return (await em.execute(
      `${FACTS_FROM}
        cross join lateral (select tc.expiration_date - ?::date as days_left) d
        where tc.expiration_date <= ?::date + 30
          and not exists (select 1 from notification_notices n
                           where n.technician_certification_id = tc.id and n.expiration_date = tc.expiration_date
                             and n.band <= certs_notice_band(d.days_left))
        order by tc.id`,
      [today, at, today, today],
    )) as NoticeFacts[]
  },

  /** Claims the notices' unique keys for a run: the certifications' ids this claim won (another run may hold the rest). */
  async claimNotices(em: EntityManager, runId: number, notices: { id: number; exp: string; band: number }[]): Promise<Set<number>> {
    const claimed = (await em.execute(
      `insert into notification_notices (technician_certification_id, expiration_date, band, run_id)
       select x.id, x.exp::date, x.band, ? from jsonb_to_recordset(?::jsonb) as x(id integer, exp text, band smallint)
       on conflict do nothing returning technician_certification_id as id`,
      [runId, JSON.stringify(notices)],
    )) as { id: number }[]
    return new Set(claimed.map((c) => c.id))
  },

  /** A scheduled report's key for its configuration and period: false when it was sent already. */
  async claimReport(em: EntityManager, configId: number, period: string): Promise<boolean> {
    const key = (await em.execute('insert into notification_report_keys (config_id, period) values (?, ?) on conflict do nothing returning config_id', [
      configId,
      period,
    ])) as unknown[]
    return key.length > 0
  },

  // --- Runs (decision 0026)

  async startManualRun(em: EntityManager, kind: RunKind, today: string, at: Date): Promise<number> {
    const rows = (await em.execute("insert into notification_runs (kind, trigger, run_date, started_at) values (?, 'manual', ?, ?) returning id", [kind, today, at])) as {
      id: number
    }[]
    return rows[0]!.id
  },

  /** Today's scheduled run: a new one, or the one that started today and did not finish; null when it finished. */
  async startScheduledRun(em: EntityManager, kind: RunKind, today: string, at: Date): Promise<number | null> {
    const rows = (await em.execute(
      `insert into notification_runs (kind, trigger, run_date, started_at) values (?, 'schedule', ?, ?)
       on conflict (kind, run_date) where trigger = 'schedule' do nothing returning id`,
      [kind, today, at],
    )) as { id: number }[]
    if (rows[0]) return rows[0].id
    const open = (await em.execute("select id from notification_runs where kind = ? and run_date = ? and trigger = 'schedule' and finished_at is null", [kind, today])) as {
      id: number
    }[]
    return open[0]?.id ?? null
  },

  async finishRun(em: EntityManager, id: number, at: Date): Promise<RunOutcome> {
    const rows = (await em.execute('update notification_runs set finished_at = ? where id = ? returning id, kind, started_at, finished_at, published, paused', [at, id])) as {
      id: number
      kind: RunKind
      started_at: Date
      finished_at: Date
      published: number
      paused: number
    }[]
    const r = rows[0]!
    return {
      id: r.id,
      kind: r.kind,
      started_at: new Date(r.started_at).toISOString(),
      finished_at: new Date(r.finished_at).toISOString(),
      published: r.published,
      paused: r.paused,
    }
  },

  /** Adds to a run's published and paused counts (in the transaction of what it counts). */
  async countRun(em: EntityManager, runId: number, published: number, paused: number): Promise<void> {
    await em.execute('update notification_runs set published = published + ?, paused = paused + ? where id = ?', [published, paused, runId])
  },

  /** The kinds of today's scheduled runs that did not finish. */
  async unfinishedScheduled(em: EntityManager, today: string): Promise<RunKind[]> {
    const rows = (await em.execute("select kind from notification_runs where trigger = 'schedule' and run_date = ? and finished_at is null", [today])) as {
      kind: RunKind
    }[]
    return rows.map((r) => r.kind)
  },

  // --- The acknowledgement links' key (decision 0027)

  /** The HMAC key, made once by the first instance that asks (`candidate`) and shared by all. */
  async ackKey(em: EntityManager, candidate: string): Promise<string> {
    await em.execute("insert into notification_secrets (name, value) values ('ack_key', ?) on conflict do nothing", [candidate])
    const rows = (await em.execute("select value from notification_secrets where name = 'ack_key'")) as { value: string }[]
    return rows[0]!.value
  },

  // --- Certification Notification Management (admin §7) and the forecast

  /** The dashboard's list (see `dashboardStatements`). */
  async dashboardList(em: EntityManager, today: string, at: Date, q: DashboardFilter): Promise<NoticeFacts[]> {
    const { list } = dashboardStatements(today, at, q)
    return (await em.execute(list.sql, list.params)) as NoticeFacts[]
  },

  /** The dashboard's group counts counted from the certifications, when the kept figures' cannot say them (null then). */
  async dashboardCounts(em: EntityManager, today: string, at: Date, q: DashboardFilter): Promise<Partial<Record<string, number>> | null> {
    const { counts } = dashboardStatements(today, at, q)
    if (!counts) return null
    const rows = (await em.execute(counts.sql, counts.params)) as { badge: string | null; n: number }[]
    return Object.fromEntries(rows.map((c) => [c.badge, Number(c.n)]))
  },

  technicianExpiries,
}
