import { Migration } from '@portal/server-kit'

/** `YYYY-MM-DD` of a date column, or JSON null. */
const day = (column: string) => `case when ${column} is null then null else to_char(${column}, 'YYYY-MM-DD') end`

/**
 * Training that is due (issue 24, decision 0051). An admin's assignment rule gives an exam or a
 * course to an audience with a due date, maybe recurring, with reminders. Each person it assigns
 * has one row in `assignment_people` with the current cycle's dates; a completion stays in
 * `assignment_completions` whatever happens to the rule later. `assignment_reminders` is the ledger
 * that lets each reminder step go out once per person, rule, due date and stage, across retries
 * and instances. `user_groups` and `certification_expiries` are learning's projections of
 * identity's groups and certs' certifications.
 *
 * Every change of a person's row is announced as `learning.assignment.changed.v1` by a trigger, in
 * the same transaction as the change, so no code path (an edit, a completion, a scan, an
 * exemption) can change a row without svc-certs' projection hearing of it; `version` grows with
 * each change, so the projection keeps the newest.
 */
export class AssignmentRules extends Migration {
  override async up() {
    this.addSql(`create table assignment_rules (
      id serial primary key,
      item_kind text not null check (item_kind in ('course', 'exam')),
      item_id integer not null,
      audience jsonb not null,
      due jsonb not null,
      recurrence jsonb,
      due_soon_days integer not null check (due_soon_days >= 0),
      reminders jsonb not null,
      created_by uuid,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz)`)
    this.addSql('create index assignment_rules_item on assignment_rules (item_kind, item_id) where deleted_at is null')

    this.addSql(`create table assignment_people (
      rule_id integer not null references assignment_rules (id),
      user_id uuid not null,
      assigned_on date not null,
      due_on date not null,
      opens_on date,
      completed_on date,
      completed_at timestamptz,
      next_due_on date,
      next_opens_on date,
      cycle integer not null default 1,
      exempt_reason text,
      exempted_by uuid,
      exempted_at timestamptz,
      -- no longer under the rule (audience changed, user deleted, rule deleted); completions are kept
      removed_at timestamptz,
      version integer not null default 1,
      updated_at timestamptz not null,
      primary key (rule_id, user_id))`)
    this.addSql('create index assignment_people_user on assignment_people (user_id) where removed_at is null')
    // The daily scan reads outstanding rows by due date.
    this.addSql('create index assignment_people_outstanding on assignment_people (due_on) where removed_at is null and exempt_reason is null')

    this.addSql(`create table assignment_completions (
      rule_id integer not null,
      user_id uuid not null,
      cycle integer not null,
      due_on date not null,
      completed_on date not null,
      completed_at timestamptz not null,
      on_time boolean not null,
      primary key (rule_id, user_id, cycle))`)

    this.addSql(`create table assignment_reminders (
      rule_id integer not null,
      user_id uuid not null,
      due_on date not null,
      stage text not null check (stage in ('before', 'due', 'overdue', 'manager', 'operations')),
      on_day date not null,
      recorded_at timestamptz not null,
      primary key (rule_id, user_id, due_on, stage))`)

    this.addSql(`create table user_groups (
      id uuid primary key,
      name text not null unique,
      created_at timestamptz not null)`)

    this.addSql(`create table certification_expiries (
      certification_id integer primary key,
      user_id uuid not null,
      certification_type_id integer not null,
      expiration_date date,
      occurred_at timestamptz not null)`)
    this.addSql('create index certification_expiries_user_type on certification_expiries (user_id, certification_type_id)')

    // A row's version grows with every change of its facts.
    this.addSql(`create function assignment_people_version() returns trigger language plpgsql as $$
      begin
        new.version := old.version + 1;
        return new;
      end $$`)
    this.addSql(`create trigger assignment_people_version before update on assignment_people
      for each row when (old is distinct from new) execute function assignment_people_version()`)

    // Every insert and change of a row is announced in the same transaction (the outbox relay publishes rows written by SQL).
    this.addSql(`create function assignment_people_announce() returns trigger language plpgsql as $$
      declare
        r assignment_rules%rowtype;
        title text;
        event_id uuid := gen_random_uuid();
        at text := to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
      begin
        select * into r from assignment_rules where id = new.rule_id;
        if r.item_kind = 'course' then
          select c.title into title from courses c where c.id = r.item_id;
        else
          select e.name into title from exams e where e.id = r.item_id;
        end if;
        insert into outbox (id, type, payload, occurred_at, sent_at, attempts)
        values (event_id, 'learning.assignment.changed.v1', jsonb_build_object(
          'id', event_id, 'type', 'learning.assignment.changed.v1', 'occurredAt', at,
          'data', jsonb_build_object(
            'ruleId', new.rule_id, 'userId', new.user_id, 'itemKind', r.item_kind, 'itemId', r.item_id, 'itemTitle', coalesce(title, ''),
            'assignedOn', ${day('new.assigned_on')}, 'dueOn', ${day('new.due_on')}, 'opensOn', ${day('new.opens_on')},
            'completedOn', ${day('new.completed_on')}, 'nextDueOn', ${day('new.next_due_on')}, 'nextOpensOn', ${day('new.next_opens_on')},
            'exempt', new.exempt_reason is not null, 'exemptReason', new.exempt_reason, 'dueSoonDays', r.due_soon_days,
            'recurring', r.recurrence is not null, 'removed', new.removed_at is not null or r.deleted_at is not null,
            'version', new.version, 'at', at)), now(), null, 0);
        return new;
      end $$`)
    this.addSql(`create trigger assignment_people_announce_insert after insert on assignment_people
      for each row execute function assignment_people_announce()`)
    this.addSql(`create trigger assignment_people_announce_update after update on assignment_people
      for each row when (old.version is distinct from new.version) execute function assignment_people_announce()`)
  }
}
