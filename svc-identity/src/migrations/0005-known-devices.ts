import { Migration } from '@portal/server-kit'

/** Device cookies: the browsers each user signed in from (decision 0042). */
export class KnownDevices extends Migration {
  override async up() {
    this.addSql(`create table known_devices (
      id uuid primary key,
      user_id uuid not null references users (id) on delete cascade,
      token_hash text not null unique,
      created_at timestamptz not null,
      expires_at timestamptz not null)`)
    this.addSql('create index known_devices_user on known_devices (user_id, created_at)')
    this.addSql('create index known_devices_expires on known_devices (expires_at)')
  }
}
