import { Migration } from '@portal/server-kit'

/** Deliveries queued by the event consumers and the dev mailbox. */
export class EmailDeliveries extends Migration {
  override async up() {
    this.addSql(`create table if not exists email_deliveries (
      id uuid primary key,
      event_id uuid not null,
      kind text not null,
      recipient text not null,
      subject text not null,
      text text not null,
      html text not null,
      status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
      attempts int not null default 0,
      next_attempt_at timestamptz not null,
      last_error text,
      created_at timestamptz not null,
      sent_at timestamptz)`)
    this.addSql("create index if not exists email_deliveries_due on email_deliveries (next_attempt_at) where status = 'pending'")
    this.addSql('create index if not exists email_deliveries_event on email_deliveries (event_id)')
    this.addSql(`create table if not exists mailbox_messages (
      id uuid primary key,
      recipient text not null,
      subject text not null,
      text text not null,
      html text not null,
      sent_at timestamptz not null)`)
    this.addSql('create index if not exists mailbox_messages_recipient on mailbox_messages (lower(recipient), sent_at desc)')
  }
}
