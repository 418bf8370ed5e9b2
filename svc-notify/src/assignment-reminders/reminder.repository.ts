import type { EntityManager } from '@mikro-orm/postgresql'
import type { EventData, ManagerScope } from '@portal/contracts'
import type { Manager, RecipientRole, ReminderStage } from './recipients.ts'

/** What one reminder row names (the event's facts and one recipient). */
export interface ReminderInput {
  ruleId: number
  userId: string
  itemKind: 'course' | 'exam'
  itemId: number
  itemTitle: string
  dueOn: string
  stage: ReminderStage
  recipient: string
  role: RecipientRole
  scanOn: string
  eventId: string
  status: 'pending' | 'paused' | 'cancelled'
}

/** A pending reminder as its recipient's digest reads it, with what decides whether it still goes. */
export interface DigestCandidate {
  id: string
  rule_id: number
  user_id: string
  item_kind: 'course' | 'exam'
  item_title: string
  due_on: string
  stage: ReminderStage
  role: RecipientRole
  learner_name: string | null
  /** The learner was deleted meanwhile. */
  deleted: boolean
  /** The learner's notifications are paused at the digest's moment. */
  paused: boolean
  /** Learning said it is completed for this due date, exempt or removed. */
  done: boolean
}

/** Whether an assignment's facts settle a reminder for `due`: completed for that due date, exempt, or removed. */
const DONE = (f: string, due: string) => `(${f}.exempt or ${f}.removed or (${f}.completed_on is not null and ${f}.due_on = ${due}))`

