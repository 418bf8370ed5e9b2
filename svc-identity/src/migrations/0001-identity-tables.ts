import { Migration } from '@portal/server-kit'

/** Users, user groups, verification codes, reset tokens and the sign-in throttle. */
export class IdentityTables extends Migration {
  override async up() {
    this.addSql(`create table user_groups (
      id uuid primary key,
      name text not null,
      created_at timestamptz not null)`)
    this.addSql('create unique index user_groups_name_lower on user_groups (lower(name))')
    this.addSql(`create table users (
      id uuid primary key,
      name text not null,
      email text not null,
      password_hash text not null,
      is_admin boolean not null default false,
      is_manager boolean not null default false,
      manager_scope jsonb not null default '{"branches":[],"departments":[]}',
      branch text,
      department text,
      user_group text,
      employee_id text,
      hire_date text,
      email_verified boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint users_email_lowercase check (email = lower(email)))`)
    this.addSql('create unique index users_email on users (email)')
    this.addSql('create index users_name on users (name)')
    this.addSql(`create table verification_codes (
      user_id uuid primary key references users (id) on delete cascade,
      code_hash text not null,
      salt text not null,
      expires_at timestamptz not null,
      attempts int not null default 0,
      last_sent_at timestamptz not null,
      send_window_started_at timestamptz not null,
      sends_in_window int not null default 1)`)
    this.addSql(`create table password_reset_tokens (
      id uuid primary key,
      user_id uuid not null references users (id) on delete cascade,
      token_hash text not null unique,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null)`)
    this.addSql('create index password_reset_tokens_user on password_reset_tokens (user_id, created_at)')
    this.addSql(`create table login_throttle (
      key text primary key,
      failures int not null,
      window_started_at timestamptz not null)`)
  }
}
