import { z } from 'zod'
import { DEFAULT_COMPANY_TIME_ZONE } from '@portal/contracts'
import { PlatformEnv, parseEnv } from '@portal/server-kit'

export const DEFAULT_NOTIFY_PORT = 4004

const required = z.string({ error: 'is required to run svc-notify on its own' }).trim().min(1, 'is required to run svc-notify on its own').pipe(z.url())

/** The deployable's variables: PlatformEnv with its engines required, plus port and host. */
const NotifyEnv = PlatformEnv.extend({
  DATABASE_URL: required,
  NATS_URL: required,
  SMTP_URL: required,
  IDENTITY_JWKS_URL: required,
  /** Port of svc-notify when run alone; falls back to PORT, then 4004. */
  NOTIFY_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Interface to listen on when run alone: NOTIFY_HOST, else HOST, else loopback (a container sets 0.0.0.0). */
  NOTIFY_HOST: z.string().trim().min(1).optional(),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
})

/** Parses the configuration of svc-notify run on its own (the cluster deployable). */
export function loadNotifyEnv(source: Record<string, string | undefined> = process.env) {
  const env = parseEnv(NotifyEnv, source)
  const port = env.NOTIFY_PORT ?? (source.PORT ? env.PORT : DEFAULT_NOTIFY_PORT)
  return { env: env satisfies PlatformEnv as PlatformEnv, port, hostname: env.NOTIFY_HOST ?? env.HOST, jwksUrl: env.IDENTITY_JWKS_URL }
}

const ianaTimeZone = z
  .string()
  .trim()
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz })
      return true
    } catch {
      return false
    }
  }, 'must be an IANA time zone such as America/Los_Angeles')

/** How the training-due digests go out (every deployable of svc-notify, single-node included). */
const unsetWhenEmpty = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v)
const DigestEnv = z.object({
  /**
   * A recipient's digest waits until their newest pending reminder is this old (ms), so the
   * reminders one scan raises for them arrive first and go in one mail. Default 60 s.
   */
  DIGEST_SETTLE_MS: z.preprocess(unsetWhenEmpty, z.coerce.number().int().min(0).max(86_400_000).default(60_000)),
  /** The company's time zone: its calendar date is the day of a digest (one per recipient and day). */
  COMPANY_TIME_ZONE: z.preprocess(unsetWhenEmpty, ianaTimeZone.default(DEFAULT_COMPANY_TIME_ZONE)),
})

/** The training-due digests' settings from the environment (DIGEST_SETTLE_MS, COMPANY_TIME_ZONE). */
export function loadDigestSettings(source: Record<string, string | undefined> = process.env): { settleMs: number; timeZone: string } {
  const env = parseEnv(DigestEnv, source)
  return { settleMs: env.DIGEST_SETTLE_MS, timeZone: env.COMPANY_TIME_ZONE }
}
