import { Migration } from '@portal/server-kit'

/**
 * Company sign-in with OpenID Connect (issue 25, decision 0052): the providers an admin configured,
 * each person's identities at providers, the sign-in attempts under way, the links waiting for a
 * password sign-in, and the portal sessions a provider vouches for.
 */
export class CompanySignIn extends Migration {
  override async up() {
    this.addSql(`create table sign_in_providers (
      key text primary key,
      display_name text not null,
      issuer text not null,
      client_id text not null,
      -- write-only through the API: never answered, never logged
      client_secret text,
      scopes jsonb not null,
      allowed_domains jsonb not null default '[]',
      claims jsonb not null,
      roles jsonb not null,
      local_passwords boolean not null default true,
      admin_break_glass boolean not null default true,
      created_at timestamptz not null,
      updated_at timestamptz not null)`)
    // A person at a provider is its issuer and subject (OpenID Connect Core 5.7), whatever the key.
    this.addSql(`create table user_identities (
      issuer text not null,
      subject text not null,
      user_id uuid not null references users (id) on delete cascade,
      provider_key text not null,
      created_at timestamptz not null,
      last_sign_in_at timestamptz not null,
      primary key (issuer, subject))`)
    this.addSql('create index user_identities_user on user_identities (user_id)')
    // One row per "Sign in with ..." click: what the callback checks, bound to the browser by a cookie.
    this.addSql(`create table oidc_sign_in_attempts (
      id uuid primary key,
      binding_hash text not null unique,
      provider_key text not null,
      state text not null,
      nonce text not null,
      code_verifier text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz)`)
    this.addSql('create index oidc_sign_in_attempts_expires on oidc_sign_in_attempts (expires_at)')
    // An identity whose e-mail belongs to a local account: linked only by that account's next
    // password sign-in from the same browser (no silent takeover).
    this.addSql(`create table pending_identity_links (
      user_id uuid primary key references users (id) on delete cascade,
      binding_hash text not null unique,
      issuer text not null,
      subject text not null,
      provider_key text not null,
      created_at timestamptz not null,
      expires_at timestamptz not null)`)
    // A portal session (a refresh token family) that a provider vouches for: re-checked at each refresh.
    this.addSql(`create table oidc_sessions (
      family_id uuid primary key,
      user_id uuid not null references users (id) on delete cascade,
      provider_key text not null,
      issuer text not null,
      subject text not null,
      refresh_token text,
      access_token text,
      access_token_expires_at timestamptz,
      id_token text,
      checked_at timestamptz not null,
      -- a re-check under way (by any instance) until then; others wait for its outcome
      checking_until timestamptz,
      ended_at timestamptz,
      expires_at timestamptz not null)`)
    this.addSql('create index oidc_sessions_user on oidc_sessions (user_id)')
    this.addSql('create index oidc_sessions_expires on oidc_sessions (expires_at)')
  }
}
