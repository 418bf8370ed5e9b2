import { BRANCHES, departmentsOf } from '@portal/contracts'
import { Migration } from '@portal/server-kit'

/**
 * Certification expiry notifications (issue 12): a configuration per branch and department
 * (every combination, inactive until filled), the notices already published (the unique key that
 * makes each band's notice go once), the log, the runs, and the background leases that keep a
 * run on one instance at a time.
 */
export class CertificationNotifications extends Migration {
  override async up() {
    this.addSql(`create table notification_configs (
      id serial primary key,
      branch text not null,
      department text not null,
      manager_email text,
      operations_manager_email text,
      additional_email_1 text,
      additional_email_2 text,
      is_active boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (branch, department))`)
    const combos = BRANCHES.flatMap((b) => departmentsOf(b).map((d) => `('${b}', '${d}')`))
    this.addSql(`insert into notification_configs (branch, department) values ${combos.join(', ')} on conflict do nothing`)
    // One row per technician certification, expiry date and band: the notice of a band goes once
    // (a renewal's new expiry date starts afresh). Written in the transaction of the outbox event.
    this.addSql(`create table notification_notices (
      technician_certification_id integer not null,
      expiration_date date not null,
      band smallint not null check (band in (30, 14, 7, 0)),
      run_id integer,
      created_at timestamptz not null default now(),
      primary key (technician_certification_id, expiration_date, band))`)
    // Weekly reports: one per configuration and period (a scheduled week, or a manual run).
    this.addSql(`create table notification_report_keys (
      config_id integer not null references notification_configs (id) on delete cascade,
      period text not null,
      created_at timestamptz not null default now(),
      primary key (config_id, period))`)
    this.addSql(`create table notification_runs (
      id serial primary key,
      kind text not null check (kind in ('daily', 'weekly')),
      trigger text not null check (trigger in ('schedule', 'manual')),
      run_date date not null,
      started_at timestamptz not null,
      finished_at timestamptz,
      published integer not null default 0,
      paused integer not null default 0)`)
    // A scheduled run happens once a day per kind, however many instances' schedules fire.
    this.addSql("create unique index notification_runs_scheduled on notification_runs (kind, run_date) where trigger = 'schedule'")
    // The log (admin §3): one row per e-mail notice (its recipients), or per withheld one (paused).
    this.addSql(`create table notification_logs (
      id bigserial primary key,
      notice_id uuid not null unique,
      run_id integer,
      user_id uuid,
      technician_name text,
      branch text,
      department text,
      technician_certification_id integer,
      certification_id integer,
      certification_code text,
      certification_name text,
      notification_type text not null,
      recipient_emails text[] not null default '{}',
      status text not null check (status in ('queued', 'sent', 'failed', 'paused')),
      error text,
      expiration_date date,
      days_until_expiry integer,
      sent_at timestamptz not null,
      delivered_at timestamptz,
      acknowledged_at timestamptz)`)
    this.addSql('create index notification_logs_sent on notification_logs (sent_at desc, id desc)')
    // A secret of this service's database (the acknowledgement links' HMAC key), shared by every instance.
    this.addSql('create table notification_secrets (name text primary key, value text not null)')
    this.addSql('create table if not exists background_leases (name text primary key, holder text not null, until timestamptz not null)')
  }
}
