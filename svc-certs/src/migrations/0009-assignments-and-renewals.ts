import { Migration } from '@portal/server-kit'

/**
 * Training that is due (issue 24), certs' side:
 * - `member_assignments`: the projection of learning's assignments (`learning.assignment.changed.v1`),
 *   one row per person and rule with the highest `version` seen; a person the rule no longer
 *   assigns keeps a `removed` row, so an older event arriving late cannot bring them back.
 *   `overdue_from` is the first day the row can be overdue (null: never, as it stands): a lower
 *   bound the team dashboard's index narrows the rows with before `assignment_state` decides.
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
      -- overdue is only possible once the cycle that counts is past its due date: the current
      -- cycle's while it is open, the next one's after a completion
      overdue_from date generated always as (
        case when removed or exempt then null
             when completed_on is null then due_on + 1
             when next_due_on is not null then next_due_on + 1 end) stored,
      primary key (user_id, rule_id))`)
    this.addSql('create index member_assignments_overdue on member_assignments (user_id, overdue_from) where overdue_from is not null')
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
