import { Cron } from 'croner'
import type { EntityManager } from '@mikro-orm/postgresql'
import { NOTIFY_MESSAGES, SaveTrackingBody, UpdateNotificationRuleBody, type NotificationRule, type ReportMissing, type TrackingConfig } from '@portal/contracts'
import { AppError, auditTrail, badRequest, notFound, type Actor } from '@portal/server-kit'
import type { z } from 'zod'
import type { NotifyContext } from '../context.ts'
import { deliveryId } from '../deliveries/index.ts'
import { type RenderedEmail, renderEmail, groupReportEmail } from '../mail/index.ts'
import { buildGroupReport } from './report.ts'
import { ruleRepository as repo, toNotificationRule, type RuleRow } from './rule.repository.ts'

/** Scheduled reports go out at this hour (UTC) of their day. */
export const REPORT_HOUR_UTC = 7

/** The cron pattern of a scheduled rule: daily, weekly on its day, monthly on the 1st. */
export function reportPattern(rule: Pick<RuleRow, 'report_frequency' | 'report_day_of_week'>): string | null {
  switch (rule.report_frequency) {
    case 'daily':
      return `0 ${REPORT_HOUR_UTC} * * *`
    case 'weekly':
      return `0 ${REPORT_HOUR_UTC} * * ${rule.report_day_of_week ?? 1}`
    case 'monthly':
      return `0 ${REPORT_HOUR_UTC} 1 * *`
    default:
      return null
  }
}

/** The latest slot of a rule's schedule at `now` (null for immediate rules). */
export function latestSlot(rule: Pick<RuleRow, 'report_frequency' | 'report_day_of_week'>, now: Date): Date | null {
  const pattern = reportPattern(rule)
  return pattern ? (new Cron(pattern, { timezone: 'UTC' }).previousRuns(1, now)[0] ?? null) : null
}

const ruleNotFound = () => notFound(NOTIFY_MESSAGES.ruleNotFound, 'notification_rule_not_found')

