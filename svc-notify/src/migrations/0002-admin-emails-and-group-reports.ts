import { AUDIT_TRAIL_SQL, UserProjectionTables } from '@portal/server-kit'

/**
 * Admin e-mails, group notification rules with their tracked items, notify's projections of
 * identity's users and groups and of learning's exam and course events (reports are built from
 * them, never from calls on the request path), and the audit trail of admin changes.
 */
export class AdminEmailsAndGroupReports extends UserProjectionTables {
  override async up() {
    await super.up()
    this.addSql(`create table if not exists admin_emails (
      id serial primary key,
      email text not null,
      name text,
      notification_types text[] not null,
      is_active boolean not null default true,
      created_at timestamptz not null,
      updated_at timestamptz not null)`)
    this.addSql('create unique index if not exists admin_emails_email on admin_emails (lower(email))')
    this.addSql(`create table if not exists user_groups (
      id uuid primary key,
      name text not null unique,
      created_at timestamptz not null)`)
    this.addSql(`create table if not exists notification_rules (
      id serial primary key,
      user_group text not null unique,
      notification_type text not null default 'group_report',
      is_active boolean not null default true,
      recipient_emails text[] not null default '{}',
      report_frequency text not null default 'weekly' check (report_frequency in ('immediate', 'daily', 'weekly', 'monthly')),
      report_day_of_week smallint check (report_day_of_week between 0 and 6),
      last_report_sent timestamptz,
      -- the latest scheduled slot handled (sent, or skipped as empty): a slot is handled once
      report_slot_done timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint day_of_week_weekly_only check ((report_frequency = 'weekly') = (report_day_of_week is not null)))`)
    this.addSql(`create table if not exists rule_tracking_items (
      rule_id int not null references notification_rules (id) on delete cascade,
      item_type text not null check (item_type in ('exam', 'course')),
      item_id int not null,
      name text not null,
      primary key (rule_id, item_type, item_id))`)
    this.addSql(`create table if not exists learner_exam_results (
      user_id uuid not null,
      exam_id int not null,
      exam_name text not null,
      attempts int not null,
      best_score numeric not null,
      passed boolean not null,
      last_submitted_at timestamptz not null,
      primary key (user_id, exam_id))`)
    this.addSql(`create table if not exists learner_course_progress (
      user_id uuid not null,
      course_id int not null,
      course_title text not null,
      progress int not null check (progress between 0 and 100),
      completed_at timestamptz,
      last_activity_at timestamptz not null,
      primary key (user_id, course_id))`)
    for (const sql of AUDIT_TRAIL_SQL) this.addSql(sql)
  }
}
