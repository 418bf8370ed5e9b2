import type { EntityManager } from '@mikro-orm/postgresql'
import { SecretUnreadable, type SecretBox } from '@portal/server-kit'
import { ClaimMapping, RoleMapping } from '@portal/contracts'
import type { ProviderConfig } from './provider-config.ts'

/** jsonb arrives parsed from PostgreSQL and as text from some drivers. */
const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T))
const date = (v: Date | string | null): Date | null => (v === null ? null : new Date(v))

interface ProviderRow {
  key: string
  display_name: string
  issuer: string
  client_id: string
  client_secret: string | null
  scopes: unknown
  allowed_domains: unknown
  claims: unknown
  roles: unknown
  local_passwords: boolean
  admin_break_glass: boolean
  created_at: Date | string
  updated_at: Date | string
}

/** The column client secrets are sealed for (the secret box binds it in; decision 0055). */
export const CLIENT_SECRET_COLUMN = 'sign_in_providers.client_secret'

/** The stored secret opened: a secret the box cannot open is flagged, not thrown (the provider list and console still load). */
const openSecret = (stored: string | null, secrets: SecretBox): Pick<ProviderConfig, 'clientSecret' | 'clientSecretUnreadable'> => {
  if (stored === null || stored === '') return {}
  try {
    return { clientSecret: secrets.open(stored, CLIENT_SECRET_COLUMN) }
  } catch (err) {
    if (err instanceof SecretUnreadable) return { clientSecretUnreadable: true }
    throw err
  }
}

const sealed = (p: ProviderConfig, secrets: SecretBox) => (p.clientSecret ? secrets.seal(p.clientSecret, CLIENT_SECRET_COLUMN) : null)

const toProvider = (r: ProviderRow, secrets: SecretBox): ProviderConfig => ({
  key: r.key,
  displayName: r.display_name,
  issuer: r.issuer,
  clientId: r.client_id,
  ...openSecret(r.client_secret, secrets),
  scopes: json<string[]>(r.scopes),
  allowedDomains: json<string[]>(r.allowed_domains),
  // Read through the contract, so a mapping stored before a field was added gets its default.
  claims: ClaimMapping.parse(json(r.claims)),
  roles: RoleMapping.parse(json(r.roles)),
  localPasswords: r.local_passwords,
  adminBreakGlass: r.admin_break_glass,
  source: 'admin',
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
})

/** The providers admins configured (`sign_in_providers`). */
export const providerRepository = {
  async list(em: EntityManager, secrets: SecretBox): Promise<ProviderConfig[]> {
    return ((await em.execute('select * from sign_in_providers order by display_name, key')) as ProviderRow[]).map((r) => toProvider(r, secrets))
  },
  async find(em: EntityManager, key: string, secrets: SecretBox, lock = false): Promise<ProviderConfig | null> {
    const rows = (await em.execute(`select * from sign_in_providers where key = ?${lock ? ' for update' : ''}`, [key])) as ProviderRow[]
    return rows[0] ? toProvider(rows[0], secrets) : null
  },
  /** Inserts `p` (its secret sealed); false when its key is taken. */
  async insert(em: EntityManager, p: ProviderConfig, secrets: SecretBox, at: Date): Promise<boolean> {
    const rows = (await em.execute(
      `insert into sign_in_providers (key, display_name, issuer, client_id, client_secret, scopes, allowed_domains, claims, roles, local_passwords, admin_break_glass, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?::jsonb, ?, ?, ?, ?)
       on conflict (key) do nothing returning key`,
      [
        p.key,
        p.displayName,
        p.issuer,
        p.clientId,
        sealed(p, secrets),
        JSON.stringify(p.scopes),
        JSON.stringify(p.allowedDomains),
        JSON.stringify(p.claims),
        JSON.stringify(p.roles),
        p.localPasswords,
        p.adminBreakGlass,
        at,
        at,
      ],
    )) as unknown[]
    return rows.length === 1
  },
  /** Updates `p` (its secret sealed; one flagged unreadable and not replaced stays as stored). */
  update: (em: EntityManager, p: ProviderConfig, secrets: SecretBox, at: Date) =>
    em.execute(
      `update sign_in_providers set display_name = ?, issuer = ?, client_id = ?, client_secret = case when ? then client_secret else ? end, scopes = ?::jsonb,
         allowed_domains = ?::jsonb, claims = ?::jsonb, roles = ?::jsonb, local_passwords = ?, admin_break_glass = ?, updated_at = ? where key = ?`,
      [
        p.displayName,
        p.issuer,
        p.clientId,
        Boolean(p.clientSecretUnreadable),
        sealed(p, secrets),
        JSON.stringify(p.scopes),
        JSON.stringify(p.allowedDomains),
        JSON.stringify(p.claims),
        JSON.stringify(p.roles),
        p.localPasswords,
        p.adminBreakGlass,
        at,
        p.key,
      ],
    ),
  remove: (em: EntityManager, key: string) => em.execute('delete from sign_in_providers where key = ?', [key]),
  /**
   * Seals the client secrets stored plain (before decision 0055) or under a key being rotated out;
   * run at start. Each row only if unchanged since read (another replica starting, or an admin
   * saving, may have been first). Answers how many were sealed and how many cannot be opened.
   */
  async reseal(em: EntityManager, secrets: SecretBox): Promise<{ resealed: number; unreadable: string[] }> {
    const rows = (await em.execute('select key, client_secret from sign_in_providers where client_secret is not null')) as { key: string; client_secret: string }[]
    const out = { resealed: 0, unreadable: [] as string[] }
    for (const r of rows) {
      let next: string | null
      try {
        next = secrets.resealed(r.client_secret, CLIENT_SECRET_COLUMN)
      } catch {
        out.unreadable.push(r.key)
        continue
      }
      if (next === null) continue
      await em.execute('update sign_in_providers set client_secret = ? where key = ? and client_secret = ?', [next, r.key, r.client_secret])
      out.resealed++
    }
    return out
  },
}

