import { z } from 'zod'
import { PlatformEnv, parseEnv, storageDirVariable } from '@portal/server-kit'

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
