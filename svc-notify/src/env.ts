import { z } from 'zod'
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
