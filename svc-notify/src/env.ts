import { z } from 'zod'
import { PlatformEnv, parseEnv } from '@portal/server-kit'

export const DEFAULT_NOTIFY_PORT = 4004

const NotifyEnv = PlatformEnv.extend({
  /** Port of svc-notify when run alone; falls back to PORT, then 4004. */
  NOTIFY_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Interface to listen on when run alone (all interfaces in a container). */
  NOTIFY_HOST: z.string().trim().min(1).default('0.0.0.0'),
})

/** The deployable's configuration: PlatformEnv plus port and host; cluster mode needs its engines. */
export function loadNotifyEnv(source: Record<string, string | undefined> = process.env) {
  const env = parseEnv(
    NotifyEnv.superRefine((e, ctx) => {
      for (const key of ['DATABASE_URL', 'NATS_URL', 'SMTP_URL'] as const)
        if (!e[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required to run svc-notify on its own' })
    }),
    source,
  )
  const port = env.NOTIFY_PORT ?? (source.PORT ? env.PORT : DEFAULT_NOTIFY_PORT)
  return { env: env as PlatformEnv, port, hostname: env.NOTIFY_HOST }
}
