// Shared set-up of identity's route tests: a fresh PostgreSQL database, a movable clock,
// cheap password hashing and helpers to call the app and read the outbox.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SignJWT } from 'jose'
import { PlatformEnv, createInProcessBus, createTokenIssuer, loadOrCreateSigningKey, openDatabase, type Logger, type SigningKey } from '@portal/server-kit'
import { appCaller, contractChecker, createTestDatabase, outboxEvents, silentLogger } from '@portal/server-kit/testing'
import { createApp } from './app.ts'
import type { IdentityEnv } from './context.ts'
import type { PasswordHasher } from './auth/index.ts'
import { IdentitySettings, identitySettings } from './settings.ts'
import { migrationsList } from './migrations/index.ts'
import { entities, identityService } from './server.ts'

export const ADMIN_CODE = 'let-me-in-2024'
export const CHEAP_KDF = { N: 1024, r: 8, p: 1 }

/**
 * `embedded` runs on a PGlite of its own (the single-node mode's database) instead of the machine's
 * PostgreSQL; `hasher` replaces the password KDF (the app still bounds it); `logger` receives the
 * service's log (default: none).
 */
export async function createHarness(envOverrides: Record<string, string> = {}, opts: { embedded?: boolean; hasher?: PasswordHasher; logger?: Logger } = {}) {
  const logger = opts.logger ?? silentLogger
  const testDb = opts.embedded ? await embeddedDatabase() : await createTestDatabase('identity')
  const env: IdentityEnv = PlatformEnv.extend(IdentitySettings.shape).parse({
    COMPANY_EMAIL_DOMAIN: 'acme.test',
    ADMIN_REGISTRATION_CODE: ADMIN_CODE,
    PUBLIC_URL: 'https://portal.acme.test',
    LOG_LEVEL: 'silent',
    ...envOverrides,
    // The embedded database lives in the folder made for it.
    DATA_DIR: opts.embedded ? testDb.url : '/tmp/unused',
  })
  const key = await loadOrCreateSigningKey(undefined)
  const issuer = createTokenIssuer(key, { issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE, ttlSeconds: identitySettings(env).ACCESS_TOKEN_TTL_SECONDS })
  const bus = createInProcessBus()
  let offsetMs = 0
  const clock = () => new Date(Date.now() + offsetMs)
  // The service as server.ts wires it, called in process (nothing served, no job running).
  const service = await identityService.assemble({
    env,
    logger,
    bus,
    jwks: issuer.jwks(),
    databaseUrl: opts.embedded ? undefined : testDb.url,
    clock,
    issuer,
    kdf: CHEAP_KDF,
    hasher: opts.hasher,
    tokenCheckTtlMs: 0,
  })
  const { app, background } = service
  // Another instance's app on its own connection pool (see `replica`).
  const appOn = (orm: typeof service.orm) =>
    createApp({
      orm,
      issuer,
      verifier: service.verifier,
      env,
      relay: service.relay,
      clock,
      logger,
      kdf: CHEAP_KDF,
      hasher: opts.hasher,
      background,
      tokenCheckTtlMs: 0,
      secrets: service.secrets,
    })

  // Every answer the route tests get is checked against the service's OpenAPI document (a contract test).
  const contract = contractChecker(await (await app.request('/openapi.json')).json())
  let addressSeq = 0
  type CallOptions = { body?: unknown; raw?: string; token?: string; address?: string; headers?: Record<string, string> }
  /** Calls the app; each call comes from its own client address unless `address` is given. */
  const call = (method: string, path: string, opts: CallOptions = {}) => callApp(app, method, path, opts)
  const callApp = async (target: typeof app, method: string, path: string, opts: CallOptions = {}) => {
    const { address, headers, ...rest } = opts
    const settledApp = {
      async request(path: string, init?: RequestInit) {
        const res = await target.request(path, init)
        await background.settled() // what the request left running (e.g. a reset link) is there to read
        return res
      },
    }
    return appCaller(settledApp, { contract })(method, path, {
      ...rest,
      headers: { 'x-forwarded-for': address ?? `10.0.${Math.floor(++addressSeq / 250)}.${addressSeq % 250}`, ...headers },
    })
  }

  const sql = async <T = Record<string, unknown>>(query: string, params: unknown[] = []) => (await service.orm.em.getConnection().execute(query, params)) as T[]

  // Events recorded in one millisecond keep their order by the kit's outbox sequence (a platform migration every service runs).
  const events = (type?: string) => outboxEvents(sql, type)

  /** The last verification code e-mailed to the user (from the outbox). */
  const lastCode = async (userId: string): Promise<string> => {
    const all = (await events('identity.verification.requested.v1')).filter((e) => e.data.userId === userId)
    return all.at(-1)!.data.code
  }

  let userSeq = 0
  /** Registers, verifies and returns a signed-in user. */
  const signUp = async (opts: { name?: string; email?: string; password?: string; admin?: boolean } = {}) => {
    const n = ++userSeq
    const email = opts.email ?? `user${n}.${Math.random().toString(36).slice(2, 7)}@acme.test`
    const password = opts.password ?? 'Passw0rd!'
    const reg = await call('POST', '/auth/register', {
      body: { name: opts.name ?? `User ${n}`, email, password, isAdmin: Boolean(opts.admin), adminCode: opts.admin ? ADMIN_CODE : undefined },
    })
    if (reg.status !== 201) throw new Error(`register failed: ${JSON.stringify(reg.body)}`)
    const verified = await call('POST', '/auth/verify-email', {
      body: { userId: reg.body.userId, verificationCode: await lastCode(reg.body.userId) },
    })
    if (verified.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verified.body)}`)
    return {
      token: verified.body.token as string,
      user: verified.body.user,
      email,
      password,
      refreshCookie: refreshCookieOf(verified),
      deviceCookie: deviceCookieOf(verified),
    }
  }

  /** A token signed by identity's key with chosen claims and header (for forged/expired cases). */
  const signRaw = (claims: Record<string, unknown>, opts: { key?: SigningKey; exp?: number | string; aud?: string } = {}) => {
    const k = opts.key ?? key
    return new SignJWT({ roles: [], ...claims })
      .setProtectedHeader({ alg: 'EdDSA', kid: k.kid })
      .setSubject(String(claims.sub ?? crypto.randomUUID()))
      .setIssuer(env.JWT_ISSUER)
      .setAudience(opts.aud ?? env.JWT_AUDIENCE)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(opts.exp ?? '1h')
      .sign(k.privateKey)
  }

  return {
    app,
    env,
    background,
    orm: service.orm,
    /** The service's secret box (stored secrets are sealed with it). */
    secrets: service.secrets,
    issuer,
    key,
    call,
    sql,
    events,
    lastCode,
    signUp,
    signRaw,
    /**
     * Another identity instance on the same PostgreSQL database (cluster mode: its own connection
     * pool, the same tables); `call` calls it.
     */
    async replica() {
      if (opts.embedded) throw new Error('an embedded database has one instance')
      const other = await openDatabase({ service: 'identity', url: testDb.url, dataDir: '/tmp/unused', entities, migrations: migrationsList, logger: silentLogger })
      const otherApp = appOn(other.orm)
      return { call: (method: string, path: string, o: CallOptions = {}) => callApp(otherApp, method, path, o), close: () => other.close() }
    },
    /** Moves the service's clock forward. */
    advance: (ms: number) => void (offsetMs += ms),
    async close() {
      await service.close()
      await bus.close()
      await testDb.drop()
    },
  }
}
export type Harness = Awaited<ReturnType<typeof createHarness>>

/** A folder for an embedded database; `url` is the folder (openDatabase's dataDir). */
async function embeddedDatabase() {
  const dir = await mkdtemp(join(tmpdir(), 'identity-pglite-'))
  return { url: dir, drop: () => rm(dir, { recursive: true, force: true }) }
}

/** The `Cookie` header value (`name=value`) of the cookie `name` an answer set, or undefined (also when it clears it). */
export function cookieOf(res: { headers: Headers }, name: string): string | undefined {
  const set = res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))
  const value = set?.split(';')[0]
  return value && value !== `${name}=` ? value : undefined
}

/** A logger keeping every entry (tests read what was logged). */
export function capturingLogger(lines: { level: string; msg: string; fields?: Record<string, unknown> }[] = []): Logger & { lines: typeof lines } {
  const at = (level: string) => (msg: string, fields?: Record<string, unknown>) => void lines.push({ level, msg, fields })
  const logger: Logger & { lines: typeof lines } = { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: () => logger }
  return logger
}

/** The `Cookie` header value carrying the refresh token an answer set, or undefined. */
export function refreshCookieOf(res: { headers: Headers }): string | undefined {
  const set = res.headers.getSetCookie().find((c) => c.startsWith('portal_refresh='))
  const value = set?.split(';')[0]
  return value && value !== 'portal_refresh=' ? value : undefined
}

/** The `Cookie` header value carrying the device cookie an answer set (a known browser), or undefined. */
export function deviceCookieOf(res: { headers: Headers }): string | undefined {
  const set = res.headers.getSetCookie().find((c) => c.startsWith('portal_device='))
  const value = set?.split(';')[0]
  return value && value !== 'portal_device=' ? value : undefined
}
