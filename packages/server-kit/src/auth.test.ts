import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Hono } from 'hono'
import { SignJWT, exportJWK, generateKeyPair } from 'jose'
import {
  authenticate,
  checkTokenFreshness,
  createTokenCheck,
  createTokenIssuer,
  createTokenVerifier,
  loadOrCreateSigningKey,
  requireAdmin,
  inManagerScope,
  requireSelfOrAdmin,
  requireUserAccess,
  type Actor,
  type AuthEnv,
  type SigningKey,
  type UserPlacement,
} from './auth.ts'
import { AppError, errorHandler } from './errors.ts'
import { silentLogger } from './testing.ts'

const opts = { issuer: 'portal-identity', audience: 'portal', ttlSeconds: 900 }
const actor: Actor = {
  userId: '6f1c2a34-1b2c-4d5e-8f90-123456789abc',
  email: 'tech@example.com',
  name: 'Tess Tech',
  isAdmin: false,
  isManager: true,
  managerScope: { branches: ['Seattle'], departments: ['Testing'] },
}
const admin: Actor = { ...actor, userId: crypto.randomUUID(), isAdmin: true, isManager: false, managerScope: { branches: [], departments: [] } }

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url')

let dir: string
let key: SigningKey
let issuer: ReturnType<typeof createTokenIssuer>
let verify: ReturnType<typeof createTokenVerifier>

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'server-kit-auth-'))
  key = await loadOrCreateSigningKey(join(dir, 'keys', 'signing.jwk'))
  issuer = createTokenIssuer(key, opts)
  verify = createTokenVerifier(issuer.jwks(), opts)
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(AppError)
  return err as AppError
}

