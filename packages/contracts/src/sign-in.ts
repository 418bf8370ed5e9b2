import { z } from 'zod'

/**
 * Company sign-in (issue 25): OpenID Connect providers beside local accounts. An admin configures
 * them in the console (stored by identity, the client secret write-only) or a deployment lists them
 * in the environment (`OIDC_PROVIDERS`, the same fields as `SignInProviderInput`).
 */

/** A provider's key: its part of the start and callback URLs (`/api/auth/oidc/{key}/...`). */
export const SIGN_IN_PROVIDER_KEY = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/

/** The scopes asked for unless the provider says otherwise (offline_access: a refresh token, so a session can be re-checked). */
export const DEFAULT_SIGN_IN_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const

/** How a provider-side manager's scope is set: from the branch and department the provider sends, or everything. */
export const MANAGER_SCOPE_SOURCES = ['own_branch', 'own_department', 'own_branch_and_department', 'all'] as const
export type ManagerScopeSource = (typeof MANAGER_SCOPE_SOURCES)[number]

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/** https, or http on the machine itself (a provider run by a test or a developer). */
export const isAcceptableIssuer = (value: string): boolean => {
  try {
    const url = new URL(value)
    if (url.search || url.hash || url.username || url.password) return false
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname))
  } catch {
    return false
  }
}

const claimName = (field: string) =>
  z
    .string()
    .trim()
    .max(100, `${field} may hold at most 100 characters`)
    .regex(/^[^\s]*$/, `${field} may not contain spaces`)
    .nullable()
    .transform((v) => (v ? v : null))

/** Which claim of the ID token or userinfo answer fills each field of the portal's user (null: not mapped). */
export const ClaimMapping = z.object({
  name: claimName('claims.name').default('name'),
  email: claimName('claims.email')
    .default('email')
    .refine((v) => v !== null, 'claims.email is required: the portal knows people by their e-mail address'),
  employee_id: claimName('claims.employee_id').default(null),
  branch: claimName('claims.branch').default(null),
  department: claimName('claims.department').default(null),
  hire_date: claimName('claims.hire_date').default(null),
  /** A claim holding the person's groups or roles (a string or a list of strings). */
  groups: claimName('claims.groups').default(null),
})
export type ClaimMapping = z.infer<typeof ClaimMapping>

const groupValues = (field: string) =>
  z
    .array(z.string().trim().min(1, `${field} may not hold an empty value`).max(200, `${field} values may hold at most 200 characters`))
    .max(50, `${field} may hold at most 50 values`)
    .default([])

/** The group/role claim's values that make someone an admin or a manager, and a manager's scope. */
export const RoleMapping = z.object({
  admin_values: groupValues('roles.admin_values'),
  manager_values: groupValues('roles.manager_values'),
  manager_scope: z.enum(MANAGER_SCOPE_SOURCES, 'roles.manager_scope must be one of own_branch, own_department, own_branch_and_department, all').default('own_branch'),
})
export type RoleMapping = z.infer<typeof RoleMapping>

const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/, 'allowed_domains holds a value that is not a domain (e.g. example.com)')

const fields = {
  display_name: z.string({ error: 'display_name is required' }).trim().min(1, 'display_name is required').max(100, 'display_name may hold at most 100 characters'),
  issuer: z
    .string({ error: 'issuer is required' })
    .trim()
    .min(1, 'issuer is required')
    .max(500, 'issuer may hold at most 500 characters')
    .refine(isAcceptableIssuer, 'issuer must be an https URL (http only on localhost), without query or fragment'),
  client_id: z.string({ error: 'client_id is required' }).trim().min(1, 'client_id is required').max(500, 'client_id may hold at most 500 characters'),
  scopes: z
    .array(
      z
        .string()
        .trim()
        .regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, 'scopes holds a value that is not a scope'),
    )
    .max(20, 'scopes may hold at most 20 values')
    .default([...DEFAULT_SIGN_IN_SCOPES])
    .refine((s) => s.includes('openid'), 'scopes must include openid'),
  /** Addresses allowed to sign in through the provider; empty means the company's domain. */
  allowed_domains: z.array(domain).max(20, 'allowed_domains may hold at most 20 values').default([]),
  claims: ClaimMapping.default(ClaimMapping.parse({})),
  roles: RoleMapping.default(RoleMapping.parse({})),
  /** Whether people of the provider's domains may still sign in with a portal password. */
  local_passwords: z.boolean('local_passwords must be true or false').default(true),
  /** Whether admins keep password sign-in when local passwords are off (the way in when the provider is down). */
  admin_break_glass: z.boolean('admin_break_glass must be true or false').default(true),
}

const secret = z.string().max(2000, 'client_secret may hold at most 2000 characters')

/** POST /admin/sign-in/providers (and each entry of OIDC_PROVIDERS). */
export const SignInProviderInput = z.object({
  key: z.string({ error: 'key is required' }).trim().toLowerCase().regex(SIGN_IN_PROVIDER_KEY, 'key may hold lower-case letters, digits and hyphens (at most 40), e.g. "entra"'),
  ...fields,
  /** Empty or absent: a public client (PKCE only). */
  client_secret: secret.optional(),
})
export type SignInProviderInput = z.input<typeof SignInProviderInput>

