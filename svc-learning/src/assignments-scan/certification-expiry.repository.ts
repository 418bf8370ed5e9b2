import type { EntityManager } from '@mikro-orm/postgresql'
import type { DueSpec, RecurrenceSpec } from '@portal/contracts'

/** A certification as certs' latest event about it says (`expiration_date` null: lifetime, or deleted). */
export interface CertificationFact {
  certificationId: number
  userId: string
  certificationTypeId: number
  expirationDate: string | null
  occurredAt: string
}

/** A person's row of a live rule that follows a certification's expiry, with the dates it moves. */
export interface FollowingRow {
  rule_id: number
  due: DueSpec
  recurrence: RecurrenceSpec
  assigned_on: string
  due_on: string
  opens_on: string | null
  completed_on: string | null
  next_due_on: string | null
  next_opens_on: string | null
}

const day = (column: string) => `to_char(${column}, 'YYYY-MM-DD')`
const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v)

/** Queries of learning's projection of certs' certifications (`certification_expiries`) and the rows that follow them. */
export const certificationExpiryRepository = {
  /** Serialises the events of one person's certifications (several instances consume at once). */
  lockUser: (em: EntityManager, userId: string) => em.execute('select pg_advisory_xact_lock(hashtext(?))', [`learning.certification-expiry:${userId}`]),

  /** The type the projection holds a certification under now (null: not held). */
  async typeOf(em: EntityManager, certificationId: number): Promise<number | null> {
    const rows = (await em.execute('select certification_type_id from certification_expiries where certification_id = ?', [certificationId])) as { certification_type_id: number }[]
    return rows[0]?.certification_type_id ?? null
  },

  /** A person's latest expiry of each of the types (absent: none known). */
  async latestExpiries(em: EntityManager, userId: string, typeIds: number[]): Promise<Map<number, string>> {
    const rows = (await em.execute(
      `select certification_type_id as type_id, ${day('max(expiration_date)')} as expires_on
         from certification_expiries
        where user_id = ? and certification_type_id in (${typeIds.map(() => '?').join(', ')}) and expiration_date is not null
        group by certification_type_id`,
      [userId, ...typeIds],
    )) as { type_id: number; expires_on: string }[]
    return new Map(rows.map((r) => [r.type_id, r.expires_on]))
  },

  /**
   * Keeps what certs said last about a certification: a newer event replaces the row, an older one
   * (delivered late) changes nothing. A deletion keeps the row without an expiry, so an older
   * addition delivered after it cannot bring the certification back. False when the event was older.
   */
  async record(em: EntityManager, c: CertificationFact): Promise<boolean> {
    const rows = (await em.execute(
      `insert into certification_expiries (certification_id, user_id, certification_type_id, expiration_date, occurred_at)
       values (?, ?, ?, ?::date, ?)
       on conflict (certification_id) do update
          set user_id = excluded.user_id, certification_type_id = excluded.certification_type_id,
              expiration_date = excluded.expiration_date, occurred_at = excluded.occurred_at
        where certification_expiries.occurred_at < excluded.occurred_at
       returning certification_id`,
      [c.certificationId, c.userId, c.certificationTypeId, c.expirationDate, c.occurredAt],
    )) as unknown[]
    return rows.length > 0
  },

  /** The person's rows of live rules whose recurrence follows the type's expiry, locked for the change. */
  following: async (em: EntityManager, userId: string, typeId: number) =>
    (
      (await em.execute(
        `select p.rule_id, r.due, r.recurrence, ${day('p.assigned_on')} as assigned_on, ${day('p.due_on')} as due_on, ${day('p.opens_on')} as opens_on,
                ${day('p.completed_on')} as completed_on, ${day('p.next_due_on')} as next_due_on, ${day('p.next_opens_on')} as next_opens_on
           from assignment_people p
           join assignment_rules r on r.id = p.rule_id
          where p.user_id = ? and p.removed_at is null and r.deleted_at is null
            and r.recurrence ->> 'kind' = 'certification' and (r.recurrence ->> 'certification_type_id')::int = ?
          order by p.rule_id
            for update of p`,
        [userId, typeId],
      )) as (FollowingRow & { due: DueSpec | string; recurrence: RecurrenceSpec | string })[]
    ).map((r) => ({ ...r, due: json<DueSpec>(r.due), recurrence: json<RecurrenceSpec>(r.recurrence) })),

  /** Moves the current cycle's dates (the trigger of migration 0013 announces the change). */
  moveCurrent: (em: EntityManager, ruleId: number, userId: string, dueOn: string, opensOn: string | null) =>
    em.execute('update assignment_people set due_on = ?::date, opens_on = ?::date, updated_at = now() where rule_id = ? and user_id = ?', [dueOn, opensOn, ruleId, userId]),

  /** Moves the next cycle's dates of a completed current cycle. */
  moveNext: (em: EntityManager, ruleId: number, userId: string, nextDueOn: string, nextOpensOn: string) =>
    em.execute('update assignment_people set next_due_on = ?::date, next_opens_on = ?::date, updated_at = now() where rule_id = ? and user_id = ?', [
      nextDueOn,
      nextOpensOn,
      ruleId,
      userId,
    ]),
}