/** A person's identities at providers (`user_identities`). */
export const identityRepository = {
  async userOf(em: EntityManager, issuer: string, subject: string): Promise<string | null> {
    const rows = (await em.execute('select user_id from user_identities where issuer = ? and subject = ?', [issuer, subject])) as { user_id: string }[]
    return rows[0]?.user_id ?? null
  },
  /** Links the identity to the user (or moves it to them); records the sign-in. */
  link: (em: EntityManager, l: { issuer: string; subject: string; userId: string; providerKey: string }, at: Date) =>
    em.execute(
      `insert into user_identities (issuer, subject, user_id, provider_key, created_at, last_sign_in_at) values (?, ?, ?, ?, ?, ?)
       on conflict (issuer, subject) do update set user_id = excluded.user_id, provider_key = excluded.provider_key, last_sign_in_at = excluded.last_sign_in_at`,
      [l.issuer, l.subject, l.userId, l.providerKey, at, at],
    ),
  /** The issuers the user has an identity at. */
  async issuersOf(em: EntityManager, userId: string): Promise<string[]> {
    return ((await em.execute('select distinct issuer from user_identities where user_id = ?', [userId])) as { issuer: string }[]).map((r) => r.issuer)
  },
}

export interface AttemptRow {
  id: string
  provider_key: string
  state: string
  nonce: string
  code_verifier: string
  expires_at: Date | string
  used_at: Date | string | null
}

/** "Sign in with ..." clicks under way (`oidc_sign_in_attempts`). */
export const attemptRepository = {
  insert: (em: EntityManager, a: { bindingHash: string; providerKey: string; state: string; nonce: string; codeVerifier: string; expiresAt: Date }, at: Date) =>
    em.execute(`insert into oidc_sign_in_attempts (id, binding_hash, provider_key, state, nonce, code_verifier, created_at, expires_at) values (?, ?, ?, ?, ?, ?, ?, ?)`, [
      crypto.randomUUID(),
      a.bindingHash,
      a.providerKey,
      a.state,
      a.nonce,
      a.codeVerifier,
      at,
      a.expiresAt,
    ]),
  /**
   * Takes the attempt of the browser's cookie: marks it used and returns it as it was (so a second
   * callback with the same cookie finds it used); null when the browser has none.
   */
  async take(em: EntityManager, bindingHash: string, at: Date): Promise<AttemptRow | null> {
    const rows = (await em.execute(
      `update oidc_sign_in_attempts a set used_at = coalesce(a.used_at, ?)
         from (select id, used_at from oidc_sign_in_attempts where binding_hash = ? for update) prior
        where a.id = prior.id
        returning a.id, a.provider_key, a.state, a.nonce, a.code_verifier, a.expires_at, prior.used_at`,
      [at, bindingHash],
    )) as AttemptRow[]
    return rows[0] ?? null
  },
  prune: (em: EntityManager, before: Date) => em.execute('delete from oidc_sign_in_attempts where expires_at < ?', [before]),
}

export interface PendingLinkRow {
  user_id: string
  issuer: string
  subject: string
  provider_key: string
  expires_at: Date | string
}

