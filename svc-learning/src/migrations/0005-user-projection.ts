import { Migration } from '@portal/server-kit'

/**
 * Learning's projection of identity's users (DESIGN "Data and events"): who may be assigned and
 * whose stats a manager may read, without calling identity on the request path.
 */
export class UserProjection extends Migration {
  override async up() {
    this.addSql(`create table users (
      id uuid primary key,
      name text,
      email text,
      is_admin boolean not null default false,
      is_manager boolean not null default false,
      branch text,
      department text,
      user_group text,
      -- occurredAt of the last event applied: events of one user may arrive out of order (one
      -- durable consumer per subject, redeliveries), and an older one must not win
      occurred_at timestamptz not null,
      -- a deleted user keeps an id-only row, so a registration or update delivered late cannot bring them back
      deleted_at timestamptz,
      constraint users_facts check (deleted_at is not null or (name is not null and email is not null)))`)
  }
}
