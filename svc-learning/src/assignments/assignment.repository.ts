import type { EntityManager } from '@mikro-orm/postgresql'
import {
  ASSIGNMENT_STATES,
  type AssignmentAudience,
  type AssignmentDue,
  type AssignmentItemKind,
  type AssignmentRecurrence,
  type AssignmentReminders,
  type AssignmentStateKind,
  type AssignmentStateCounts,
  type Branch,
  type Department,
} from '@portal/contracts'
import { preparedStatement, sqlWithParams } from '../sql.ts'
import type { MikroORM } from '@mikro-orm/postgresql'
import { audienceSql } from './audience.ts'
import type { Arrival, Candidate, Move, StoredPerson } from './planning.ts'

/** A rule as stored, with its item's title now. */
export interface RuleRow {
  id: number
  item_kind: AssignmentItemKind
  item_id: number
  item_title: string
  audience: AssignmentAudience
  due: AssignmentDue
  recurrence: AssignmentRecurrence
  due_soon_days: number
  reminders: AssignmentReminders
  created_at: Date
  updated_at: Date
}

/** A person's row as the screens read it: the stored facts and its state on the day asked. */
export interface PersonRow {
  rule_id: number
  user_id: string
  item_kind: AssignmentItemKind
  item_id: number
  item_title: string
  state: AssignmentStateKind
  assigned_on: string
  due_on: string
  opens_on: string | null
  completed_on: string | null
  next_due_on: string | null
  next_opens_on: string | null
  recurring: boolean
  exempt_reason: string | null
  due_soon_days: number
}

export interface ReportPersonRow extends PersonRow {
  name: string
  email: string
  branch: Branch | null
  department: Department | null
}

/** What the rule's writes need of its item. */
export interface ItemRow {
  title: string
  assigned_to_all: boolean
}

/** jsonb as the driver hands it (parsed, or text on some drivers). */
const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T))

const toRule = (r: Record<string, unknown>): RuleRow => ({
  id: Number(r.id),
  item_kind: r.item_kind as AssignmentItemKind,
  item_id: Number(r.item_id),
  item_title: (r.item_title as string | null) ?? '',
  audience: json(r.audience),
  due: json(r.due),
  recurrence: json<AssignmentRecurrence>(r.recurrence) ?? null,
  due_soon_days: Number(r.due_soon_days),
  reminders: json(r.reminders),
  created_at: new Date(r.created_at as string),
  updated_at: new Date(r.updated_at as string),
})

/** The item's title now (courses' title, exams' name) of the rule `r`. */
const ITEM_TITLE = `case r.item_kind when 'course' then (select c.title from courses c where c.id = r.item_id) else (select e.name from exams e where e.id = r.item_id) end`

const RULE_COLUMNS = `r.id, r.item_kind, r.item_id, ${ITEM_TITLE} as item_title, r.audience, r.due, r.recurrence, r.due_soon_days, r.reminders, r.created_at, r.updated_at`

/** The state of `ap` (rule `r`) on the day `$n`: the SQL twin of `assignmentState`. */
const stateSql = (today: string) =>
  `assignment_state(ap.due_on, ap.opens_on, ap.completed_on, ap.next_due_on, ap.next_opens_on, ap.exempt_reason is not null, r.due_soon_days, ${today}::date)`

/** Outstanding first (overdue, due soon, open), then not due yet, completed, exempt. */
const STATE_RANK = `array_position(array[${ASSIGNMENT_STATES.map((s) => `'${s}'`).join(', ')}]::text[], state)`

const PERSON_COLUMNS = `ap.rule_id, ap.user_id, r.item_kind, r.item_id, ${ITEM_TITLE} as item_title,
  ap.assigned_on::text as assigned_on, ap.due_on::text as due_on, ap.opens_on::text as opens_on, ap.completed_on::text as completed_on,
  ap.next_due_on::text as next_due_on, ap.next_opens_on::text as next_opens_on, r.recurrence is not null as recurring, ap.exempt_reason, r.due_soon_days`

const toPerson = <R extends PersonRow>(r: Record<string, unknown>): R =>
  ({ ...r, rule_id: Number(r.rule_id), item_id: Number(r.item_id), due_soon_days: Number(r.due_soon_days) }) as unknown as R

