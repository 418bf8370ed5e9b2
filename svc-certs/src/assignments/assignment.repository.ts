import type { EntityManager } from '@mikro-orm/postgresql'
import type { AssignmentItemKind, EventData } from '@portal/contracts'

/** One person's assignment as the projection keeps it (dates `YYYY-MM-DD`). */
export interface AssignmentRow {
  user_id: string
  rule_id: number
  item_kind: AssignmentItemKind
  item_id: number
  item_title: string
  assigned_on: string
  due_on: string
  opens_on: string | null
  completed_on: string | null
  next_due_on: string | null
  next_opens_on: string | null
  exempt: boolean
  exempt_reason: string | null
  due_soon_days: number
  recurring: boolean
}

const day = (column: string) => `to_char(${column}, 'YYYY-MM-DD') as ${column}`
const ROW_SELECT = `user_id, rule_id, item_kind, item_id, item_title, ${['assigned_on', 'due_on', 'opens_on', 'completed_on', 'next_due_on', 'next_opens_on'].map(day).join(', ')},
  exempt, exempt_reason, due_soon_days, recurring`

export const assignmentRepository = {
  /**
   * Keeps the facts of one event when they are newer than the row's (a higher `version`): an older
   * or repeated event changes nothing. True when the row was written.
   */
  async apply(em: EntityManager, f: EventData<'learning.assignment.changed.v1'>): Promise<boolean> {
    const rows = (await em.execute(
      `insert into member_assignments as m (user_id, rule_id, item_kind, item_id, item_title, assigned_on, due_on, opens_on, completed_on, next_due_on,
         next_opens_on, exempt, exempt_reason, due_soon_days, recurring, removed, version, changed_at)
       values (?, ?, ?, ?, ?, ?::date, ?::date, ?::date, ?::date, ?::date, ?::date, ?, ?, ?, ?, ?, ?, ?::timestamptz)
       on conflict (user_id, rule_id) do update set item_kind = excluded.item_kind, item_id = excluded.item_id, item_title = excluded.item_title,
         assigned_on = excluded.assigned_on, due_on = excluded.due_on, opens_on = excluded.opens_on, completed_on = excluded.completed_on,
         next_due_on = excluded.next_due_on, next_opens_on = excluded.next_opens_on, exempt = excluded.exempt, exempt_reason = excluded.exempt_reason,
         due_soon_days = excluded.due_soon_days, recurring = excluded.recurring, removed = excluded.removed, version = excluded.version,
         changed_at = excluded.changed_at
       where m.version < excluded.version
       returning version`,
      [
        f.userId,
        f.ruleId,
        f.itemKind,
        f.itemId,
        f.itemTitle,
        f.assignedOn,
        f.dueOn,
        f.opensOn,
        f.completedOn,
        f.nextDueOn,
        f.nextOpensOn,
        f.exempt,
        f.exemptReason,
        f.dueSoonDays,
        f.recurring,
        f.removed,
        f.version,
        f.at,
      ],
    )) as unknown[]
    return rows.length > 0
  },

  /** The current (not removed) assignments of these users, by user. */
  async ofUsers(em: EntityManager, userIds: string[]): Promise<Map<string, AssignmentRow[]>> {
    const by = new Map<string, AssignmentRow[]>()
    if (userIds.length === 0) return by
    const rows = (await em.execute(`select ${ROW_SELECT} from member_assignments where user_id in (?) and not removed order by user_id, rule_id`, [userIds])) as AssignmentRow[]
    for (const r of rows) {
      const row = { ...r, rule_id: Number(r.rule_id), item_id: Number(r.item_id), due_soon_days: Number(r.due_soon_days) }
      by.set(r.user_id, [...(by.get(r.user_id) ?? []), row])
    }
    return by
  },

  /** A deleted user's assignments go with them. */
  async dropUser(em: EntityManager, userId: string): Promise<void> {
    await em.execute('delete from member_assignments where user_id = ?', [userId])
  },
}