describe('tokens', () => {
  it('verifies a token it issued and returns the actor', async () => {
    expect(await verify(await issuer.sign(actor))).toEqual(actor)
    expect(await verify(await issuer.sign(admin))).toEqual(admin)
  })

  it('verifies through a key getter too', async () => {
    const viaGetter = createTokenVerifier(() => issuer.jwks(), opts)
    expect((await viaGetter(await issuer.sign(actor))).userId).toBe(actor.userId)
  })

  it('publishes a JWKS without the private part', () => {
    const jwks = issuer.jwks()
    expect(jwks.keys).toHaveLength(1)
    expect(jwks.keys[0]).not.toHaveProperty('d')
    expect(jwks.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig', kid: key.kid })
  })

  it('rejects an unsigned alg:none token', async () => {
    const now = Math.floor(Date.now() / 1000)
    const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: actor.userId, iss: opts.issuer, aud: opts.audience, exp: now + 600, roles: ['admin'] })}.`
    const err = await rejection(verify(token))
    expect(err.status).toBe(401)
    expect(err.code).toBe('invalid_token')
  })

  it('rejects a token signed by a foreign key, even with the same kid', async () => {
    const foreign = await generateKeyPair('EdDSA', { crv: 'Ed25519' })
    const token = await new SignJWT({ roles: ['admin'] })
      .setProtectedHeader({ alg: 'EdDSA', kid: key.kid })
      .setSubject(actor.userId)
      .setIssuer(opts.issuer)
      .setAudience(opts.audience)
      .setExpirationTime('5m')
      .sign(foreign.privateKey)
    expect((await rejection(verify(token))).status).toBe(401)
  })

  it('rejects a wrong audience or issuer', async () => {
    const otherAud = createTokenIssuer(key, { ...opts, audience: 'someone-else' })
    const otherIss = createTokenIssuer(key, { ...opts, issuer: 'evil-identity' })
    for (const token of [await otherAud.sign(actor), await otherIss.sign(actor)]) {
      const err = await rejection(verify(token))
      expect(err.status).toBe(401)
      expect(err.code).toBe('invalid_token')
    }
  })

  it('answers an expired token with 401 token_expired and expired: true', async () => {
    const expired = await new SignJWT({ roles: [] })
      .setProtectedHeader({ alg: 'EdDSA', kid: key.kid })
      .setSubject(actor.userId)
      .setIssuer(opts.issuer)
      .setAudience(opts.audience)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(key.privateKey)
    const err = await rejection(verify(expired))
    expect(err.status).toBe(401)
    expect(err.code).toBe('token_expired')
    expect(err.extra.expired).toBe(true)
  })

  it('rejects garbage', async () => {
    for (const token of ['', 'garbage', 'a.b.c', `${b64({ alg: 'EdDSA' })}.${b64({})}.xyz`]) {
      expect((await rejection(verify(token))).status).toBe(401)
    }
  })
})

describe('loadOrCreateSigningKey', () => {
  it('persists a new key privately and reloads the same key', async () => {
    const file = join(dir, 'persist', 'key.jwk')
    const created = await loadOrCreateSigningKey(file)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    const reloaded = await loadOrCreateSigningKey(file)
    expect(reloaded.kid).toBe(created.kid)
    expect(reloaded.publicJwk).toEqual(created.publicJwk)
    const token = await createTokenIssuer(reloaded, opts).sign(actor)
    expect((await createTokenVerifier(createTokenIssuer(created, opts).jwks(), opts)(token)).userId).toBe(actor.userId)
  })

  it('uses a key given as JSON, even one without a kid', async () => {
    const pair = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true })
    const jwk = await exportJWK(pair.privateKey)
    const given = await loadOrCreateSigningKey(undefined, JSON.stringify(jwk))
    expect(given.publicJwk).not.toHaveProperty('d')
    const tokens = createTokenIssuer(given, opts)
    expect((await createTokenVerifier(tokens.jwks(), opts)(await tokens.sign(actor))).userId).toBe(actor.userId)
  })

  it('refuses to replace an unreadable key file (that would log everybody out)', async () => {
    const file = join(dir, 'corrupt.jwk')
    await writeFile(file, '{not json')
    await expect(loadOrCreateSigningKey(file)).rejects.toThrow()
    expect(await readFile(file, 'utf8')).toBe('{not json')
  })
})

describe('auth middleware', () => {
  const app = new Hono<AuthEnv>()
  app.onError(errorHandler(silentLogger))
  app.use(
    '/api/*',
    authenticate((t) => verify(t)),
  )
  app.get('/api/me', (c) => c.json(c.get('actor')))
  app.get('/api/admin', requireAdmin, (c) => c.json({ ok: true }))

  it('answers a missing or malformed header with 401 in the error shape', async () => {
    for (const headers of [{}, { Authorization: 'Basic abc' }, { Authorization: 'Bearer' }] as Record<string, string>[]) {
      const res = await app.request('/api/me', { headers })
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual({ message: expect.any(String), code: 'invalid_token' })
    }
  })

  it('answers an expired token with expired: true in the body', async () => {
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'EdDSA', kid: key.kid })
      .setSubject(actor.userId)
      .setIssuer(opts.issuer)
      .setAudience(opts.audience)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(key.privateKey)
    const res = await app.request('/api/me', { headers: { Authorization: `Bearer ${expired}` } })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ message: expect.any(String), code: 'token_expired', expired: true })
  })

  it('sets the actor for a valid token', async () => {
    const res = await app.request('/api/me', { headers: { Authorization: `Bearer ${await issuer.sign(actor)}` } })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual(actor)
  })

  it('lets only admins through requireAdmin', async () => {
    const asTech = await app.request('/api/admin', { headers: { Authorization: `Bearer ${await issuer.sign(actor)}` } })
    expect(asTech.status).toBe(403)
    expect(await asTech.json()).toEqual({ message: expect.any(String), code: 'admin_required' })
    const asAdmin = await app.request('/api/admin', { headers: { Authorization: `Bearer ${await issuer.sign(admin)}` } })
    expect(asAdmin.status).toBe(200)
  })

  it('requireSelfOrAdmin lets the user and admins in, nobody else', () => {
    expect(() => requireSelfOrAdmin(actor, actor.userId)).not.toThrow()
    expect(() => requireSelfOrAdmin(admin, actor.userId)).not.toThrow()
    expect(() => requireSelfOrAdmin(actor, admin.userId)).toThrow(AppError)
  })

  it('inManagerScope needs both the branch and the department covered; an empty list covers all, also users without one', () => {
    const seattleTesting = { branches: ['Seattle' as const], departments: ['Testing' as const] }
    expect(inManagerScope(seattleTesting, { branch: 'Seattle', department: 'Testing' })).toBe(true)
    expect(inManagerScope(seattleTesting, { branch: 'Seattle', department: 'Service' })).toBe(false)
    expect(inManagerScope(seattleTesting, { branch: 'Portland', department: 'Testing' })).toBe(false)
    expect(inManagerScope(seattleTesting, { branch: null, department: null })).toBe(false)
    expect(inManagerScope({ branches: ['Portland'], departments: [] }, { branch: 'Portland', department: null })).toBe(true)
    expect(inManagerScope({ branches: [], departments: [] }, { branch: null, department: null })).toBe(true)
  })

  it('requireUserAccess lets in the user, admins and managers whose scope covers the user; 403 for the rest', () => {
    const inScope = { id: crypto.randomUUID(), branch: 'Seattle' as const, department: 'Testing' as const }
    const outOfScope = { id: crypto.randomUUID(), branch: 'Portland' as const, department: 'Testing' as const }
    const technician: Actor = { ...actor, userId: crypto.randomUUID(), isManager: false, managerScope: { branches: [], departments: [] } }
    expect(() => requireUserAccess(actor, inScope)).not.toThrow()
    expect(() => requireUserAccess(admin, outOfScope)).not.toThrow()
    expect(() => requireUserAccess(technician, { ...inScope, id: technician.userId })).not.toThrow()
    const refused: [Actor, UserPlacement][] = [
      [actor, outOfScope],
      [technician, inScope],
      // A scope left in the token of someone no longer a manager grants nothing.
      [{ ...technician, managerScope: actor.managerScope }, inScope],
    ]
    for (const [who, user] of refused) expect(() => requireUserAccess(who, user)).toThrow(expect.objectContaining({ status: 403, code: 'forbidden' }))
  })
})

describe('verified-token cache', () => {
  it('still answers expired for a token that expires after it was first verified', async () => {
    const shortLived = createTokenIssuer(key, { ...opts, ttlSeconds: 1 })
    const token = await shortLived.sign(actor)
    expect((await verify(token)).userId).toBe(actor.userId)
    await new Promise((r) => setTimeout(r, 2_100))
    const err = await rejection(verify(token))
    expect(err.status).toBe(401)
    expect(err.extra.expired).toBe(true)
  })
  it('never caches a rejected token', async () => {
    const forged = (await issuer.sign(actor)).slice(0, -4) + 'AAAA'
    expect((await rejection(verify(forged))).status).toBe(401)
    expect((await rejection(verify(forged))).status).toBe(401)
  })
})

describe('token freshness (auth version and deletion)', () => {
  it('carries the auth version as the ver claim and back', async () => {
    const versioned = { ...actor, tokenVersion: 3 }
    const token = await issuer.sign(versioned)
    expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())).toMatchObject({ ver: 3 })
    expect(await verify(token)).toEqual(versioned)
    // A token from before versions existed counts as version 0.
    expect((await verify(await issuer.sign(actor))).tokenVersion).toBeUndefined()
  })

  it('refuses a deleted user and a token older than the user’s auth version; an unknown user passes', () => {
    const v1 = { ...actor, tokenVersion: 1 }
    expect(() => checkTokenFreshness(v1, null)).not.toThrow()
    expect(() => checkTokenFreshness(v1, { deleted: false, authVersion: 1 })).not.toThrow()
    expect(() => checkTokenFreshness(v1, { deleted: false, authVersion: 0 })).not.toThrow()
    for (const state of [
      { deleted: false, authVersion: 2 },
      { deleted: true, authVersion: 0 },
    ])
      expect(() => checkTokenFreshness(v1, state)).toThrow(expect.objectContaining({ status: 401, code: 'token_stale', extra: { expired: true } }))
    expect(() => checkTokenFreshness(actor, { deleted: false, authVersion: 1 })).toThrow(expect.objectContaining({ code: 'token_stale' }))
  })

  it('authenticate runs the check and answers a stale token with 401 expired, token_stale', async () => {
    const states = new Map<string, { deleted: boolean; authVersion: number }>()
    let loads = 0
    const check = createTokenCheck(async (id) => (loads++, states.get(id) ?? null), { ttlMs: 0 })
    const app = new Hono<AuthEnv>()
    app.onError(errorHandler(silentLogger))
    app.use('/api/*', authenticate(verify, { check }))
    app.get('/api/me', (c) => c.json(c.get('actor')))
    const token = await issuer.sign({ ...actor, tokenVersion: 0 })
    const call = async () => app.request('/api/me', { headers: { Authorization: `Bearer ${token}` } })
    expect((await call()).status).toBe(200)
    states.set(actor.userId, { deleted: false, authVersion: 1 })
    const stale = await call()
    expect(stale.status).toBe(401)
    expect(await stale.json()).toEqual({ message: 'Your session has expired. Please log in again.', code: 'token_stale', expired: true })
    expect(loads).toBe(2)
  })

  it('createTokenCheck reads a user once per ttl', async () => {
    let loads = 0
    const check = createTokenCheck(async () => (loads++, { deleted: false, authVersion: 0 }), { ttlMs: 60_000 })
    await Promise.all([check(actor), check(actor)])
    await check(actor)
    expect(loads).toBeLessThanOrEqual(2)
    await check(admin)
    expect(loads).toBeLessThanOrEqual(3)
  })
})
