/**
 * The assignment state rule of `@portal/contracts/assignment-rules` in SQL (issue 24), for the two
 * services that read assignment states in bulk: svc-learning (reports, the daily scan) and
 * svc-certs (the team dashboard's Overdue figures). Created at every start (`create or replace`,
 * through a service definition's `routines`), never frozen in a migration, so the rule changes in
 * one commit on both sides; `assignment-rules-sql.test.ts` checks both agree over the boundary days.
 *
 * TypeScript                      SQL
 * assignmentState(f, today)       assignment_state(due_on, opens_on, completed_on, next_due_on, next_opens_on, exempt, due_soon_days, today)
 * effectiveDueOn(f, today)        assignment_effective_due(due_on, completed_on, next_due_on, next_opens_on, today)
 */
export const assignmentRoutines = (): string[] => [
  `create or replace function assignment_effective_due(due_on date, completed_on date, next_due_on date, next_opens_on date, today date)
     returns date language sql immutable as $$
     select case when completed_on is not null and next_due_on is not null and (next_opens_on is null or today >= next_opens_on)
       then next_due_on else due_on end $$`,
  `create or replace function assignment_state(due_on date, opens_on date, completed_on date, next_due_on date, next_opens_on date,
       exempt boolean, due_soon_days integer, today date) returns text language sql immutable as $$
     select case
       when exempt then 'exempt'
       when completed_on is not null and next_due_on is not null and (next_opens_on is null or today >= next_opens_on) then
         case when next_due_on < today then 'overdue'
              when next_due_on - today <= due_soon_days then 'due_soon'
              else 'open' end
       when completed_on is not null then case when completed_on <= due_on then 'completed_on_time' else 'completed_late' end
       when opens_on is not null and today < opens_on then 'not_due_yet'
       when due_on < today then 'overdue'
       when due_on - today <= due_soon_days then 'due_soon'
       else 'open' end $$`,
]
