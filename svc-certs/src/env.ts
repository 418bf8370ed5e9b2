import { z } from 'zod'
import { DEFAULT_COMPANY_TIME_ZONE } from '@portal/contracts'
import { PlatformEnv, parseEnv, storageDirVariable } from '@portal/server-kit'
import type { NotificationSchedule } from './notifications/notification.runner.ts'

const NEEDED = 'is required to run svc-certs on its own'
const required = z.string({ error: NEEDED }).trim().min(1, NEEDED).pipe(z.url())

/** The cluster deployable's variables: the platform's with its engines required, plus storage, port and host. */
export const certsProcessEnv = (source: Record<string, string | undefined>) =>
  PlatformEnv.extend({
    DATABASE_URL: required,
    NATS_URL: required,
    IDENTITY_JWKS_URL: required,
    /** Proof files: a folder every instance shares, unless S3_BUCKET names object storage. */
    STORAGE_DIR: storageDirVariable(source, NEEDED),
    /** Port when run alone; falls back to PORT, then 4003. */
    CERTS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
    /** Interface to listen on: loopback unless told (a container sets 0.0.0.0); the gateway is the way in. */
    HOST: z.string().trim().min(1).default('127.0.0.1'),
  })

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

/**
 * When the certification expiry notifications run (every deployable of svc-certs, single-node
 * included): CERT_NOTIFY_SCHEDULE=off turns the schedule off (the manual triggers still work).
 */
export const NotifyScheduleEnv = z.object({
  CERT_NOTIFY_SCHEDULE: z.enum(['on', 'off']).default('on'),
  CERT_NOTIFY_DAILY_HOUR: z.coerce.number().int().min(0).max(23).default(6),
  /** 0 Sunday to 6 Saturday (admin §9 numbering). */
  CERT_NOTIFY_WEEKLY_DAY: z.coerce.number().int().min(0).max(6).default(1),
  CERT_NOTIFY_WEEKLY_HOUR: z.coerce.number().int().min(0).max(23).default(7),
  /**
   * The company's time zone: its calendar date is "today" for every figure, badge, export, report,
   * e-mail and the daily check (issue 23). CERT_NOTIFY_TIME_ZONE is its older name.
   */
  COMPANY_TIME_ZONE: ianaTimeZone.optional(),
  CERT_NOTIFY_TIME_ZONE: ianaTimeZone.optional(),
})

/** The notification schedule from the environment. */
export function loadNotifySchedule(source: Record<string, string | undefined> = process.env): NotificationSchedule {
  const env = parseEnv(NotifyScheduleEnv, source)
  return {
    enabled: env.CERT_NOTIFY_SCHEDULE === 'on',
    dailyHour: env.CERT_NOTIFY_DAILY_HOUR,
    weeklyDay: env.CERT_NOTIFY_WEEKLY_DAY,
    weeklyHour: env.CERT_NOTIFY_WEEKLY_HOUR,
    timeZone: env.COMPANY_TIME_ZONE ?? env.CERT_NOTIFY_TIME_ZONE ?? DEFAULT_COMPANY_TIME_ZONE,
  }
}

/** Parses the configuration of svc-certs run on its own. */
export function loadCertsEnv(source: Record<string, string | undefined> = process.env) {
  const env = parseEnv(certsProcessEnv(source), source)
  return {
    env: env satisfies PlatformEnv as PlatformEnv,
    port: env.CERTS_PORT ?? (source.PORT ? env.PORT : 4003),
    hostname: env.HOST,
    jwksUrl: env.IDENTITY_JWKS_URL,
    storageDir: env.STORAGE_DIR,
  }
}
