import { Migration } from '@portal/server-kit'

/**
 * Training that is due (issue 24), certs' side:
 * - `member_assignments`: the projection of learning's assignments (`learning.assignment.changed.v1`),
 *   one row per person and rule with the highest `version` seen; a person the rule no longer
 *   assigns keeps a `removed` row, so an older event arriving late cannot bring them back.
 *   `overdue_from` is the first day the row is overdue as it stands (null: never): the state rule
 *   (`assignment_state`) says overdue exactly from that day on, and stays so until the facts change.
 * - `team_member_figures.overdue_assignments`: the member's assignments overdue on `computed_on`,
 *   kept with the other figures (decision 0036) by `certs_refresh_member_figures` (created at
 *   start, `compliance/rules-sql.ts`), which also makes the row stale on the next `overdue_from`;
 *   a change of a member's assignments recomputes their row in its transaction, as a change of
 *   their certifications does.
 * - `certification_type_renewals`: the courses and exams whose completion (a pass, for exams)
 *   renews a certification type (`renewed_by`), with the title the admin picked.
 */
export class AssignmentsAndRenewals extends Migration {
  override async up() {
    this.addSql(`create table member_assignments (
      user_id uuid not null,
      rule_id integer not null,
      item_kind text not null check (item_kind in ('course', 'exam')),
      item_id integer not null,
      item_title text not null,
      assigned_on date not null,
      due_on date not null,
      opens_on date,
      completed_on date,
      next_due_on date,
      next_opens_on date,
      exempt boolean not null,
      exempt_reason text,
      due_soon_days integer not null,
      recurring boolean not null,
      removed boolean not null,
      version integer not null,
      changed_at timestamptz not null,
      -- the day after the due date of the cycle that counts, once that cycle is open: the current
      -- one while it is not completed, the next one after a completion (greatest() skips nulls)
      overdue_from date generated always as (
        case when removed or exempt then null
             when completed_on is null then greatest(due_on + 1, opens_on)
             when next_due_on is not null then greatest(next_due_on + 1, next_opens_on) end) stored,
      primary key (user_id, rule_id))`)
    this.addSql('create index member_assignments_overdue on member_assignments (user_id, overdue_from) where overdue_from is not null')
    // Kept with the member's other figures; nobody has an assignment yet, so 0 is every row's count.
    this.addSql('alter table team_member_figures add column overdue_assignments integer not null default 0')
    // A member's assignments: their row (the trigger functions of migration 0006).
    this.addSql(
      'create trigger member_assignments_figures_insert after insert on member_assignments referencing new table as new_rows for each statement execute function certs_figures_of_new()',
    )
    this.addSql(
      'create trigger member_assignments_figures_update after update on member_assignments referencing old table as old_rows new table as new_rows for each statement execute function certs_figures_of_both()',
    )
    this.addSql(
      'create trigger member_assignments_figures_delete after delete on member_assignments referencing old table as old_rows for each statement execute function certs_figures_of_old()',
    )
    this.addSql(`create table certification_type_renewals (
      certification_type_id integer not null references certification_types (id) on delete cascade,
      item_kind text not null check (item_kind in ('course', 'exam')),
      item_id integer not null,
      item_title text not null,
      -- the admin's order
      position smallint not null,
      primary key (certification_type_id, item_kind, item_id))`)
    this.addSql('create index certification_type_renewals_item on certification_type_renewals (item_kind, item_id)')
  }
}
