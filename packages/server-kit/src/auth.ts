import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { createMiddleware } from 'hono/factory'
import {
  SignJWT,
  createLocalJWKSet,
  createRemoteJWKSet,
  errors as joseErrors,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  type JSONWebKeySet,
  type JWK,
  type JWTVerifyGetKey,
} from 'jose'
import type { Branch, Department, ManagerScope } from '@portal/contracts'
import { AppError, forbidden, unauthorized } from './errors.ts'
import { ADMIN_SPEC, BEARER_SPEC, documented } from './openapi.ts'

const ALG = 'EdDSA'

/** Who is calling, as the verified token says. */
export interface Actor {
  userId: string
  email: string
  name: string
  isAdmin: boolean
  isManager: boolean
  managerScope: ManagerScope
  /**
   * The user's auth version when the token was issued (`ver` claim; absent = 0). A service refuses
   * the token once its projection holds a greater version (see `checkTokenFreshness`).
   */
  tokenVersion?: number
}

export type AuthEnv = { Variables: { actor: Actor } }

export interface SigningKey {
  privateKey: CryptoKey
  publicJwk: JWK
  kid: string
}

/** Loads the signing key from `file` (a private JWK), creating and saving a new one when absent. */
export async function loadOrCreateSigningKey(file: string | undefined, privateJwkJson?: string): Promise<SigningKey> {
  let jwk: JWK | undefined
  if (privateJwkJson) jwk = JSON.parse(privateJwkJson) as JWK
  else if (file) {
    // Only a missing file means "create one": an unreadable key must not be silently replaced
    // (every issued token would stop verifying).
    const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return undefined
      throw err
    })
    if (text !== undefined) jwk = JSON.parse(text) as JWK
  }
  if (!jwk) {
    const pair = await generateKeyPair(ALG, { crv: 'Ed25519', extractable: true })
    jwk = { ...(await exportJWK(pair.privateKey)), kid: crypto.randomUUID(), alg: ALG }
    if (file) {
      await mkdir(dirname(file), { recursive: true })
      await writeFile(file, JSON.stringify(jwk), { mode: 0o600 })
    }
  }
  const privateKey = (await importJWK(jwk, ALG)) as CryptoKey
  const { d: _secret, key_ops: _ops, ext: _ext, ...publicJwk } = jwk
  // Tokens carry `kid`; the published key must carry the same one or no verifier finds it.
  const kid = jwk.kid ?? 'default'
  return { privateKey, publicJwk: { ...publicJwk, kid, use: 'sig', alg: ALG }, kid }
}

export interface TokenOptions {
  issuer: string
  audience: string
  ttlSeconds: number
}

/** Signs access tokens carrying the caller's roles. */
export function createTokenIssuer(key: SigningKey, opts: TokenOptions) {
  return {
    jwks: (): JSONWebKeySet => ({ keys: [key.publicJwk] }),
    sign: (actor: Actor) =>
      new SignJWT({
        email: actor.email,
        name: actor.name,
        roles: [...(actor.isAdmin ? ['admin'] : []), ...(actor.isManager ? ['manager'] : [])],
        scope: actor.managerScope,
        ...(actor.tokenVersion !== undefined ? { ver: actor.tokenVersion } : {}),
      })
        .setProtectedHeader({ alg: ALG, kid: key.kid, typ: 'JWT' })
        .setSubject(actor.userId)
        .setIssuer(opts.issuer)
        .setAudience(opts.audience)
        .setIssuedAt()
        .setExpirationTime(`${opts.ttlSeconds}s`)
        .sign(key.privateKey),
  }
}
export type TokenIssuer = ReturnType<typeof createTokenIssuer>

/** Where a verifier finds the public keys: a JWKS document, a URL serving one, or a getter. */
export type KeySource = JSONWebKeySet | URL | (() => JSONWebKeySet)

/** Verifies access tokens (EdDSA only; issuer and audience checked) and returns the Actor. */
export function createTokenVerifier(source: KeySource, opts: { issuer: string; audience: string }) {
  let getKey: JWTVerifyGetKey
  if (source instanceof URL) getKey = createRemoteJWKSet(source, { cooldownDuration: 30_000, cacheMaxAge: 600_000 })
  else if (typeof source === 'function') getKey = (h, t) => createLocalJWKSet(source())(h, t)
  else getKey = createLocalJWKSet(source)
  // Verified tokens are remembered briefly (a signature check costs more than the rest of a
  // simple read); expiry is still checked on every use, and the cache is bounded.
  const cache = new Map<string, { actor: Actor; exp: number; until: number }>()
  const CACHE_MAX = 10_000
  const CACHE_MS = 60_000
  const expired = () => unauthorized('Your session has expired. Please log in again.', 'token_expired', { expired: true })
  return async (token: string): Promise<Actor> => {
    const now = Date.now()
    const hit = cache.get(token)
    if (hit && hit.until > now) {
      if (hit.exp * 1000 <= now) throw expired()
      return hit.actor
    }
    try {
      const { payload } = await jwtVerify(token, getKey, {
        algorithms: [ALG],
        issuer: opts.issuer,
        audience: opts.audience,
        requiredClaims: ['sub', 'exp'],
      })
      const roles = Array.isArray(payload.roles) ? (payload.roles as string[]) : []
      const scope = (payload.scope ?? {}) as Partial<ManagerScope>
      const actor: Actor = {
        userId: String(payload.sub),
        email: String(payload.email ?? ''),
        name: String(payload.name ?? ''),
        isAdmin: roles.includes('admin'),
        isManager: roles.includes('manager'),
        managerScope: { branches: scope.branches ?? [], departments: scope.departments ?? [] },
      }
      if (Number.isSafeInteger(payload.ver)) actor.tokenVersion = payload.ver as number
      if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!)
      cache.set(token, { actor, exp: payload.exp!, until: now + CACHE_MS })
      return actor
    } catch (err) {
      cache.delete(token)
      if (err instanceof joseErrors.JWTExpired) throw expired()
      throw unauthorized('Invalid or missing authentication token', 'invalid_token')
    }
  }
}
export type TokenVerifier = ReturnType<typeof createTokenVerifier>

