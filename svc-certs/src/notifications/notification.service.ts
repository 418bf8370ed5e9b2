import {
  todayIn,
  BRANCHES,
  CERT_NOTIFICATIONS,
  CERT_NOTIFICATION_MESSAGES as M,
  DASHBOARD_GROUPS,
  compliancePercentage,
  expirationBadge,
  isExpired,
  type Branch,
  type CertificationDashboard,
  type ComplianceForecast,
  type DashboardItem,
  type Department,
  type EventData,
  type NotificationConfig,
  type NotificationLog,
  type NotificationStats,
} from '@portal/contracts'
import type { MikroORM } from '@mikro-orm/postgresql'
import { AppError, auditTrail, badRequest, conflict, notFound, recordEvent, type Actor } from '@portal/server-kit'
import type { z } from 'zod'
import type { DashboardQuery, NotificationConfigInput, NotificationLogsQuery, StatsQuery } from '@portal/contracts'
import type { AckSigner } from './acknowledgement.ts'
import { ledgerRepository } from '../compliance/index.ts'
import { logOf, noticeCertification, noticeTechnician } from './expiry-check.ts'
import { keptGroupsAnswer, notificationRepository as repo } from './notification.repository.ts'
import type { NotificationRunner, RunKind } from './notification.runner.ts'

export interface NotificationServiceDeps {
  orm: MikroORM
  now: () => Date
  base: string
  timeZone: string
  signer: AckSigner
  runner: NotificationRunner
}

/** A configuration as `certs.notification-config.changed.v1` announces it (migration 0010 writes the same in SQL). */
const configChanged = (c: NotificationConfig, at: Date): EventData<'certs.notification-config.changed.v1'> => ({
  configId: c.id,
  branch: c.branch,
  department: c.department,
  managerEmail: c.manager_email,
  operationsManagerEmail: c.operations_manager_email,
  isActive: c.is_active,
  at: at.toISOString(),
})

/** What an admin edits on a configuration. */
const CONFIG_FIELDS = ['manager_email', 'operations_manager_email', 'additional_email_1', 'additional_email_2', 'is_active'] as const

const configNotFound = () => notFound(M.configNotFound, 'config_not_found')
const DAY_MS = 86_400_000
const shiftDate = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10)

/**
 * Certification expiry notifications (admin §7 `/certification-notifications/...`): configurations,
 * log, dashboard, stats, manual triggers and reminders, plus the acknowledgement of escalations and
 * the compliance forecast.
 */