/** Identities waiting for their account's password sign-in (`pending_identity_links`). */
export const pendingLinkRepository = {
  /** One per user: a newer attempt replaces the older one. */
  put: (em: EntityManager, l: { userId: string; bindingHash: string; issuer: string; subject: string; providerKey: string; expiresAt: Date }, at: Date) =>
    em.execute(
      `insert into pending_identity_links (user_id, binding_hash, issuer, subject, provider_key, created_at, expires_at) values (?, ?, ?, ?, ?, ?, ?)
       on conflict (user_id) do update set binding_hash = excluded.binding_hash, issuer = excluded.issuer, subject = excluded.subject,
         provider_key = excluded.provider_key, created_at = excluded.created_at, expires_at = excluded.expires_at`,
      [l.userId, l.bindingHash, l.issuer, l.subject, l.providerKey, at, l.expiresAt],
    ),
  /** Removes and returns the user's link waiting in this browser, if any. */
  async take(em: EntityManager, userId: string, bindingHash: string): Promise<PendingLinkRow | null> {
    const rows = (await em.execute('delete from pending_identity_links where user_id = ? and binding_hash = ? returning user_id, issuer, subject, provider_key, expires_at', [
      userId,
      bindingHash,
    ])) as PendingLinkRow[]
    return rows[0] ?? null
  },
  prune: (em: EntityManager, before: Date) => em.execute('delete from pending_identity_links where expires_at < ?', [before]),
}

export interface OidcSessionRow {
  family_id: string
  user_id: string
  provider_key: string
  issuer: string
  subject: string
  refresh_token: string | null
  access_token: string | null
  access_token_expires_at: Date | string | null
  id_token: string | null
  checked_at: Date | string
  checking_until: Date | string | null
  ended_at: Date | string | null
}

/** Provider tokens a re-check stores. */
export interface ProviderTokens {
  refreshToken: string | null
  accessToken: string | null
  accessTokenExpiresAt: Date | null
  idToken: string | null
}

/** Portal sessions a provider vouches for (`oidc_sessions`, one per refresh token family). */
export const oidcSessionRepository = {
  insert: (em: EntityManager, s: { familyId: string; userId: string; providerKey: string; issuer: string; subject: string; expiresAt: Date } & ProviderTokens, at: Date) =>
    em.execute(
      `insert into oidc_sessions (family_id, user_id, provider_key, issuer, subject, refresh_token, access_token, access_token_expires_at, id_token, checked_at, expires_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [s.familyId, s.userId, s.providerKey, s.issuer, s.subject, s.refreshToken, s.accessToken, s.accessTokenExpiresAt, s.idToken, at, s.expiresAt],
    ),
  async find(em: EntityManager, familyId: string): Promise<OidcSessionRow | null> {
    const rows = (await em.execute('select * from oidc_sessions where family_id = ?', [familyId])) as OidcSessionRow[]
    return rows[0] ?? null
  },
  /** Takes the right to re-check the session until `until`: the row, or null when another check holds it or the session ended. */
  async lease(em: EntityManager, familyId: string, at: Date, until: Date): Promise<OidcSessionRow | null> {
    const rows = (await em.execute(
      `update oidc_sessions set checking_until = ? where family_id = ? and ended_at is null and (checking_until is null or checking_until <= ?) returning *`,
      [until, familyId, at],
    )) as OidcSessionRow[]
    return rows[0] ?? null
  },
  /** A successful re-check: the provider's new tokens (a token it did not renew is kept). */
  vouched: (em: EntityManager, familyId: string, t: ProviderTokens, at: Date) =>
    em.execute(
      `update oidc_sessions set refresh_token = coalesce(?, refresh_token), access_token = coalesce(?, access_token),
         access_token_expires_at = case when ?::text is null then access_token_expires_at else ?::timestamptz end, id_token = coalesce(?, id_token),
         checked_at = ?, checking_until = null where family_id = ?`,
      [t.refreshToken, t.accessToken, t.accessToken, t.accessTokenExpiresAt, t.idToken, at, familyId],
    ),
  /** A re-check that could not reach the provider: the lease is given back, the last check stays. */
  release: (em: EntityManager, familyId: string) => em.execute('update oidc_sessions set checking_until = null where family_id = ?', [familyId]),
  /** The provider refused: the session is over (its tokens are dropped). */
  end: (em: EntityManager, familyId: string, at: Date) =>
    em.execute('update oidc_sessions set ended_at = coalesce(ended_at, ?), checking_until = null, refresh_token = null, access_token = null where family_id = ?', [at, familyId]),
  prune: (em: EntityManager, before: Date) => em.execute('delete from oidc_sessions where expires_at < ?', [before]),
}
