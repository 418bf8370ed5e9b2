import type { EntityManager } from '@mikro-orm/postgresql'
import type { NotificationRule, ReportFrequency, TrackingItem } from '@portal/contracts'

export interface RuleRow {
  id: number
  user_group: string
  notification_type: 'group_report'
  is_active: boolean
  recipient_emails: string[]
  report_frequency: ReportFrequency
  report_day_of_week: number | null
  last_report_sent: Date | null
  report_slot_done: Date | null
  created_at: Date
}
const COLUMNS = 'id, user_group, notification_type, is_active, recipient_emails, report_frequency, report_day_of_week, last_report_sent, report_slot_done, created_at'

/** A rule as the API shows it, with its tracked items (admin §3). */
export const toNotificationRule = (r: RuleRow, items: TrackingItem[]): NotificationRule => ({
  id: r.id,
  user_group: r.user_group,
  notification_type: r.notification_type,
  is_active: r.is_active,
  recipient_emails: r.recipient_emails,
  report_frequency: r.report_frequency,
  report_day_of_week: r.report_day_of_week,
  last_report_sent: r.last_report_sent ? new Date(r.last_report_sent).toISOString() : null,
  trackingItems: items.map((i) => ({
    item_type: i.type,
    item_id: i.id,
    exam: i.type === 'exam' ? { id: i.id, name: i.name } : null,
    course: i.type === 'course' ? { id: i.id, title: i.name } : null,
  })),
})

/** A member of a group as reports name them. */
export interface Member {
  id: string
  name: string
  email: string
}

/** Queries of notification_rules, rule_tracking_items and notify's user_groups. */
export const ruleRepository = {
  /** Takes the scheduled reports' run for the transaction; false when another instance holds it. */
  async tryLockReportRun(em: EntityManager): Promise<boolean> {
    const [lock] = (await em.execute("select pg_try_advisory_xact_lock(hashtext('notify.group-reports')) as locked")) as { locked: boolean }[]
    return lock?.locked === true
  },

  /** Records a group identity announced and makes its rule (weekly on Monday, active, no recipients yet); a repeat changes nothing. */
  async groupCreated(em: EntityManager, g: { id: string; name: string; createdAt: Date }): Promise<void> {
    await em.execute('insert into user_groups (id, name, created_at) values (?, ?, ?) on conflict do nothing', [g.id, g.name, g.createdAt])
    await em.execute(
      `insert into notification_rules (user_group, report_frequency, report_day_of_week, created_at, updated_at) values (?, 'weekly', 1, now(), now())
       on conflict (user_group) do nothing`,
      [g.name],
    )
  },
  list: async (em: EntityManager) => (await em.execute(`select ${COLUMNS} from notification_rules order by lower(user_group), id`)) as RuleRow[],
  find: async (em: EntityManager, id: number, lock = false) =>
    ((await em.execute(`select ${COLUMNS} from notification_rules where id = ?${lock ? ' for update' : ''}`, [id])) as RuleRow[])[0] ?? null,
  findByGroup: async (em: EntityManager, group: string) => ((await em.execute(`select ${COLUMNS} from notification_rules where user_group = ?`, [group])) as RuleRow[])[0] ?? null,
  /** Tracked items of the given rules, by rule. */
  async items(em: EntityManager, ruleIds: number[]): Promise<Map<number, TrackingItem[]>> {
    const map = new Map<number, TrackingItem[]>(ruleIds.map((id) => [id, []]))
    if (ruleIds.length === 0) return map
    const rows = (await em.execute(
      `select rule_id, item_type, item_id, name from rule_tracking_items where rule_id = any(string_to_array(?, ',')::int[]) order by item_type desc, lower(name), item_id`,
      [ruleIds.join(',')],
    )) as { rule_id: number; item_type: 'exam' | 'course'; item_id: number; name: string }[]
    for (const r of rows) map.get(r.rule_id)?.push({ type: r.item_type, id: r.item_id, name: r.name })
    return map
  },
  update: async (em: EntityManager, id: number, set: { isActive?: boolean; recipients?: string[] }) =>
    (
      (await em.execute(
        `update notification_rules set is_active = coalesce(?, is_active), recipient_emails = coalesce(string_to_array(?, ','), recipient_emails), updated_at = now()
        where id = ? returning ${COLUMNS}`,
        [set.isActive ?? null, set.recipients === undefined ? null : set.recipients.join(','), id],
      )) as RuleRow[]
    )[0] ?? null,
  async saveTracking(em: EntityManager, id: number, items: TrackingItem[], frequency: ReportFrequency, dayOfWeek: number | null): Promise<void> {
    await em.execute('update notification_rules set report_frequency = ?, report_day_of_week = ?, updated_at = now() where id = ?', [frequency, dayOfWeek, id])
    await em.execute('delete from rule_tracking_items where rule_id = ?', [id])
    const unique = [...new Map(items.map((i) => [`${i.type}:${i.id}`, i])).values()]
    for (const i of unique) await em.execute('insert into rule_tracking_items (rule_id, item_type, item_id, name) values (?, ?, ?, ?)', [id, i.type, i.id, i.name])
  },
  /** Active immediate rules of a group that track the item (what one event of a member mails). */
  immediateFor: async (em: EntityManager, group: string, item: { type: 'exam' | 'course'; id: number }) =>
    (await em.execute(
      `select ${COLUMNS.split(', ')
        .map((c) => `r.${c}`)
        .join(', ')} from notification_rules r
        join rule_tracking_items t on t.rule_id = r.id and t.item_type = ? and t.item_id = ?
       where r.user_group = ? and r.is_active and r.report_frequency = 'immediate' and cardinality(r.recipient_emails) > 0`,
      [item.type, item.id, group],
    )) as RuleRow[],
  /** Active scheduled rules, locked for this run (another instance skips them). */
  scheduled: async (em: EntityManager) =>
    (await em.execute(`select ${COLUMNS} from notification_rules where is_active and report_frequency <> 'immediate' order by id for update skip locked`)) as RuleRow[],
  markSlot: (em: EntityManager, id: number, slot: Date, sent: boolean) =>
    em.execute(`update notification_rules set report_slot_done = ?, last_report_sent = case when ? then now() else last_report_sent end where id = ?`, [slot, sent, id]),
  /** The group's current members (notify's projection of identity's users). */
  members: async (em: EntityManager, group: string) =>
    (await em.execute('select id, name, email from users where user_group = ? and deleted_at is null order by lower(name), id', [group])) as Member[],
}