/** A check run on every verified actor, throwing (e.g. `staleToken()`) to refuse the token. */
export type TokenCheck = (actor: Actor) => Promise<void>

/** A verifier that also runs `check` on every actor it verifies (one place to wire a service's check). */
export const withTokenCheck =
  (verify: TokenVerifier, check: TokenCheck): TokenVerifier =>
  async (token) => {
    const actor = await verify(token)
    await check(actor)
    return actor
  }

/**
 * Middleware: a valid bearer token is required; sets `c.var.actor`. `check` may refuse a token
 * whose facts are no longer true (user deleted, roles changed since it was issued).
 */
export const authenticate = (verify: TokenVerifier, opts: { check?: TokenCheck } = {}) => {
  const verified = opts.check ? withTokenCheck(verify, opts.check) : verify
  const middleware = createMiddleware<AuthEnv>(async (c, next) => {
    const header = c.req.header('authorization') ?? ''
    const match = /^Bearer\s+(\S+)$/i.exec(header)
    if (!match) throw unauthorized('Invalid or missing authentication token', 'invalid_token')
    c.set('actor', await verified(match[1]!))
    await next()
  })
  // The service's OpenAPI document lists the bearer scheme and its 401 on every route behind it.
  return documented(middleware, BEARER_SPEC)
}

/**
 * 401 for a token that outlived its facts; `expired: true` so the client refreshes it (and, when
 * that fails, treats it as the spec's expired session).
 */
export const staleToken = () => unauthorized('Your session has expired. Please log in again.', 'token_stale', { expired: true })

/** What a service knows of a user's sign-in state (identity's table, or a projection of it). */
export interface UserAuthState {
  deleted: boolean
  authVersion: number
}

/**
 * Throws `staleToken()` when the user is deleted or their auth version moved past the token's.
 * `null` (a user the service does not know yet) passes: the signed token vouches for them.
 */
export function checkTokenFreshness(actor: Actor, state: UserAuthState | null): void {
  if (!state) return
  if (state.deleted || state.authVersion > (actor.tokenVersion ?? 0)) throw staleToken()
}

/**
 * A `TokenCheck` reading the user's state with `load`, remembered per user for `ttlMs` (a burst
 * of calls costs one read; a change still takes effect within `ttlMs` plus the event's delivery).
 */
export function createTokenCheck(load: (userId: string) => Promise<UserAuthState | null>, opts: { ttlMs?: number; max?: number } = {}): TokenCheck {
  const ttlMs = opts.ttlMs ?? 1_000
  const max = opts.max ?? 10_000
  const cache = new Map<string, { state: UserAuthState | null; at: number }>()
  return async (actor) => {
    const now = Date.now()
    let hit = cache.get(actor.userId)
    if (!hit || now - hit.at >= ttlMs) {
      hit = { state: await load(actor.userId), at: now }
      if (cache.size >= max) cache.clear()
      cache.set(actor.userId, hit)
    }
    checkTokenFreshness(actor, hit.state)
  }
}

/** Middleware (after `authenticate`): only admins pass. */
export const requireAdmin = documented(
  createMiddleware<AuthEnv>(async (c, next) => {
    if (!c.get('actor')?.isAdmin) throw forbidden('Admin access required', 'admin_required')
    await next()
  }),
  ADMIN_SPEC,
)

/** Throws 403 unless the actor is the user or an admin. */
export function requireSelfOrAdmin(actor: Actor, userId: string): void {
  if (actor.userId !== userId && !actor.isAdmin) throw forbidden()
}

/** Where a user works, as access rules need it (a service reads it from its user projection). */
export interface UserPlacement {
  id: string
  branch: Branch | null
  department: Department | null
}

/** Whether a manager's scope covers a user of this branch and department; an empty list covers all. */
export function inManagerScope(scope: ManagerScope, user: Pick<UserPlacement, 'branch' | 'department'>): boolean {
  const covers = <T extends string>(list: readonly T[], value: T | null) => list.length === 0 || (value !== null && list.includes(value))
  return covers(scope.branches, user.branch) && covers(scope.departments, user.department)
}

/**
 * Throws 403 unless the actor may read the user's records (DESIGN "Security"): the user themself,
 * an admin, or a manager whose scope covers the user.
 */
export function requireUserAccess(actor: Actor, user: UserPlacement): void {
  if (actor.userId === user.id || actor.isAdmin) return
  if (actor.isManager && inManagerScope(actor.managerScope, user)) return
  throw forbidden()
}

export { AppError }
