import type { ClaimMapping, RoleMapping, SignInProvider } from '@portal/contracts'
import { publicUrl } from '@portal/server-kit'

/** A company sign-in provider as identity uses it (the secret included: never answered, never logged). */
export interface ProviderConfig {
  key: string
  displayName: string
  issuer: string
  clientId: string
  /** Absent: a public client (PKCE only), unless `clientSecretUnreadable`. */
  clientSecret?: string
  /** A secret is stored, sealed under a key this instance lacks (a lost SECRETS_KEY): sign-in fails until an admin enters it again. */
  clientSecretUnreadable?: boolean
  scopes: string[]
  /** As configured; empty means the company's domain (see `effectiveDomains`). */
  allowedDomains: string[]
  claims: ClaimMapping
  roles: RoleMapping
  localPasswords: boolean
  adminBreakGlass: boolean
  source: 'admin' | 'environment'
  createdAt: Date | null
  updatedAt: Date | null
}

/** The domains whose addresses may sign in through `p`: its own list, else the company's domain. */
export const effectiveDomains = (p: Pick<ProviderConfig, 'allowedDomains'>, companyDomain: string): string[] =>
  p.allowedDomains.length > 0 ? p.allowedDomains : [companyDomain.toLowerCase()]

/** Whether `email` is at one of `domains` (exactly: a subdomain is another domain). */
export const emailInDomains = (email: string, domains: readonly string[]): boolean => {
  const at = email.lastIndexOf('@')
  return at > 0 && domains.includes(email.slice(at + 1).toLowerCase())
}

/** The gateway's public paths of the flow (the services see them without `/api`). */
export const oidcPaths = (key: string) => ({
  start: `/api/auth/oidc/${encodeURIComponent(key)}/start`,
  callback: `/api/auth/oidc/${encodeURIComponent(key)}/callback`,
})

/** Where the provider sends people back after signing in (registered at the provider). */
export const redirectUri = (env: { PUBLIC_URL?: string }, key: string) => `${publicUrl(env)}${oidcPaths(key).callback}`

/** Where the provider sends people back after signing out there (registered at the provider too). */
export const postLogoutRedirectUri = (env: { PUBLIC_URL?: string }) => `${publicUrl(env)}/login?signed_out=1`

/** The provider as the admin console shows it: whether a secret is stored, never the secret. */
export function toProviderDto(p: ProviderConfig, env: { PUBLIC_URL?: string; COMPANY_EMAIL_DOMAIN: string }): SignInProvider {
  return {
    key: p.key,
    display_name: p.displayName,
    issuer: p.issuer,
    client_id: p.clientId,
    client_secret_set: Boolean(p.clientSecret) || Boolean(p.clientSecretUnreadable),
    client_secret_unreadable: Boolean(p.clientSecretUnreadable),
    scopes: p.scopes,
    allowed_domains: p.allowedDomains,
    effective_domains: effectiveDomains(p, env.COMPANY_EMAIL_DOMAIN),
    claims: p.claims,
    roles: p.roles,
    local_passwords: p.localPasswords,
    admin_break_glass: p.adminBreakGlass,
    redirect_uri: redirectUri(env, p.key),
    post_logout_redirect_uri: postLogoutRedirectUri(env),
    source: p.source,
    created_at: p.createdAt?.toISOString() ?? null,
    updated_at: p.updatedAt?.toISOString() ?? null,
  }
}
