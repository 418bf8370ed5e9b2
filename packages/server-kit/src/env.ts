import { z } from 'zod'
import { trustedProxies } from './client-address.ts'
import { isSecretsKey } from './secret-box.ts'
import { TRACE_SAMPLERS } from './tracing.ts'

/** Parses the environment once at start; throws one error that lists every bad key. */
export function parseEnv<S extends z.ZodType>(schema: S, source: Record<string, string | undefined> = process.env): z.infer<S> {
  const result = schema.safeParse(source)
  if (result.success) return result.data
  const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`)
  throw new Error(`Invalid configuration:\n${lines.join('\n')}`)
}

const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(z.url().optional())

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))

/** Variables every deployable understands (see .env.example). */
export const PlatformEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  DATABASE_URL: optionalUrl,
  /**
   * Several portals on one PostgreSQL server (a test's cluster beside a benchmark's): put before
   * each service's database name (`t1_` gives `t1_identity`, ...). Unset: `identity`, ...
   */
  DATABASE_NAME_PREFIX: z
    .string()
    .trim()
    .regex(/^[a-z0-9_]*$/, 'must be lower-case letters, digits and underscores')
    .optional(),
  NATS_URL: optionalUrl,
  /**
   * Several portals on one NATS server: the JetStream stream's name (default PORTAL_EVENTS) and a
   * namespace put before every subject (e.g. `t1.`), so that neither reads the other's events.
   */
  NATS_STREAM: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]*$/, 'must be letters, digits, _ and -')
    .optional()
    .transform((v) => (v ? v : undefined)),
  NATS_SUBJECT_PREFIX: z
    .string()
    .trim()
    .regex(/^([a-z0-9_-]+\.)*$/, 'must be dot-separated tokens ending with a dot, e.g. t1.')
    .optional(),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Learning Portal <no-reply@example.com>'),
  COMPANY_EMAIL_DOMAIN: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, 'must be a domain such as example.com')
    .default('example.com'),
  ADMIN_REGISTRATION_CODE: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.string().default('.data'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** `pretty` for people at a terminal (the single-node launcher's default on a TTY), else JSON lines. */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  JWT_ISSUER: z.string().default('portal-identity'),
  JWT_AUDIENCE: z.string().default('portal'),
  /** Where services fetch identity's JWKS in cluster mode. */
  IDENTITY_JWKS_URL: optionalUrl,
  // Files (course modules, certification proofs): S3-compatible object storage when S3_BUCKET is
  // set, else a local folder (see `openStorage`).
  S3_ENDPOINT: optionalUrl,
  S3_BUCKET: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(
      z
        .string()
        .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 of a-z, 0-9, dot, dash)')
        .optional(),
    ),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  /** Path-style addressing (`endpoint/bucket/key`); default on when S3_ENDPOINT is set (MinIO). */
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', ''])
    .optional()
    .transform((v) => (v ? v === 'true' : undefined)),
  /**
   * Proxies whose X-Forwarded-For names the client: IP addresses, CIDR ranges and `loopback`,
   * comma-separated (empty: nobody). For the gateway, the reverse proxies in front of it; for a
   * service, the gateway's addresses.
   */
  TRUSTED_PROXIES: z
    .string()
    .default('loopback')
    .superRefine((v, ctx) => {
      try {
        trustedProxies(v)
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message })
      }
    }),
  /** OTLP/HTTP collector (e.g. http://collector:4318): traces are exported to its /v1/traces; unset: tracing is off. */
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
  /** The traces' `service.name`; default the deployable's name (gateway, identity, ...). */
  OTEL_SERVICE_NAME: optionalText,
  /** Which traces are kept (OpenTelemetry's names); default parentbased_always_on: every trace. */
  OTEL_TRACES_SAMPLER: optionalText.pipe(z.enum(TRACE_SAMPLERS).optional()),
  /** The ratio of the traceidratio samplers, 0 to 1 (default 1). */
  OTEL_TRACES_SAMPLER_ARG: optionalText.transform((v) => (v === undefined ? undefined : Number(v))).pipe(z.number().min(0).max(1).optional()),
  /**
   * The key stored secrets are sealed under (an OIDC client secret, an outside LRS's password):
   * base64url of 32 random bytes, the same on every replica of a service. Unset: a key file made
   * under DATA_DIR on first start (decision 0055).
   */
  SECRETS_KEY: optionalText.refine((v) => v === undefined || isSecretsKey(v), 'must be base64url of 32 random bytes'),
  /** Keys being rotated out (comma-separated): what is sealed under them still opens, and is sealed again under SECRETS_KEY at start. */
  SECRETS_KEY_PREVIOUS: optionalText.refine(
    (v) =>
      v === undefined ||
      v
        .split(',')
        .filter((k) => k.trim())
        .every(isSecretsKey),
    'must be base64url keys of 32 bytes, comma-separated',
  ),
  /** Bearer token that opens the gateway's /metrics; unset: /metrics is not served on the public port. */
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined))
    .pipe(z.string().min(16, 'must be at least 16 characters').optional()),
})
export type PlatformEnv = z.infer<typeof PlatformEnv>

/** The gateway's port when nothing says otherwise. */
export const DEFAULT_GATEWAY_PORT = 8080

/**
 * The portal's public address for e-mailed links: PUBLIC_URL, else the gateway on this machine
 * (`http://localhost:<gateway port>`), without a trailing slash. A service does not know the
 * gateway's port (its own PORT is another), so the launchers resolve it and hand it down.
 */
export const publicUrl = (env: { PUBLIC_URL?: string | undefined }, gatewayPort: number = DEFAULT_GATEWAY_PORT): string =>
  (env.PUBLIC_URL ?? `http://localhost:${gatewayPort}`).replace(/\/+$/, '')

/** The database URL a service uses: its own database name (after `prefix`) on the shared server. */
export function serviceDatabaseUrl(baseUrl: string, service: string, prefix = ''): string {
  const url = new URL(baseUrl)
  // A URL that already names a database other than the server default is used as it is for
  // every service only when one database per service is not wanted: default is one per service.
  url.pathname = `/${prefix}${service.replace(/-/g, '_')}`
  return url.toString()
}

/**
 * A deployable's `STORAGE_DIR` when run on its own: a folder every instance shares, required
 * unless `S3_BUCKET` names object storage (then it is ignored).
 */
export function storageDirVariable(source: Record<string, string | undefined>, message: string) {
  return source.S3_BUCKET?.trim()
    ? z
        .string()
        .trim()
        .optional()
        .transform(() => undefined)
    : z
        .string({ error: `${message} (or S3_BUCKET for object storage)` })
        .trim()
        .min(1, `${message} (or S3_BUCKET for object storage)`)
}
