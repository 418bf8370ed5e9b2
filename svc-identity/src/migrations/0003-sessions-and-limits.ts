import { Migration } from '@portal/server-kit'

/**
 * Refresh tokens (short access tokens, sessions kept by a rotating refresh token), each user's auth
 * version, limits reserved atomically before the work they limit (replacing the sign-in throttle,
 * which counted failures only after checking the password), and decoy registrations.
 */
export class SessionsAndLimits extends Migration {
  override async up() {
    // Raised whenever the facts a token carries stop being true; tokens carry it as `ver`.
    this.addSql('alter table users add column auth_version int not null default 0')
    this.addSql(`create table refresh_tokens (
      id uuid primary key,
      -- every token of one sign-in, rotation after rotation; a reused one revokes them all
      family_id uuid not null,
      user_id uuid not null references users (id) on delete cascade,
      token_hash text not null unique,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      family_expires_at timestamptz not null,
      used_at timestamptz,
      revoked_at timestamptz)`)
    this.addSql('create index refresh_tokens_user on refresh_tokens (user_id)')
    this.addSql('create index refresh_tokens_family on refresh_tokens (family_id)')
    this.addSql('drop table login_throttle')
    this.addSql(`create table auth_limits (
      key text primary key,
      -- uses reserved in the current window: failures, and attempts still under way
      used int not null,
      window_started_at timestamptz not null,
      -- keys with a lockout: locked until then; lockouts so far (the next one lasts twice as long)
      locked_until timestamptz,
      lockouts int not null default 0)`)
    // A registration with an address already taken answers like a new one: the id it returns
    // behaves as a pending registration's would (resend and verify limits), with no user behind it.
    this.addSql(`create table verification_decoys (
      user_id uuid primary key,
      code_hash text not null,
      salt text not null,
      expires_at timestamptz not null,
      attempts int not null default 0,
      last_sent_at timestamptz not null,
      send_window_started_at timestamptz not null,
      sends_in_window int not null,
      created_at timestamptz not null)`)
    this.addSql('create index verification_decoys_created on verification_decoys (created_at)')
  }
}