/** Group notification rules (admin §2 User Groups & Notifications, §3, §4, §7): every change is audited. */
export function createRuleService(ctx: NotifyContext) {
  const { orm } = ctx
  const withItems = async (em: EntityManager, rows: RuleRow[]): Promise<NotificationRule[]> => {
    const items = await repo.items(
      em,
      rows.map((r) => r.id),
    )
    return rows.map((r) => toNotificationRule(r, items.get(r.id) ?? []))
  }
  const byGroup = async (em: EntityManager, group: string) => {
    const rule = await repo.findByGroup(em, group)
    if (!rule) throw notFound(NOTIFY_MESSAGES.groupNotFound, 'group_not_found')
    return rule
  }
  /** Queues one report to each recipient in `em`'s transaction; the report id keys the deliveries. */
  const queueReport = (em: EntityManager, recipients: string[], mail: RenderedEmail) => {
    const reportId = crypto.randomUUID()
    for (const to of recipients) ctx.deliveries.queue(em, { eventId: reportId, kind: 'group-report', to, ...mail })
  }

  return {
    async list(): Promise<NotificationRule[]> {
      const em = orm.em.fork()
      return withItems(em, await repo.list(em))
    },

    update: (actor: Actor, id: number, body: z.output<typeof UpdateNotificationRuleBody>): Promise<NotificationRule> =>
      orm.em.fork().transactional(async (em) => {
        const before = await repo.find(em, id, true)
        if (!before) throw ruleNotFound()
        const after = (await repo.update(em, id, { isActive: body.is_active, recipients: body.recipient_emails }))!
        await auditTrail.record(em, actor, 'notification_rule.updated', after.user_group, {
          ...(body.is_active === undefined ? {} : { is_active: after.is_active }),
          ...(body.recipient_emails === undefined ? {} : { recipient_emails: after.recipient_emails }),
        })
        return (await withItems(em, [after]))[0]!
      }),

    async tracking(group: string): Promise<TrackingConfig> {
      const em = orm.em.fork()
      const [rule] = await withItems(em, [await byGroup(em, group)])
      const items = (await repo.items(em, [rule!.id])).get(rule!.id) ?? []
      return { rule: rule!, trackingItems: items }
    },

    saveTracking: (actor: Actor, group: string, body: z.output<typeof SaveTrackingBody>): Promise<TrackingConfig> =>
      orm.em.fork().transactional(async (em) => {
        const rule = await byGroup(em, group)
        if (rule.id !== body.ruleId) throw badRequest('The rule does not belong to this group', 'rule_group_mismatch')
        await repo.saveTracking(em, rule.id, body.trackingItems, body.reportFrequency, body.reportDayOfWeek)
        await auditTrail.record(em, actor, 'notification_rule.tracking_saved', group, {
          report_frequency: body.reportFrequency,
          report_day_of_week: body.reportDayOfWeek,
          tracking_items: body.trackingItems.map((i) => `${i.type} ${i.id} ${i.name}`),
        })
        const [saved] = await withItems(em, [(await repo.find(em, rule.id))!])
        return { rule: saved!, trackingItems: (await repo.items(em, [rule.id])).get(rule.id) ?? [] }
      }),

    /** Send Test Report (admin §7 send-report): the group's report now, to the rule's recipients. */
    async sendReport(actor: Actor, group: string, reportType: string): Promise<{ message: string; recipients: string[] }> {
      const em = orm.em.fork()
      const rule = await byGroup(em, group)
      const items = (await repo.items(em, [rule.id])).get(rule.id) ?? []
      // Everything a new group still lacks, said at once (not one refusal after another).
      const missing: ReportMissing[] = []
      if (rule.recipient_emails.length === 0) missing.push('recipients')
      if (items.length === 0) missing.push('tracked_items')
      if ((await repo.members(em, group)).length === 0) missing.push('members')
      const report = missing.length === 0 ? await buildGroupReport(em, group, items) : null
      if (!report) throw new AppError(422, 'report_not_ready', NOTIFY_MESSAGES.reportNotReady(missing), { details: missing })
      const mail = await renderEmail(groupReportEmail(report, { frequency: reportType, at: ctx.now(), test: reportType === 'test' }))
      await orm.em.fork().transactional(async (tx) => {
        queueReport(tx, rule.recipient_emails, mail)
        await auditTrail.record(tx, actor, 'notification_rule.report_sent', group, { recipients: rule.recipient_emails, report_type: reportType })
      })
      ctx.kick()
      return { message: NOTIFY_MESSAGES.reportSent, recipients: rule.recipient_emails }
    },

    /**
     * Sends the scheduled reports whose slot has come (daily, weekly on its day, monthly on the 1st,
     * at REPORT_HOUR_UTC), once across instances: a transaction-scoped advisory lock lets one
     * instance run, and each slot is marked handled with the mails it queued. An empty report is
     * not sent (its slot is still handled). Resolves with the groups reported.
     */
    async runDue(now = ctx.now()): Promise<string[]> {
      const sent: string[] = []
      await orm.em.fork().transactional(async (em) => {
        if (!(await repo.tryLockReportRun(em))) return
        for (const rule of await repo.scheduled(em)) {
          const slot = latestSlot(rule, now)
          if (!slot || slot.getTime() <= new Date(rule.report_slot_done ?? rule.created_at).getTime()) continue
          const items = (await repo.items(em, [rule.id])).get(rule.id) ?? []
          const report = rule.recipient_emails.length ? await buildGroupReport(em, rule.user_group, items) : null
          if (report) {
            queueReport(em, rule.recipient_emails, await renderEmail(groupReportEmail(report, { frequency: rule.report_frequency, at: slot })))
            sent.push(rule.user_group)
          }
          await repo.markSlot(em, rule.id, slot, report !== null)
        }
      })
      if (sent.length) {
        ctx.logger.info('group reports queued', { groups: sent })
        ctx.kick()
      }
      return sent
    },

    /**
     * Queues, in an event's transaction, the mail of every active immediate rule of the learner's
     * group that tracks the item: one per rule and recipient, keyed by event and rule.
     */
    async queueImmediate(em: EntityManager, p: { eventId: string; group: string | null; item: { type: 'exam' | 'course'; id: number }; mail: RenderedEmail }): Promise<number> {
      if (!p.group) return 0
      let queued = 0
      for (const rule of await repo.immediateFor(em, p.group, p.item)) {
        const key = deliveryId(p.eventId, `rule:${rule.id}`)
        for (const to of rule.recipient_emails) {
          ctx.deliveries.queue(em, { eventId: key, kind: 'group-immediate', to, ...p.mail })
          queued++
        }
      }
      return queued
    },
  }
}
export type RuleService = ReturnType<typeof createRuleService>
