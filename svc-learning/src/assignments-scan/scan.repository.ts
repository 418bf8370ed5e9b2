import type { EntityManager } from '@mikro-orm/postgresql'
import { sqlWithParams } from '../sql.ts'
import { reminderStagesSql } from './reminder-stages-sql.ts'

/** `YYYY-MM-DD` of a date expression. */
const day = (expr: string) => `to_char(${expr}, 'YYYY-MM-DD')`

/**
 * The daily due-date scan in one statement ($1: the company's today), so 100,000 assignments cost
 * one pass over them:
 * 1. `outstanding`: every person's row of a live rule that still asks something of them on $1 —
 *    not removed, not exempt, in a cycle that is open and not completed (a recurring row whose next
 *    cycle has opened counts with the next cycle's due date: `assignment_effective_due`);
 * 2. `reached`: the reminder steps reached on $1 by `reminderStagesReached` (in SQL), the learner's
 *    latest only, so a scan catching up after days sends where they stand, not every step missed;
 * 3. `inserted`: those steps added to the ledger, `on conflict do nothing`: a step already recorded
 *    for this person, rule and due date (an earlier run, another instance) is not inserted again;
 *    nor is a learner step once a later one was recorded for the same due date (no `before` after
 *    `due`, should the clock or the time zone go back);
 * 4. `written`: one outbox event per step actually inserted, in the same statement, so a step is
 *    recorded if and only if its event is (the relay publishes rows written by SQL).
 * Answers the rows scanned and the steps recorded by stage.
 */
export const DUE_DATE_SCAN = `
with params as (
  select $1::date as today, to_char($1::date, 'YYYY-MM-DD') as on_day, to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at,
         -- The events' ids: a random v4 prefix per scan and a counter. One random draw per scan, and ids
         -- that follow each other fill the outbox's key index in order (random ones cost seconds per 100,000).
         left(gen_random_uuid()::text, 24) as id_prefix
),
outstanding as (
  select p.rule_id, p.user_id, r.reminders,
         assignment_effective_due(p.due_on, p.completed_on, p.next_due_on, p.next_opens_on, params.today) as due_on
    from assignment_people p
    join assignment_rules r on r.id = p.rule_id
    cross join params
   where r.deleted_at is null and p.removed_at is null and p.exempt_reason is null
     and assignment_state(p.due_on, p.opens_on, p.completed_on, p.next_due_on, p.next_opens_on, false, r.due_soon_days, params.today)
         in ('overdue', 'due_soon', 'open')
),
reached as (
  select o.rule_id, o.user_id, o.due_on, s.stage
    from outstanding o
    cross join params
    cross join lateral unnest(${reminderStagesSql('o.due_on', 'params.today', 'o.reminders')}) as s(stage)
),
inserted as (
  insert into assignment_reminders (rule_id, user_id, due_on, stage, on_day, recorded_at)
  select x.rule_id, x.user_id, x.due_on, x.stage, params.today, now()
    from reached x
    cross join params
   where not exists (
           select 1 from assignment_reminders l
            where l.rule_id = x.rule_id and l.user_id = x.user_id and l.due_on = x.due_on
              and ((x.stage = 'before' and l.stage in ('due', 'overdue')) or (x.stage = 'due' and l.stage = 'overdue')))
   -- A barrier: the sort takes in every step before the first is inserted, so the guard above reads
   -- the ledger as it was, never pages this statement is filling (a plan probing a ledger its
   -- statistics say is empty would otherwise rescan them per step: quadratic on a first scan). The
   -- key order also keeps the ledger's index inserts local.
   order by x.rule_id, x.user_id, x.due_on, x.stage
  on conflict do nothing
  returning rule_id, user_id, due_on, stage
),
announced as (
  select (params.id_prefix || lpad(to_hex(row_number() over ()), 12, '0'))::uuid as id,
         case when i.stage in ('before', 'due') then 'learning.assignment.due-soon.v1' else 'learning.assignment.overdue.v1' end as type,
         i.stage in ('before', 'due') as learner_ahead, i.*
    from inserted i
    cross join params
),
written as (
  insert into outbox (id, type, payload, occurred_at, sent_at, attempts)
  select a.id, a.type,
         jsonb_build_object('id', a.id, 'type', a.type, 'occurredAt', params.at,
           'data', jsonb_build_object(
             'ruleId', a.rule_id, 'userId', a.user_id, 'itemKind', r.item_kind, 'itemId', r.item_id, 'itemTitle', coalesce(c.title, e.name, ''),
             'dueOn', ${day('a.due_on')}, 'on', params.on_day, 'stage', a.stage,
             case when a.learner_ahead then 'daysLeft' else 'daysOverdue' end, abs(a.due_on - params.today))),
         now(), null, 0
    from announced a
    cross join params
    join assignment_rules r on r.id = a.rule_id
    left join courses c on r.item_kind = 'course' and c.id = r.item_id
    left join exams e on r.item_kind = 'exam' and e.id = r.item_id
  returning type
)
select (select count(*) from outstanding)::int as scanned,
       (select count(*) from written)::int as emitted,
       (select coalesce(jsonb_object_agg(stage, n), '{}'::jsonb) from (select stage, count(*)::int as n from inserted group by stage) s) as stages`

/** What one scan did. */
export interface ScanCounts {
  /** Outstanding rows looked at. */
  scanned: number
  /** Reminder events written to the outbox (one per step recorded). */
  emitted: number
  /** Steps recorded, by stage. */
  stages: Partial<Record<'before' | 'due' | 'overdue' | 'manager' | 'operations', number>>
}

/** Queries of the due-date scan. */
export const scanRepository = {
  /** Takes the scan for the transaction; false when another instance is running it. */
  async tryLock(em: EntityManager): Promise<boolean> {
    const [lock] = (await em.execute("select pg_try_advisory_xact_lock(hashtext('learning.assignment-scan')) as locked")) as { locked: boolean }[]
    return lock?.locked === true
  },

  /** Records and announces every reminder step reached on `today` and not recorded yet (see `DUE_DATE_SCAN`). */
  async scan(em: EntityManager, today: string): Promise<ScanCounts> {
    const [row] = await sqlWithParams<{ scanned: number; emitted: number; stages: ScanCounts['stages'] | string }>(em, DUE_DATE_SCAN, [today])
    const stages = typeof row!.stages === 'string' ? (JSON.parse(row!.stages) as ScanCounts['stages']) : row!.stages
    return { scanned: row!.scanned, emitted: row!.emitted, stages }
  },
}
