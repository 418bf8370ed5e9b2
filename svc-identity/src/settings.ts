import { SignInProviderInput } from '@portal/contracts'
import { z } from 'zod'

const count = (fallback: number) => z.coerce.number().int().min(1).max(1_000_000).default(fallback)
const seconds = (fallback: number, min = 5) =>
  z.coerce
    .number()
    .int()
    .min(min)
    .max(366 * 86400)
    .default(fallback)

/**
 * OIDC_PROVIDERS: company sign-in providers configured by file (a JSON array of the admin console's
 * fields, `SignInProviderInput`); read-only in the console. Given parsed too (settings are read again
 * from an environment already parsed).
 */
const OidcProviders = z.preprocess(
  (v, ctx) => {
    if (v === undefined || v === null || (typeof v === 'string' && !v.trim())) return []
    if (typeof v !== 'string') return v
    try {
      return JSON.parse(v) as unknown
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of sign-in providers' })
      return z.NEVER
    }
  },
  z
    .array(SignInProviderInput, 'must be a JSON array of sign-in providers')
    .max(20)
    .refine((ps) => new Set(ps.map((p) => p.key)).size === ps.length, 'lists a key twice'),
)

/**
 * Identity's own settings (each with a default; listed in .env.example): token lifetimes and the
 * limits of the abuse-prone flows.
 */
export const IdentitySettings = z.object({
  /** Lifetime of an access token; the shell refreshes it shortly before it ends. */
  ACCESS_TOKEN_TTL_SECONDS: seconds(15 * 60),
  /** A session unused this long ends (each refresh starts the period again). */
  REFRESH_TOKEN_TTL_SECONDS: seconds(8 * 3600, 60),
  /** Longest a session lasts from its sign-in, however often it is refreshed. */
  SESSION_MAX_SECONDS: seconds(7 * 86400, 60),
  /** Failed sign-ins to one account from one address before that pair is locked (1 min, doubling up to 1 h). */
  LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS: count(5),
  /** Failed sign-ins to one account from all addresses per 15 minutes. */
  LOGIN_FAILURES_PER_ACCOUNT: count(50),
  /** Failed sign-ins from one client address per 15 minutes. */
  LOGIN_FAILURES_PER_ADDRESS: count(20),
  /** Registrations from one client address per hour. */
  REGISTRATIONS_PER_ADDRESS_PER_HOUR: count(10),
  /** Wrong admin registration codes from one client address per hour. */
  ADMIN_CODE_FAILURES_PER_ADDRESS_PER_HOUR: count(5),
  /** Wrong admin registration codes from everyone together per hour. */
  ADMIN_CODE_FAILURES_PER_HOUR: count(20),
  /** Password hashes computed at once by one identity instance (one slot is kept for known browsers). */
  KDF_CONCURRENCY: count(2),
  /** Hashes of known browsers' sign-ins (device cookie) waiting for a slot; beyond that 429 at once. */
  KDF_QUEUE: z.coerce.number().int().min(0).max(10_000).default(16),
  /** Hashes of everyone else (other sign-ins, registrations, resets) waiting for a slot; beyond that 429 at once. */
  KDF_QUEUE_UNKNOWN: z.coerce.number().int().min(0).max(10_000).default(4),
  /** Longest a hash waits for a slot (well under the gateway's 30 s): a longer expected wait is answered 429 at once. */
  KDF_MAX_WAIT_MS: z.coerce.number().int().min(100).max(20_000).default(2_000),
  /** Company sign-in providers configured by file (see OidcProviders). */
  OIDC_PROVIDERS: OidcProviders,
  /**
   * How long a company sign-in session lives on while its provider cannot be reached (its refusal
   * ends the session at once; an outage does not, for this long after the last successful check).
   */
  OIDC_UNREACHABLE_GRACE_SECONDS: z.coerce.number().int().min(0).max(86400).default(3600),
})
export type IdentitySettings = z.infer<typeof IdentitySettings>

/** The settings of an environment already parsed (defaults for the keys it lacks). */
export const identitySettings = (env: Partial<Record<keyof IdentitySettings, unknown>>): IdentitySettings => IdentitySettings.parse(env)
