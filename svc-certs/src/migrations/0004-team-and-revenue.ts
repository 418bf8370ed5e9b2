import { Migration } from '@portal/server-kit'

/** Monthly revenue per technician and tier promotion requests (issue 11). */
export class TeamAndRevenueTables extends Migration {
  override async up() {
    // One record per technician and month: a second entry for the month updates it.
    this.addSql(`create table revenue_records (
      id serial primary key,
      user_id uuid not null,
      month text not null check (month ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
      gross_revenue numeric(14, 2) not null check (gross_revenue >= 0),
      -- optional before 2025-01 (learner §5 hint), required from then on
      pay_amount numeric(14, 2) check (pay_amount >= 0),
      entered_by uuid not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (user_id, month),
      constraint revenue_records_pay_from_2025 check (month < '2025-01' or pay_amount is not null))`)
    this.addSql('create index revenue_records_month on revenue_records (month)')
    this.addSql('create index revenue_records_recent on revenue_records (updated_at desc, id desc)')
    // Names are kept as they were when asked and decided (the people may leave later).
    this.addSql(`create table promotion_requests (
      id serial primary key,
      user_id uuid not null,
      from_tier smallint not null check (from_tier between 0 and 3),
      to_tier smallint not null check (to_tier between 0 and 3 and to_tier > from_tier),
      justification text not null,
      status text not null check (status in ('pending', 'approved', 'denied')),
      requested_by uuid not null,
      requested_by_name text not null,
      requested_at timestamptz not null,
      decided_by uuid,
      decided_by_name text,
      decided_at timestamptz,
      decision_note text)`)
    // At most one pending request per technician.
    this.addSql(`create unique index promotion_requests_pending on promotion_requests (user_id) where status = 'pending'`)
    this.addSql('create index promotion_requests_requester on promotion_requests (requested_by, requested_at desc)')
  }
}