/** The reminders' queries: the assignment facts, the reminder rows and the digests. */
export const reminderRepository = {
  /**
   * Stores a person's assignment facts unless the stored ones are as new or newer (`version`);
   * resolves with whether it did (an older event changes nothing, cancels nothing).
   */
  async applyFacts(em: EntityManager, f: EventData<'learning.assignment.changed.v1'>): Promise<boolean> {
    const rows = (await em.execute(
      `insert into assignment_facts (rule_id, user_id, version, due_on, next_due_on, completed_on, exempt, removed, at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict (rule_id, user_id) do update set
         version = excluded.version, due_on = excluded.due_on, next_due_on = excluded.next_due_on, completed_on = excluded.completed_on,
         exempt = excluded.exempt, removed = excluded.removed, at = excluded.at
       where assignment_facts.version < excluded.version
       returning rule_id`,
      [f.ruleId, f.userId, f.version, f.dueOn, f.nextDueOn, f.completedOn, f.exempt, f.removed, new Date(f.at)],
    )) as unknown[]
    return rows.length > 0
  },

  /**
   * Cancels the person's pending reminders of the rule that the facts settle: all of them when
   * exempt or removed, those of the completed due date, and those of a due date the person no
   * longer works towards (the date moved: neither the current nor the next cycle's). Resolves
   * with how many.
   */
  async cancelSettled(em: EntityManager, f: EventData<'learning.assignment.changed.v1'>): Promise<number> {
    const rows = (await em.execute(
      `update assignment_reminders set status = 'cancelled', finished_at = now()
        where rule_id = ? and user_id = ? and status = 'pending'
          and (?::boolean or (?::date is not null and due_on = ?::date) or (due_on <> ?::date and due_on is distinct from ?::date))
       returning id`,
      [f.ruleId, f.userId, f.exempt || f.removed, f.completedOn, f.completedOn === null ? null : f.dueOn, f.dueOn, f.nextDueOn],
    )) as unknown[]
    return rows.length
  },

  /** Whether learning's latest facts settle a reminder of this rule, person and due date already. */
  async isSettled(em: EntityManager, ruleId: number, userId: string, dueOn: string): Promise<boolean> {
    const rows = (await em.execute(`select 1 from assignment_facts f where f.rule_id = ? and f.user_id = ? and ${DONE('f', '?::date')}`, [ruleId, userId, dueOn])) as unknown[]
    return rows.length > 0
  },

  /** The users the projection knows as managers (not deleted), with their scopes. */
  async managers(em: EntityManager): Promise<Manager[]> {
    const rows = (await em.execute("select id, email, is_manager, manager_scope from users where is_manager and deleted_at is null and email is not null and email <> ''")) as {
      id: string
      email: string
      is_manager: boolean
      manager_scope: ManagerScope
    }[]
    return rows.map((r) => ({ id: r.id, email: r.email, isManager: r.is_manager, managerScope: r.manager_scope }))
  },

  /**
   * Records reminder rows; a row whose key (rule, person, due date, stage, recipient) is there
   * already is left as it is. Resolves with the rows added per status.
   */
  async record(em: EntityManager, rows: ReminderInput[]): Promise<{ pending: number; paused: number; cancelled: number }> {
    const added = { pending: 0, paused: 0, cancelled: 0 }
    for (const r of rows) {
      const inserted = (await em.execute(
        `insert into assignment_reminders (rule_id, user_id, item_kind, item_id, item_title, due_on, stage, recipient, role, scan_on, event_id, status, finished_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, case when ? = 'pending' then null else now() end)
         on conflict (rule_id, user_id, due_on, stage, recipient) do nothing
         returning status`,
        [r.ruleId, r.userId, r.itemKind, r.itemId, r.itemTitle, r.dueOn, r.stage, r.recipient, r.role, r.scanOn, r.eventId, r.status, r.status],
      )) as unknown[]
      if (inserted.length > 0) added[r.status]++
    }
    return added
  },

  /** Cancels a deleted user's pending reminders (theirs and their managers' copies) and forgets their facts. */
  async dropUser(em: EntityManager, userId: string): Promise<void> {
    await em.execute("update assignment_reminders set status = 'cancelled', finished_at = now() where user_id = ? and status = 'pending'", [userId])
    await em.execute('delete from assignment_facts where user_id = ?', [userId])
  },

  // --- Digests

  /**
   * Recipients with pending reminders that have settled (none newer than `settleMs`, by the
   * database's clock) and no digest on `day` yet; at most `limit`.
   */
  async recipientsDue(em: EntityManager, day: string, settleMs: number, limit: number): Promise<string[]> {
    const rows = (await em.execute(
      `select r.recipient from assignment_reminders r
        where r.status = 'pending'
          and not exists (select 1 from assignment_digests d where d.recipient = r.recipient and d.day = ?::date)
        group by r.recipient
       having max(r.created_at) <= now() - (? * interval '1 millisecond')
        order by min(r.created_at), r.recipient
        limit ?`,
      [day, settleMs, limit],
    )) as { recipient: string }[]
    return rows.map((r) => r.recipient)
  },

  /**
   * Takes the recipient's digest of `day` for this transaction: a transaction-scoped advisory lock
   * on the address (another instance skips it), then whether that day's digest went out already.
   */
  async lockDigest(em: EntityManager, recipient: string, day: string): Promise<boolean> {
    const [lock] = (await em.execute('select pg_try_advisory_xact_lock(hashtext(?)) as locked', [`notify.assignment-digest:${recipient}`])) as { locked: boolean }[]
    if (!lock?.locked) return false
    const done = (await em.execute('select 1 from assignment_digests where recipient = ? and day = ?::date', [recipient, day])) as unknown[]
    return done.length === 0
  },

  /**
   * The recipient's pending reminders, row-locked until the transaction ends (a cancellation
   * handled meanwhile waits, then finds them sent), with whether the newest is still settling.
   */
  async pendingFor(em: EntityManager, recipient: string, at: Date, settleMs: number): Promise<{ rows: DigestCandidate[]; settling: boolean }> {
    const rows = (await em.execute(
      `select r.id::text as id, r.rule_id, r.user_id, r.item_kind, r.item_title, r.due_on::text as due_on, r.stage, r.role,
              u.name as learner_name, coalesce(u.deleted_at is not null, false) as deleted,
              coalesce(p.paused_until > ?, false) as paused,
              coalesce(${DONE('f', 'r.due_on')}, false) as done,
              r.created_at > now() - (? * interval '1 millisecond') as fresh
         from assignment_reminders r
         left join users u on u.id = r.user_id
         left join notification_pauses p on p.user_id = r.user_id
         left join assignment_facts f on f.rule_id = r.rule_id and f.user_id = r.user_id
        where r.recipient = ? and r.status = 'pending'
        order by r.id
          for update of r`,
      [at, settleMs, recipient],
    )) as (DigestCandidate & { fresh: boolean })[]
    return { rows: rows.map(({ fresh: _, ...r }) => ({ ...r, rule_id: Number(r.rule_id) })), settling: rows.some((r) => r.fresh) }
  },

  /** Closes reminders that will not be sent: cancelled (settled, learner deleted) or paused. */
  async close(em: EntityManager, ids: string[], status: 'cancelled' | 'paused'): Promise<void> {
    if (ids.length === 0) return
    await em.execute(`update assignment_reminders set status = ?, finished_at = now() where id in (${ids.map(() => '?').join(', ')}) and status = 'pending'`, [status, ...ids])
  },

  /** Records the recipient's digest of `day` and marks its reminders sent in it. */
  async recordDigest(em: EntityManager, d: { recipient: string; day: string; deliveryId: string; ids: string[] }): Promise<void> {
    await em.execute('insert into assignment_digests (recipient, day, delivery_id, items) values (?, ?::date, ?, ?)', [d.recipient, d.day, d.deliveryId, d.ids.length])
    await em.execute(
      `update assignment_reminders set status = 'sent', finished_at = now(), digest_day = ?::date, delivery_id = ?
        where id in (${d.ids.map(() => '?').join(', ')}) and status = 'pending'`,
      [d.day, d.deliveryId, ...d.ids],
    )
  },
}
