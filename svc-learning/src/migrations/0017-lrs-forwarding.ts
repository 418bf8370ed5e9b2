import { Migration } from '@portal/server-kit'

/**
 * Statements out (issue 26): the one external learning record store an admin may name and what
 * the sender last did with it (one row, id 1, made on the first save; the password is kept to be
 * sent with Basic auth and never returned by the API), and the statements waiting to be sent.
 */
export class LrsForwarding extends Migration {
  override async up() {
    this.addSql(`create table lrs_forwarding (
      id smallint primary key default 1 check (id = 1),
      endpoint text not null default '',
      username text not null default '',
      password text not null default '',
      enabled boolean not null default false,
      last_sent_at timestamptz,
      last_error text,
      last_error_at timestamptz,
      updated_at timestamptz not null default now()
    )`)
    // Statements waiting to be sent: the consumer of learning's events adds one per event (its id
    // derived from the event's, so a redelivered event adds nothing); the sender deletes it once
    // the LRS took it (or refused it for good), and while the LRS is down retries with backoff.
    this.addSql(`create table xapi_forward_queue (
      statement_id uuid primary key,
      event_id uuid not null,
      statement jsonb not null,
      created_at timestamptz not null default now(),
      attempts integer not null default 0,
      last_error text
    )`)
    this.addSql('create index xapi_forward_queue_order on xapi_forward_queue (created_at, statement_id)')
    // The sender runs on one instance at a time (the server kit's lease of background work).
    this.addSql('create table if not exists background_leases (name text primary key, holder text not null, until timestamptz not null)')
  }
}