export function createNotificationService(deps: NotificationServiceDeps) {
  const { orm, now } = deps
  const today = () => todayIn(deps.timeZone, now())

  return {
    configs: (): Promise<NotificationConfig[]> => repo.configs(orm.em.fork()),

    async config(branch: Branch, department: Department): Promise<NotificationConfig> {
      const config = await repo.config(orm.em.fork(), branch, department)
      if (!config) throw configNotFound()
      return config
    },

    /**
     * PUT configs/{id}: the given fields; activating needs a manager or operations manager e-mail.
     * Audited (decision 0030); a change is announced as `certs.notification-config.changed.v1`.
     */
    async updateConfig(actor: Actor, id: number, input: z.output<typeof NotificationConfigInput>): Promise<NotificationConfig> {
      return orm.em.fork().transactional(async (em) => {
        const current = await repo.configForUpdate(em, id)
        if (!current) throw configNotFound()
        const next = { ...current }
        for (const key of CONFIG_FIELDS) if (input[key] !== undefined) (next as Record<string, unknown>)[key] = input[key]
        if (next.is_active && !next.manager_email && !next.operations_manager_email) throw badRequest(M.activateWithoutEmail, 'config_empty')
        const at = now()
        const updated = await repo.updateConfig(em, id, next, at)
        const changed = CONFIG_FIELDS.filter((k) => current[k] !== next[k])
        if (changed.length) {
          await auditTrail.record(em, actor, 'notification_config.updated', `${current.branch} / ${current.department}`, {
            before: Object.fromEntries(changed.map((k) => [k, current[k]])),
            after: Object.fromEntries(changed.map((k) => [k, next[k]])),
          })
          // Issue 24: svc-notify routes assignment escalations to the operations address (outbox, this transaction).
          recordEvent(em, 'certs.notification-config.changed.v1', configChanged(updated, at))
        }
        return updated
      })
    },

    logs: (q: z.output<typeof NotificationLogsQuery>): Promise<NotificationLog[]> => repo.logs(orm.em.fork(), q),

    /** GET dashboard: certifications expiring within `days` (and expired ones), grouped by band, with compliance. */
    async dashboard(q: z.output<typeof DashboardQuery>): Promise<CertificationDashboard> {
      const day = today()
      const at = now()
      // The list, the figures (with the kept group counts) and, for a window shorter than the
      // groups, the counts, at once, each on its own connection.
      const [rows, counted, compliance] = await Promise.all([
        repo.dashboardList(orm.em.fork(), day, at, q),
        q.limit !== undefined ? repo.dashboardCounts(orm.em.fork(), day, at, q) : null,
        ledgerRepository.figures(orm.em.fork(), day),
      ])
      const groups: Record<(typeof DASHBOARD_GROUPS)[number], DashboardItem[]> = { expired: [], critical: [], warning: [], notice: [] }
      // With a limit, the groups were counted apart (from the kept figures, or from the
      // certifications for a window that cuts a group); without, the lists are whole.
      const kept = q.limit !== undefined && keptGroupsAnswer(q) ? compliance.groups(q.branch) : null
      const totals: Partial<Record<string, number>> = kept ?? counted ?? {}
      for (const r of rows) {
        const days = Number(r.days_left)
        const group = expirationBadge(days)
        if (!group) continue
        groups[group].push({
          technician_certification_id: r.id,
          user: { id: r.user_id, name: r.name, email: r.email, branch: r.branch, department: r.department, notifications_paused: Boolean(r.paused) },
          certification: { id: r.certification_id, name: r.cert_name, code: r.code, tier_level: Number(r.tier_level) },
          expiration_date: r.expiration_date,
          days_until_expiry: days,
        })
      }
      const total = (group: (typeof DASHBOARD_GROUPS)[number]) => (kept || counted ? (totals[group] ?? 0) : groups[group].length)
      return {
        ...groups,
        counts: {
          expired: kept && !q.include_expired ? 0 : total('expired'),
          critical: total('critical'),
          warning: total('warning'),
          notice: total('notice'),
        },
        compliance: { organisation: compliance.organisation, branches: compliance.branches },
        generated_on: day,
      }
    },

    /** GET stats: log entries by type and status, per day and per branch (default: the last 30 days). */
    async stats(q: z.output<typeof StatsQuery>): Promise<NotificationStats> {
      const end = q.end_date ?? today()
      const start = q.start_date ?? shiftDate(end, -29)
      if (start > end) throw badRequest(M.invalidDateRange, 'invalid_range')
      if ((Date.parse(end) - Date.parse(start)) / DAY_MS >= CERT_NOTIFICATIONS.statsMaxDays) throw badRequest(M.rangeTooLong, 'range_too_long')
      const rows = await repo.stats(orm.em.fork(), start, end, deps.timeZone)
      const counts = () => ({ total: 0, by_type: {} as Record<string, number>, by_status: {} as Record<string, number> })
      const totals = counts()
      const days = new Map<string, ReturnType<typeof counts>>()
      const branches = new Map<string, ReturnType<typeof counts>>()
      const add = (c: ReturnType<typeof counts>, r: (typeof rows)[number]) => {
        c.total += r.n
        c.by_type[r.notification_type] = (c.by_type[r.notification_type] ?? 0) + r.n
        c.by_status[r.status] = (c.by_status[r.status] ?? 0) + r.n
      }
      for (const r of rows) {
        add(totals, r)
        add(days.get(r.day) ?? days.set(r.day, counts()).get(r.day)!, r)
        const b = r.branch || 'Unassigned'
        add(branches.get(b) ?? branches.set(b, counts()).get(b)!, r)
      }
      return {
        start_date: start,
        end_date: end,
        totals,
        days: [...days].sort(([a], [b]) => a.localeCompare(b)).map(([date, c]) => ({ date, ...c })),
        branches: [...branches].sort(([a], [b]) => a.localeCompare(b)).map(([branch, c]) => ({ branch, ...c })),
      }
    },

    trigger: (kind: RunKind) => deps.runner.trigger(kind),

    /**
     * POST send-reminder: one manual reminder to the technician about one certification, logged;
     * a technician whose notifications are paused gets none (409, logged as paused).
     */
    async sendReminder(id: number): Promise<{ message: string; log: NotificationLog }> {
      const at = now()
      const f = await repo.facts(orm.em.fork(), today(), at, id)
      if (!f) throw notFound(M.certificationNotFound, 'certification_not_found')
      if (f.expiration_date === null) throw badRequest(M.noExpiry, 'no_expiry')
      const noticeId = crypto.randomUUID()
      const log = logOf(f, {
        notice_id: noticeId,
        run_id: null,
        notification_type: 'manual_reminder',
        recipient_emails: [f.email],
        status: f.paused ? 'paused' : 'queued',
        sent_at: at.toISOString(),
      })
      await orm.em.fork().transactional(async (em) => {
        await repo.insertLogs(em, [log])
        if (!f.paused)
          recordEvent(em, 'certs.certification.reminder-requested.v1', {
            technician: noticeTechnician(f, deps.base),
            certification: noticeCertification(f),
            notice: { noticeId, notificationType: 'manual_reminder', to: [f.email] },
          })
      })
      // The paused entry stays in the log; the caller learns nothing was sent.
      if (f.paused) throw conflict(M.reminderPaused, 'notifications_paused')
      return { message: M.reminderSent, log: (await repo.logByNotice(orm.em.fork(), noticeId))! }
    },

    /** The acknowledgement of a manager escalation through its signed link (single use). */
    async acknowledge(token: string): Promise<{ message: string; log_id: number; acknowledged_at: string }> {
      const at = now()
      const noticeId = await deps.signer.verify(token, at)
      if (!noticeId) throw new AppError(400, 'ack_invalid', M.ackInvalid)
      const done = await repo.acknowledge(orm.em.fork(), noticeId, at)
      if (!done) throw (await repo.noticeLogged(orm.em.fork(), noticeId)) ? conflict(M.ackUsed, 'ack_used') : new AppError(400, 'ack_invalid', M.ackInvalid)
      return { message: M.acknowledged, log_id: done.id, acknowledged_at: done.acknowledged_at }
    },

    /** GET forecast: per branch, who is compliant today and falls out within 30, 60 and 90 days unless renewed. */
    async forecast(): Promise<ComplianceForecast> {
      const day = today()
      const horizons = [...CERT_NOTIFICATIONS.forecastHorizons]
      const max = Math.max(...horizons)
      const techs = await repo.technicianExpiries(orm.em.fork(), day, max)
      return {
        generated_on: day,
        horizons,
        branches: BRANCHES.map((branch) => {
          const mine = techs.filter((t) => t.branch === branch)
          const compliantNow = mine.filter((t) => !t.items.some((i) => isExpired(i.days_left)))
          return {
            branch,
            technicians: mine.length,
            compliant_now: compliantNow.length,
            percentage_now: compliancePercentage(compliantNow.length, mine.length),
            horizons: horizons.map((days) => {
              const falling = compliantNow
                .map((t) => ({ t, first: t.items.find((i) => isExpired(i.days_left - days)) }))
                .filter((x) => x.first !== undefined)
                .map(({ t, first }) => ({
                  user_id: t.user_id,
                  name: t.name,
                  department: t.department,
                  certification: { id: first!.certification_id, code: first!.code, name: first!.name },
                  technician_certification_id: first!.id,
                  expiration_date: first!.expiration_date,
                  days_until_expiry: first!.days_left,
                }))
              const compliant = compliantNow.length - falling.length
              return { days, falling_out: falling, compliant, percentage: compliancePercentage(compliant, mine.length) }
            }),
          }
        }),
      }
    },
  }
}
export type NotificationService = ReturnType<typeof createNotificationService>
