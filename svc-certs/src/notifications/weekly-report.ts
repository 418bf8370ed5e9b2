import type { MikroORM } from '@mikro-orm/postgresql'
import { isExpired, type ComplianceReportNotice } from '@portal/contracts'
import { ledgerRepository } from '../compliance/index.ts'
import { notificationRepository as repo } from './notification.repository.ts'

/** Monday of the week `today` falls in (`YYYY-MM-DD`). */
export function weekOf(today: string): string {
  const d = new Date(`${today}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7))
  return d.toISOString().slice(0, 10)
}

/**
 * The weekly management report: each active configuration with a manager e-mail gets its branch
 * and department's compliance as one e-mail. A scheduled report goes once per configuration and
 * week (its key commits with the log and the event); a manual run sends a fresh one.
 */
export async function runWeeklyReport(opts: { orm: MikroORM; today: string; at: Date; runId: number; base: string; period: 'week' | 'run' }): Promise<{ published: number }> {
  const em = opts.orm.em.fork()
  const configs = await repo.reportConfigs(em)
  const week = weekOf(opts.today)
  const period = opts.period === 'week' ? `week:${week}` : `run:${opts.runId}`
  let published = 0
  for (const config of configs) {
    const where = { branch: config.branch, department: config.department }
    const [figures, technicians] = await Promise.all([ledgerRepository.figures(em, opts.today, where), repo.technicianExpiries(em, opts.today, 30, where)])
    const noticeId = crypto.randomUUID()
    const data: ComplianceReportNotice = {
      notice: { noticeId, notificationType: 'weekly_report', to: [config.manager_email] },
      branch: config.branch,
      department: config.department,
      weekOf: week,
      compliance: figures.organisation,
      dashboardUrl: `${opts.base}/manager/dashboard`,
      technicians: technicians
        .filter((t) => t.items.length > 0)
        .map((t) => {
          const item = (i: (typeof t.items)[number]) => ({ code: i.code, name: i.name, expirationDate: i.expiration_date, daysLeft: i.days_left })
          return {
            userId: t.user_id,
            name: t.name,
            profileUrl: `${opts.base}/manager/technician/${t.user_id}`,
            expired: t.items.filter((i) => isExpired(i.days_left)).map(item),
            expiringSoon: t.items.filter((i) => !isExpired(i.days_left)).map(item),
          }
        }),
    }
    const sent = await em.fork().transactional(async (tx) => {
      if (!(await repo.claimReport(tx, config.id, period))) return false
      await repo.insertLogs(tx, [
        {
          notice_id: noticeId,
          run_id: opts.runId,
          user_id: null,
          technician_name: null,
          branch: config.branch,
          department: config.department,
          technician_certification_id: null,
          certification_id: null,
          certification_code: null,
          certification_name: null,
          notification_type: 'weekly_report',
          recipient_emails: [config.manager_email],
          status: 'queued',
          expiration_date: null,
          days_until_expiry: null,
          sent_at: opts.at.toISOString(),
        },
      ])
      await repo.insertEvents(tx, [{ type: 'certs.compliance.report-compiled.v1', data }], opts.at)
      await repo.countRun(tx, opts.runId, 1, 0)
      return true
    })
    if (sent) published++
  }
  return { published }
}
