import { Migration } from '@portal/server-kit'

/**
 * Training that is due (issue 24): notify's projections of svc-certs' branch/department
 * notification configurations and of technicians' paused notifications (the latest `at` wins), of
 * each person's assignment as learning last announced it (the highest `version` wins), the
 * reminders waiting for a digest (one row per rule, person, due date, stage and recipient address:
 * a redelivered event or a second instance adds nothing), and the digests sent (one per recipient
 * address and day).
 */
export class AssignmentReminders extends Migration {
  override async up() {
    this.addSql(`create table if not exists certs_notification_configs (
      config_id integer primary key,
      branch text,
      department text,
      manager_email text,
      operations_manager_email text,
      is_active boolean not null,
      at timestamptz not null)`)
    this.addSql('create index if not exists certs_notification_configs_org on certs_notification_configs (branch, department) where is_active')
    this.addSql(`create table if not exists notification_pauses (
      user_id uuid primary key,
      paused_until timestamptz,
      at timestamptz not null)`)
    this.addSql(`create table if not exists assignment_facts (
      rule_id integer not null,
      user_id uuid not null,
      version integer not null,
      due_on date not null,
      next_due_on date,
      completed_on date,
      exempt boolean not null,
      removed boolean not null,
      at timestamptz not null,
      primary key (rule_id, user_id))`)
    this.addSql(`create table if not exists assignment_reminders (
      id bigserial primary key,
      rule_id integer not null,
      user_id uuid not null,
      item_kind text not null check (item_kind in ('course', 'exam')),
      item_id integer not null,
      item_title text not null,
      due_on date not null,
      stage text not null check (stage in ('before', 'due', 'overdue', 'manager', 'operations')),
      -- lower case; the learner's own address, a manager's, or a configuration's
      recipient text not null,
      role text not null check (role in ('learner', 'manager', 'operations')),
      -- the company's day of the scan that raised it
      scan_on date not null,
      event_id uuid not null,
      -- pending: waits for its recipient's digest; paused: the learner had paused notifications;
      -- cancelled: completed, exempt or removed before the digest; sent: in the digest of digest_day
      status text not null check (status in ('pending', 'paused', 'cancelled', 'sent')),
      created_at timestamptz not null default now(),
      finished_at timestamptz,
      digest_day date,
      delivery_id uuid,
      unique (rule_id, user_id, due_on, stage, recipient))`)
    this.addSql("create index if not exists assignment_reminders_pending on assignment_reminders (recipient, created_at) where status = 'pending'")
    this.addSql("create index if not exists assignment_reminders_pending_person on assignment_reminders (user_id, rule_id) where status = 'pending'")
    this.addSql(`create table if not exists assignment_digests (
      recipient text not null,
      day date not null,
      delivery_id uuid not null,
      items integer not null,
      created_at timestamptz not null default now(),
      primary key (recipient, day))`)
  }
}