/** Every state at 0. */
export const zeroCounts = (): AssignmentStateCounts => Object.fromEntries(ASSIGNMENT_STATES.map((s) => [s, 0])) as AssignmentStateCounts

const lockKey = (kind: AssignmentItemKind, itemId: number) => `learning.assignment-item:${kind}:${itemId}`

export const assignmentRepository = {
  /**
   * Serialises the writes that decide who a rule takes: saves of rules (exclusive) against user
   * upserts and deletions (shared), so a user changing branch while a rule is saved is judged by
   * one or the other after it, never missed by both.
   */
  lockAudiences: (em: EntityManager, mode: 'exclusive' | 'shared') =>
    sqlWithParams(em, `select ${mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock'}(hashtext('learning.assignment-audiences'))`, []),

  /**
   * Serialises the writes that add people to an item's rules (exclusive) against completions of the
   * item (shared): a completion waits for the rows being added, then completes them; an addition
   * sees every completion committed before it.
   */
  lockItem: (em: EntityManager, kind: AssignmentItemKind, itemId: number, mode: 'exclusive' | 'shared') =>
    sqlWithParams(em, `select ${mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock'}(hashtext($1))`, [lockKey(kind, itemId)]),

  /** The course or exam, share-locked in a transaction (it is not deleted meanwhile); null when there is none. */
  async item(em: EntityManager, kind: AssignmentItemKind, itemId: number): Promise<ItemRow | null> {
    const sql =
      kind === 'course'
        ? 'select title, is_assigned_to_all as assigned_to_all from courses where id = $1 for share'
        : 'select name as title, is_assigned_to_all as assigned_to_all from exams where id = $1 for share'
    const [row] = await sqlWithParams<ItemRow>(em, sql, [itemId])
    return row ?? null
  },

  /** Whether identity announced the group, or some user belongs to it (groups older than the stream). */
  async groupExists(em: EntityManager, name: string): Promise<boolean> {
    const [row] = await sqlWithParams<{ found: boolean }>(
      em,
      'select exists (select 1 from user_groups where name = $1) or exists (select 1 from users where user_group = $1 and deleted_at is null) as found',
      [name],
    )
    return Boolean(row?.found)
  },

  /** The ids among `ids` of existing non-admin users. */
  async assignableUsers(em: EntityManager, ids: string[]): Promise<Set<string>> {
    const rows = await sqlWithParams<{ id: string }>(em, 'select id from users where id = any($1::uuid[]) and deleted_at is null and not is_admin', [ids])
    return new Set(rows.map((r) => r.id))
  },

  async insertRule(
    em: EntityManager,
    r: { item_kind: AssignmentItemKind; item_id: number; audience: unknown; due: unknown; recurrence: unknown; due_soon_days: number; reminders: unknown },
    createdBy: string | null,
    at: Date,
  ): Promise<number> {
    const [row] = await sqlWithParams<{ id: number }>(
      em,
      `insert into assignment_rules (item_kind, item_id, audience, due, recurrence, due_soon_days, reminders, created_by, created_at, updated_at)
       values ($1, $2, $3::jsonb, $4::jsonb, $5::jsonb, $6, $7::jsonb, $8, $9, $9) returning id`,
      [
        r.item_kind,
        r.item_id,
        JSON.stringify(r.audience),
        JSON.stringify(r.due),
        r.recurrence === null ? null : JSON.stringify(r.recurrence),
        r.due_soon_days,
        JSON.stringify(r.reminders),
        createdBy,
        at,
      ],
    )
    return Number(row!.id)
  },

  updateRule: (em: EntityManager, id: number, r: { audience: unknown; due: unknown; recurrence: unknown; due_soon_days: number; reminders: unknown }, at: Date) =>
    sqlWithParams(
      em,
      `update assignment_rules set audience = $2::jsonb, due = $3::jsonb, recurrence = $4::jsonb, due_soon_days = $5, reminders = $6::jsonb, updated_at = $7 where id = $1`,
      [id, JSON.stringify(r.audience), JSON.stringify(r.due), r.recurrence === null ? null : JSON.stringify(r.recurrence), r.due_soon_days, JSON.stringify(r.reminders), at],
    ),

  /** Soft-deletes the rule; its people are no longer assigned (their rows say removed, completions stay). Resolves with how many were. */
  async deleteRule(em: EntityManager, id: number, at: Date): Promise<number> {
    await sqlWithParams(em, 'update assignment_rules set deleted_at = $2, updated_at = $2 where id = $1', [id, at])
    const rows = await sqlWithParams(em, 'update assignment_people set removed_at = $2, updated_at = $2 where rule_id = $1 and removed_at is null returning user_id', [id, at])
    return rows.length
  },

  /** Whether any rule was ever made (deleted ones count). */
  async anyRuleEver(em: EntityManager): Promise<boolean> {
    const [row] = await sqlWithParams<{ found: boolean }>(em, 'select exists (select 1 from assignment_rules) as found', [])
    return Boolean(row?.found)
  },

  /** A live rule (row-locked in a transaction with `lock`), or null. */
  async rule(em: EntityManager, id: number, lock = false): Promise<RuleRow | null> {
    const [row] = await sqlWithParams(em, `select ${RULE_COLUMNS} from assignment_rules r where r.id = $1 and r.deleted_at is null${lock ? ' for update of r' : ''}`, [id])
    return row ? toRule(row) : null
  },

  /** The live rules, newest first (of one item when asked). */
  async rules(em: EntityManager, f: { item_kind?: AssignmentItemKind | undefined; item_id?: number | undefined } = {}): Promise<RuleRow[]> {
    const rows = await sqlWithParams(
      em,
      `select ${RULE_COLUMNS} from assignment_rules r
        where r.deleted_at is null and ($1::text is null or r.item_kind = $1) and ($2::int is null or r.item_id = $2)
        order by r.created_at desc, r.id desc`,
      [f.item_kind ?? null, f.item_id ?? null],
    )
    return rows.map(toRule)
  },

  /** People assigned by each of `ruleIds` now, by state on `today`. */
  async countsByRule(em: EntityManager, ruleIds: number[], today: string): Promise<Map<number, AssignmentStateCounts>> {
    const out = new Map(ruleIds.map((id) => [id, zeroCounts()]))
    if (ruleIds.length === 0) return out
    const rows = await sqlWithParams<{ rule_id: number; state: AssignmentStateKind; n: number }>(
      em,
      `select ap.rule_id, ${stateSql('$2')} as state, count(*)::int as n
         from assignment_people ap join assignment_rules r on r.id = ap.rule_id
        where ap.rule_id = any($1::int[]) and ap.removed_at is null group by 1, 2`,
      [ruleIds, today],
    )
    for (const r of rows) out.get(Number(r.rule_id))![r.state] = Number(r.n)
    return out
  },

  /**
   * The people `audience` takes now, with what their dates follow: hire date, the latest expiry of
   * the certification type a recurrence follows, and their latest completion of the item (a course
   * completed, an exam passed) as the company's day in `timeZone`.
   */
  async candidates(
    em: EntityManager,
    audience: AssignmentAudience,
    item: { kind: AssignmentItemKind; id: number },
    certificationTypeId: number | null,
    timeZone: string,
  ): Promise<Candidate[]> {
    const where = audienceSql(audience, 4)
    const completion =
      item.kind === 'course'
        ? 'select cc.completed_at from course_completions cc where cc.user_id = u.id and cc.course_id = $1'
        : 'select max(a.finalised_at) as completed_at from exam_attempts a where a.user_id = u.id and a.exam_id = $1 and a.passed'
    const rows = await sqlWithParams<Omit<Candidate, 'prior_completed_at'> & { prior_completed_at: Date | string | null }>(
      em,
      `select u.id, u.name, u.email, u.hire_date,
              (select max(ce.expiration_date)::text from certification_expiries ce where ce.user_id = u.id and ce.certification_type_id = $2) as cert_expires_on,
              (p.completed_at at time zone $3)::date::text as prior_completed_on, p.completed_at as prior_completed_at
         from users u left join lateral (${completion}) p on true
        where ${where.sql}
        order by u.name, u.id`,
      [item.id, certificationTypeId, timeZone, ...where.values],
    )
    return rows.map((r) => ({ ...r, hire_date: validDay(r.hire_date), prior_completed_at: r.prior_completed_at === null ? null : new Date(r.prior_completed_at) }))
  },

  /** Every row of the rule (removed ones too; of one user when given) with its person's name; row-locked with `lock`. */
  async stored(em: EntityManager, ruleId: number, lock: boolean, userId: string | null = null): Promise<StoredPerson[]> {
    const rows = await sqlWithParams<StoredPerson>(
      em,
      `select ap.user_id, ap.assigned_on::text as assigned_on, ap.due_on::text as due_on, ap.opens_on::text as opens_on, ap.completed_on::text as completed_on,
              ap.next_due_on::text as next_due_on, ap.next_opens_on::text as next_opens_on, ap.cycle, ap.removed_at is not null as removed,
              (select c.completed_on::text from assignment_completions c where c.rule_id = ap.rule_id and c.user_id = ap.user_id and c.cycle = ap.cycle - 1) as previous_completed_on,
              (select max(c.completed_on)::text from assignment_completions c where c.rule_id = ap.rule_id and c.user_id = ap.user_id) as last_completed_on,
              u.name, u.email
         from assignment_people ap left join users u on u.id = ap.user_id
        where ap.rule_id = $1 and ($2::uuid is null or ap.user_id = $2)
        order by u.name, ap.user_id${lock ? ' for update of ap' : ''}`,
      [ruleId, userId],
    )
    return rows.map((r) => ({ ...r, cycle: Number(r.cycle) }))
  },

  /** Writes the people added or back, and the completions from before the rule that count for them. */
  async arrive(em: EntityManager, ruleId: number, arrivals: Arrival[], at: Date): Promise<void> {
    if (arrivals.length === 0) return
    const col = <K extends keyof Arrival>(k: K) => arrivals.map((a) => a[k])
    const completedOn = arrivals.map((a) => a.completion?.completed_on ?? null)
    const completedAt = arrivals.map((a) => a.completion?.completed_at ?? null)
    // New people, and rows back (their kept completion, if any, stays unless an earlier one is counted now).
    await sqlWithParams(
      em,
      `insert into assignment_people (rule_id, user_id, assigned_on, due_on, opens_on, completed_on, completed_at, next_due_on, next_opens_on, cycle, updated_at)
       select $1, v.user_id, v.assigned_on, v.due_on, v.opens_on, v.completed_on, v.completed_at, v.next_due_on, v.next_opens_on, v.cycle, $11
         from unnest($2::uuid[], $3::date[], $4::date[], $5::date[], $6::date[], $7::timestamptz[], $8::date[], $9::date[], $10::int[])
              as v (user_id, assigned_on, due_on, opens_on, completed_on, completed_at, next_due_on, next_opens_on, cycle)
       on conflict (rule_id, user_id) do update set
         assigned_on = excluded.assigned_on, due_on = excluded.due_on, opens_on = excluded.opens_on,
         completed_on = coalesce(excluded.completed_on, assignment_people.completed_on), completed_at = coalesce(excluded.completed_at, assignment_people.completed_at),
         next_due_on = excluded.next_due_on, next_opens_on = excluded.next_opens_on, removed_at = null, updated_at = excluded.updated_at`,
      [ruleId, col('user_id'), col('assigned_on'), col('due_on'), col('opens_on'), completedOn, completedAt, col('next_due_on'), col('next_opens_on'), col('cycle'), at],
    )
    const done = arrivals.filter((a) => a.completion !== null)
    if (done.length > 0)
      await sqlWithParams(
        em,
        `insert into assignment_completions (rule_id, user_id, cycle, due_on, completed_on, completed_at, on_time)
         select $1, v.user_id, v.cycle, v.due_on, v.completed_on, v.completed_at, true
           from unnest($2::uuid[], $3::int[], $4::date[], $5::date[], $6::timestamptz[]) as v (user_id, cycle, due_on, completed_on, completed_at)
         on conflict do nothing`,
        [
          ruleId,
          done.map((a) => a.user_id),
          done.map((a) => a.cycle),
          done.map((a) => a.due_on),
          done.map((a) => a.completion!.completed_on),
          done.map((a) => a.completion!.completed_at),
        ],
      )
  },

  /**
   * Moves dates: a cycle not completed gets its new due and opening dates, a completed one its next
   * cycle's. Each statement names the state it expects (completed or not), so it never writes a
   * completion's fields.
   */
  async move(em: EntityManager, ruleId: number, moves: Move[], at: Date): Promise<void> {
    const open = moves.filter((m) => !m.completed)
    const done = moves.filter((m) => m.completed)
    if (open.length > 0)
      await sqlWithParams(
        em,
        `update assignment_people ap set due_on = v.due_on, opens_on = v.opens_on, updated_at = $5
           from unnest($2::uuid[], $3::date[], $4::date[]) as v (user_id, due_on, opens_on)
          where ap.rule_id = $1 and ap.user_id = v.user_id and ap.completed_on is null`,
        [ruleId, open.map((m) => m.user_id), open.map((m) => m.dates.due_on), open.map((m) => m.dates.opens_on), at],
      )
    if (done.length > 0)
      await sqlWithParams(
        em,
        `update assignment_people ap set next_due_on = v.next_due_on, next_opens_on = v.next_opens_on, updated_at = $5
           from unnest($2::uuid[], $3::date[], $4::date[]) as v (user_id, next_due_on, next_opens_on)
          where ap.rule_id = $1 and ap.user_id = v.user_id and ap.completed_on is not null`,
        [ruleId, done.map((m) => m.user_id), done.map((m) => m.dates.next_due_on), done.map((m) => m.dates.next_opens_on), at],
      )
  },

  /** Marks people no longer under the rule (their completions stay). */
  remove: (em: EntityManager, ruleId: number, userIds: string[], at: Date) =>
    userIds.length === 0
      ? Promise.resolve([])
      : sqlWithParams(em, 'update assignment_people set removed_at = $3, updated_at = $3 where rule_id = $1 and user_id = any($2::uuid[]) and removed_at is null', [
          ruleId,
          userIds,
          at,
        ]),

  /** Announces every live row of the rule again (the trigger does, with a new version): after a change of the rule's own facts. */
  touch: (em: EntityManager, ruleId: number, at: Date) => sqlWithParams(em, 'update assignment_people set updated_at = $2 where rule_id = $1 and removed_at is null', [ruleId, at]),

  /**
   * Gives the users access to the course (as POST /courses/{id}/assign does: a row each, and
   * `learning.course.assigned.v1` naming those who did not have it) or the exam; resolves with those
   * newly given it. An item assigned to everyone needs no rows.
   */
  async grantAccess(em: EntityManager, kind: AssignmentItemKind, itemId: number, userIds: string[], at: Date): Promise<string[]> {
    if (userIds.length === 0) return []
    const table = kind === 'course' ? 'course_assignments (course_id, user_id, assigned_at)' : 'exam_assignments (exam_id, user_id, assigned_at)'
    const rows = await sqlWithParams<{ user_id: string }>(
      em,
      `insert into ${table} select $1, v.user_id, $3 from unnest($2::uuid[]) as v (user_id) on conflict do nothing returning user_id`,
      [itemId, userIds, at],
    )
    return rows.map((r) => r.user_id)
  },

  /**
   * Who a live rule gives the item now: existing learners with a live row (not removed) of a live
   * rule of the item. An admin's manual assignment of the item keeps them.
   */
  async holders(em: EntityManager, kind: AssignmentItemKind, itemId: number): Promise<string[]> {
    const rows = await sqlWithParams<{ user_id: string }>(
      em,
      `select distinct ap.user_id from assignment_people ap
         join assignment_rules r on r.id = ap.rule_id
         join users u on u.id = ap.user_id
        where r.item_kind = $1 and r.item_id = $2 and r.deleted_at is null and ap.removed_at is null and u.deleted_at is null and not u.is_admin
        order by ap.user_id`,
      [kind, itemId],
    )
    return rows.map((r) => r.user_id)
  },

  /** The people of the rule not removed, with their state on `today`, filtered; counts by state before `state` and paging. */
  async report(
    em: EntityManager,
    ruleId: number,
    today: string,
    f: { state?: AssignmentStateKind | undefined; branch?: string | undefined; department?: string | undefined; search?: string | undefined },
    page: { limit: number; offset: number } | null,
  ): Promise<{ counts: AssignmentStateCounts; total: number; rows: ReportPersonRow[] }> {
    const base = `select ${PERSON_COLUMNS}, ${stateSql('$2')} as state, u.name, u.email, u.branch, u.department
         from assignment_people ap join assignment_rules r on r.id = ap.rule_id join users u on u.id = ap.user_id
        where ap.rule_id = $1 and ap.removed_at is null
          and ($3::text is null or u.branch = $3) and ($4::text is null or u.department = $4)
          and ($5::text is null or u.name ilike $5 escape '\\' or u.email ilike $5 escape '\\')`
    const like = f.search ? `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null
    const values = [ruleId, today, f.branch ?? null, f.department ?? null, like]
    const [countRows, rows] = await Promise.all([
      sqlWithParams<{ state: AssignmentStateKind; n: number }>(em, `select state, count(*)::int as n from (${base}) p group by state`, values),
      sqlWithParams(
        em,
        `select * from (${base}) p where ($6::text is null or p.state = $6)
          order by ${STATE_RANK}, p.name, p.user_id${page ? ' limit $7 offset $8' : ''}`,
        [...values, f.state ?? null, ...(page ? [page.limit, page.offset] : [])],
      ),
    ])
    const counts = zeroCounts()
    for (const c of countRows) counts[c.state] = Number(c.n)
    const total = f.state ? counts[f.state] : Object.values(counts).reduce((a, b) => a + b, 0)
    return { counts, total, rows: rows.map((r) => toPerson<ReportPersonRow>(r)) }
  },

  /** One person's row of the rule (not removed), row-locked in a transaction; null when they have none. */
  async personRow(em: EntityManager, ruleId: number, userId: string, today: string): Promise<ReportPersonRow | null> {
    const [row] = await sqlWithParams(
      em,
      `select ${PERSON_COLUMNS}, ${stateSql('$3')} as state, u.name, u.email, u.branch, u.department
         from assignment_people ap join assignment_rules r on r.id = ap.rule_id join users u on u.id = ap.user_id
        where ap.rule_id = $1 and ap.user_id = $2 and ap.removed_at is null for update of ap`,
      [ruleId, userId, today],
    )
    return row ? toPerson<ReportPersonRow>(row) : null
  },

  /** Sets (reason) or lifts (null) a person's exemption. */
  setExemption: (em: EntityManager, ruleId: number, userId: string, reason: string | null, by: string, at: Date) =>
    sqlWithParams(
      em,
      `update assignment_people set exempt_reason = $3, exempted_by = case when $3::text is null then null else $4::uuid end,
              exempted_at = case when $3::text is null then null else $5::timestamptz end, updated_at = $5
        where rule_id = $1 and user_id = $2`,
      [ruleId, userId, reason, by, at],
    ),

  /** The live rules a user's upsert is judged against. */
  async liveRules(em: EntityManager): Promise<RuleRow[]> {
    const rows = await sqlWithParams(em, `select ${RULE_COLUMNS} from assignment_rules r where r.deleted_at is null order by r.item_kind, r.item_id, r.id`, [])
    return rows.map(toRule)
  },

  /** The rules the user has a live row of (unlocked, on the user's index: what a user upsert may have to leave). */
  async liveRulesOfUser(em: EntityManager, userId: string): Promise<Set<number>> {
    const rows = await sqlWithParams<{ rule_id: number }>(em, 'select rule_id from assignment_people where user_id = $1 and removed_at is null', [userId])
    return new Set(rows.map((r) => Number(r.rule_id)))
  },

  /** The user as the audiences read them (null when unknown or deleted). */
  async audienceUser(em: EntityManager, userId: string) {
    const [row] = await sqlWithParams<{ id: string; is_admin: boolean; branch: string | null; department: string | null; user_group: string | null }>(
      em,
      'select id, is_admin, branch, department, user_group from users where id = $1 and deleted_at is null',
      [userId],
    )
    return row ? { id: row.id, isAdmin: row.is_admin, branch: row.branch, department: row.department, userGroup: row.user_group } : null
  },

  /** A deleted user's rows: no longer assigned (completions stay). */
  removeUser: (em: EntityManager, userId: string, at: Date) =>
    sqlWithParams(em, 'update assignment_people set removed_at = $2, updated_at = $2 where user_id = $1 and removed_at is null', [userId, at]),

  /**
   * The rules of a course or exam deleted with it: soft-deleted, their people's rows removed. The
   * item's row is locked first, so a rule being saved for it (which share-locks it) is either
   * committed and seen here, or waits and then finds the item gone.
   */
  async deleteRulesOfItem(em: EntityManager, kind: AssignmentItemKind, itemId: number, at: Date): Promise<void> {
    await sqlWithParams(em, `select 1 from ${kind === 'course' ? 'courses' : 'exams'} where id = $1 for update`, [itemId])
    const rules = await sqlWithParams<{ id: number }>(
      em,
      'update assignment_rules set deleted_at = $3, updated_at = $3 where item_kind = $1 and item_id = $2 and deleted_at is null returning id',
      [kind, itemId, at],
    )
    if (rules.length > 0)
      await sqlWithParams(em, 'update assignment_people set removed_at = $2, updated_at = $2 where rule_id = any($1::int[]) and removed_at is null', [rules.map((r) => r.id), at])
  },

  /**
   * The rows a completion of the item by the user may complete: live rows of live rules, row-locked,
   * with what a completion writes (the rule's recurrence, the certification expiry it follows).
   */
  async rowsToComplete(em: EntityManager, userId: string, kind: AssignmentItemKind, itemId: number) {
    const rows = await sqlWithParams<{
      rule_id: number
      due_on: string
      opens_on: string | null
      completed_on: string | null
      next_due_on: string | null
      next_opens_on: string | null
      cycle: number
      recurrence: unknown
      cert_expires_on: string | null
    }>(
      em,
      `select ap.rule_id, ap.due_on::text as due_on, ap.opens_on::text as opens_on, ap.completed_on::text as completed_on, ap.next_due_on::text as next_due_on,
              ap.next_opens_on::text as next_opens_on, ap.cycle, r.recurrence,
              (select max(ce.expiration_date)::text from certification_expiries ce
                where ce.user_id = ap.user_id and ce.certification_type_id = (r.recurrence ->> 'certification_type_id')::int) as cert_expires_on
         from assignment_people ap join assignment_rules r on r.id = ap.rule_id
        where ap.user_id = $1 and r.item_kind = $2 and r.item_id = $3 and r.deleted_at is null and ap.removed_at is null
        order by ap.rule_id
          for update of ap`,
      [userId, kind, itemId],
    )
    return rows.map((r) => ({ ...r, rule_id: Number(r.rule_id), cycle: Number(r.cycle), recurrence: json<AssignmentRecurrence>(r.recurrence) ?? null }))
  },

  /** Records the completion of a row's cycle: the row's facts and the kept completion. */
  async complete(
    em: EntityManager,
    c: {
      ruleId: number
      userId: string
      cycle: number
      dueOn: string
      opensOn: string | null
      completedOn: string
      at: Date
      next: { next_due_on: string; next_opens_on: string } | null
    },
  ): Promise<void> {
    await sqlWithParams(
      em,
      `update assignment_people set cycle = $3, due_on = $4, opens_on = $5, completed_on = $6, completed_at = $7, next_due_on = $8, next_opens_on = $9, updated_at = $7
        where rule_id = $1 and user_id = $2`,
      [c.ruleId, c.userId, c.cycle, c.dueOn, c.opensOn, c.completedOn, c.at, c.next?.next_due_on ?? null, c.next?.next_opens_on ?? null],
    )
    await sqlWithParams(
      em,
      `insert into assignment_completions (rule_id, user_id, cycle, due_on, completed_on, completed_at, on_time)
       values ($1, $2, $3, $4::date, $5::date, $6, $5::date <= $4::date) on conflict do nothing`,
      [c.ruleId, c.userId, c.cycle, c.dueOn, c.completedOn, c.at],
    )
  },
}

/** A hire date as the projection holds it (text), when it is a calendar day. */
const validDay = (v: string | null) => (v !== null && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : null)

/**
 * The learner's own assignments on `today`, in the order the dashboard shows them: one statement on
 * the user's index, prepared once per connection (the dashboard's hot path).
 */
export const myAssignmentsQuery = (orm: MikroORM) =>
  preparedStatement<Record<string, unknown>>(
    orm,
    'learning-my-assignments',
    `select * from (
       select ${PERSON_COLUMNS}, ${stateSql('$2')} as state, assignment_effective_due(ap.due_on, ap.completed_on, ap.next_due_on, ap.next_opens_on, $2::date) as effective_due
         from assignment_people ap join assignment_rules r on r.id = ap.rule_id
        where ap.user_id = $1 and ap.removed_at is null and r.deleted_at is null) p
      order by ${STATE_RANK}, p.effective_due, p.item_title, p.rule_id`,
  )

export const toPersonRow = (r: Record<string, unknown>) => toPerson<PersonRow>(r)