/** PUT /admin/sign-in/providers/{key}: every field again except the key; an empty or absent client_secret keeps the stored one. */
export const SignInProviderUpdate = z.object({
  ...fields,
  client_secret: secret.optional(),
  /** Makes the client public again (drops the stored secret). */
  clear_client_secret: z.boolean().optional().default(false),
})
export type SignInProviderUpdate = z.input<typeof SignInProviderUpdate>

/** What the console says of a stored client secret the server cannot read. */
export const UNREADABLE_CLIENT_SECRET = 'The stored client secret cannot be read with this server’s secrets key: enter it again.'

/** A provider as the admin console shows it: never the secret, only whether one is stored. */
export const SignInProvider = z.object({
  key: z.string(),
  display_name: z.string(),
  issuer: z.string(),
  client_id: z.string(),
  client_secret_set: z.boolean(),
  /** The stored secret cannot be read with this server's secrets key (a lost SECRETS_KEY): sign-in fails until it is entered again. */
  client_secret_unreadable: z.boolean(),
  scopes: z.array(z.string()),
  allowed_domains: z.array(z.string()),
  /** The allowed domains in force (the company's when none is listed). */
  effective_domains: z.array(z.string()),
  claims: ClaimMapping,
  roles: RoleMapping,
  local_passwords: z.boolean(),
  admin_break_glass: z.boolean(),
  /** Where the provider sends people back: register it at the provider. */
  redirect_uri: z.string(),
  /** Where the provider sends people after signing out there: register it too. */
  post_logout_redirect_uri: z.string(),
  /** `environment` providers are read-only in the console (OIDC_PROVIDERS). */
  source: z.enum(['admin', 'environment']),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
})
export type SignInProvider = z.infer<typeof SignInProvider>
export const SignInProvidersResponse = z.array(SignInProvider)

/** GET /auth/oidc/providers (public): what the login page offers. */
export const PublicSignInProvider = z.object({ key: z.string(), display_name: z.string(), start_url: z.string() })
export type PublicSignInProvider = z.infer<typeof PublicSignInProvider>
export const PublicSignInProvidersResponse = z.object({ providers: z.array(PublicSignInProvider) })

/** POST /auth/logout: the portal session ended; the provider's own sign-out, when it has one. */
export const LogoutResponse = z.object({
  message: z.string(),
  end_session_url: z.string().optional(),
  provider: z.string().optional(),
})
export type LogoutResponse = z.infer<typeof LogoutResponse>

/**
 * Why a company sign-in came back to the login page (`/login?sso_error={code}&provider={key}`).
 * The login page shows the message; the URL carries only the code, so no one can put words of
 * their own on the page with a link.
 */
export const SIGN_IN_ERRORS = {
  denied: (p: string) => `${p} did not sign you in: the sign-in was cancelled, or your account may not use the portal. Ask your administrator if you need access.`,
  state_mismatch: () => 'This sign-in attempt could not be matched to this browser (it may have been started elsewhere or tampered with). Please try again.',
  expired: () => 'This sign-in attempt expired or was already used. Please try again.',
  code_rejected: (p: string) => `${p} refused the sign-in code (it was already used or has expired). Please try again.`,
  token_invalid: (p: string) => `The answer from ${p} could not be verified, so you were not signed in. Please try again or tell your administrator.`,
  email_missing: (p: string) => `${p} did not send your e-mail address, so you were not signed in. Ask your administrator to check the sign-in settings.`,
  email_unverified: (p: string) => `${p} has not verified your e-mail address, so you were not signed in.`,
  domain_not_allowed: (p: string) => `Your address may not sign in with ${p}: only the company's addresses may. Use your company account.`,
  link_required: (p: string) => `An account with your e-mail address already exists. Sign in with your password below once to link it to ${p}; after that, use Sign in with ${p}.`,
  provider_error: (p: string) => `${p} refused the portal's request, so you were not signed in. Please tell your administrator: the sign-in settings may be wrong.`,
  provider_unavailable: (p: string) => `${p} cannot be reached right now. Please try again in a moment, or sign in with your password if you have one.`,
  unknown_provider: () => 'This sign-in option is no longer offered. Please choose another one.',
  too_many: () => 'Too many sign-in attempts from your network. Please try again later.',
} as const satisfies Record<string, (provider: string) => string>
export type SignInErrorCode = keyof typeof SIGN_IN_ERRORS

/** The login page's text for an error code (an unknown code gets a general message). */
export const signInErrorMessage = (code: string, provider: string): string =>
  code in SIGN_IN_ERRORS ? SIGN_IN_ERRORS[code as SignInErrorCode](provider) : `Signing in with ${provider} did not work. Please try again.`

/** A password sign-in refused because the person's company signs in with a provider. */
export const passwordSignInOff = (provider: string) => `Your company signs in with ${provider}. Use "Sign in with ${provider}".`
