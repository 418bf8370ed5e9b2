import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MESSAGES } from '@portal/contracts'
import { loadOrCreateSigningKey } from '@portal/server-kit'
import { ADMIN_CODE, createHarness, type Harness } from '../harness.test-support.ts'
import { AUTH_MESSAGES } from './auth.service.ts'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(async () => {
  await h?.close()
})

const uniqueEmail = (prefix = 'p') => `${prefix}.${Math.random().toString(36).slice(2, 9)}@acme.test`
const register = (body: Record<string, unknown>) => h.call('POST', '/auth/register', { body: { name: 'Jo Tech', password: 'Passw0rd!', ...body } })
const countUsers = async () => Number((await h.sql<{ n: string }>('select count(*) as n from users'))[0]!.n)

describe('GET /auth/config and /auth/jwks.json', () => {
  it('tells the company domain and whether admin registration is on', async () => {
    const res = await h.call('GET', '/auth/config')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ companyEmailDomain: 'acme.test', adminRegistrationEnabled: true })
  })
  it('publishes the public signing key only', async () => {
    const res = await h.call('GET', '/auth/jwks.json')
    expect(res.status).toBe(200)
    expect(res.body.keys).toHaveLength(1)
    expect(res.body.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' })
    expect(res.body.keys[0].d).toBeUndefined()
  })
})

describe('POST /auth/register', () => {
  it('creates an unverified user, records the events and asks for verification', async () => {
    const email = uniqueEmail('new')
    const res = await register({ email: email.toUpperCase() })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ requiresVerification: true, message: AUTH_MESSAGES.registered })
    const [row] = await h.sql<{ email: string; email_verified: boolean; password_hash: string; is_admin: boolean }>('select * from users where id = ?', [res.body.userId])
    expect(row).toMatchObject({ email, email_verified: false, is_admin: false })
    expect(row!.password_hash).toMatch(/^scrypt\$1024\$8\$1\$[\w-]{22}\$[\w-]{43}$/)
    const registered = (await h.events('identity.user.registered.v1')).filter((e) => e.data.userId === res.body.userId)
    expect(registered).toHaveLength(1)
    expect(registered[0]!.data).toMatchObject({ email, name: 'Jo Tech', isAdmin: false, branch: null })
    const codes = (await h.events('identity.verification.requested.v1')).filter((e) => e.data.userId === res.body.userId)
    expect(codes).toHaveLength(1)
    expect(codes[0]!.data.code).toMatch(/^\d{6}$/)
    const [code] = await h.sql<{ code_hash: string }>('select code_hash from verification_codes where user_id = ?', [res.body.userId])
    expect(code!.code_hash).not.toContain(codes[0]!.data.code)
  })

  it('rejects an e-mail outside the company domain, whatever the case', async () => {
    const before = await countUsers()
    for (const email of ['a@gmail.com', 'a@acme.test.evil.com', 'a@notacme.test']) {
      const res = await register({ email })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ message: MESSAGES.domain('acme.test'), code: 'email_domain_not_allowed' })
    }
    expect((await register({ email: uniqueEmail().replace('acme.test', 'ACME.Test') })).status).toBe(201)
    expect(await countUsers()).toBe(before + 1)
  })

  it('answers every validation problem with 400 and the message', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ email: uniqueEmail(), password: 'short' }, MESSAGES.passwordMin],
      [{ email: 'not-an-email' }, 'Please enter a valid email address'],
      [{ email: uniqueEmail(), name: '  ' }, 'Full name is required'],
      [{ email: uniqueEmail(), name: undefined }, 'name is required'],
      [{ email: undefined }, 'email is required'],
      [{ email: uniqueEmail(), password: 12345678 }, 'Invalid input: expected string, received number'],
      [{ email: uniqueEmail(), isAdmin: 'yes' }, 'Invalid input: expected boolean, received string'],
      [{ email: uniqueEmail(), password: 'x'.repeat(201) }, 'Password is too long'],
    ]
    const before = await countUsers()
    for (const [body, message] of cases) {
      const res = await register(body)
      expect(res.status, message).toBe(400)
      expect(res.body).toMatchObject({ message, code: 'validation_failed' })
      expect(res.body.details.length).toBeGreaterThan(0)
    }
    expect(await countUsers()).toBe(before)
  })

  it('refuses malformed JSON, a non-JSON body and an oversized body without a 500', async () => {
    const bad = await h.call('POST', '/auth/register', { raw: '{"email": ' })
    expect(bad.status).toBe(400)
    expect(bad.body.code).toBeTypeOf('string')
    expect(bad.body.message).toBeTypeOf('string')
    const arr = await h.call('POST', '/auth/register', { body: ['a'] })
    expect(arr.status).toBe(400)
    const text = await h.call('POST', '/auth/register', { raw: 'name=x', headers: { 'content-type': 'text/plain' } })
    expect([text.status, text.body.code]).toEqual([415, 'unsupported_media_type'])
    // A name that is not storable Unicode (a lone surrogate, a NUL) is the client's error, and nothing is written.
    const before = await countUsers()
    for (const name of ['Ada \ud800', 'Ada \u0000']) {
      const res = await h.call('POST', '/auth/register', { body: { name, email: uniqueEmail(), password: 'Passw0rd!' } })
      expect([res.status, res.body.code], JSON.stringify(name)).toEqual([400, 'invalid_text'])
    }
    expect(await countUsers()).toBe(before)
    const big = await h.call('POST', '/auth/register', { body: { name: 'x'.repeat(70 * 1024), email: uniqueEmail(), password: 'Passw0rd!' } })
    expect(big.status).toBe(413)
    expect(big.body).toEqual({ message: 'Request body is too large', code: 'payload_too_large' })
  })

  it('answers a taken e-mail exactly like a new one and e-mails the owner instead', async () => {
    const email = uniqueEmail('dup')
    const first = await register({ email })
    expect(first.status).toBe(201)
    const [owner] = await h.sql<{ id: string }>('select id from users where email = ?', [email])
    const before = await countUsers()
    const eventsBefore = (await h.events()).length
    const res = await register({ email: email.toUpperCase(), name: 'Other' })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body).sort()).toEqual(Object.keys(first.body).sort())
    expect(res.body).toEqual({ requiresVerification: true, userId: expect.any(String), message: first.body.message })
    expect(res.body.userId).not.toBe(owner!.id)
    expect(res.body.userId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(await countUsers()).toBe(before)
    // No account, no code: only the notice to the owner, with links to sign in or reset.
    const added = (await h.events()).slice(eventsBefore)
    expect(added.map((e) => e.type)).toEqual(['identity.registration.attempted.v1'])
    expect(added[0]!.data).toEqual({
      userId: owner!.id,
      name: 'Jo Tech',
      email,
      loginUrl: 'https://portal.acme.test/login',
      resetUrl: 'https://portal.acme.test/forgot-password',
    })
    // At most one notice an hour per account.
    expect((await register({ email })).status).toBe(201)
    expect((await h.events('identity.registration.attempted.v1')).filter((e) => e.data.userId === owner!.id)).toHaveLength(1)
  })

  it('lets only one of two simultaneous registrations of an e-mail create the user; both answer alike', async () => {
    const email = uniqueEmail('race')
    const results = await Promise.all([register({ email }), register({ email: email.toUpperCase() })])
    expect(results.map((r) => r.status)).toEqual([201, 201])
    expect(results.map((r) => r.body.message)).toEqual([AUTH_MESSAGES.registered, AUTH_MESSAGES.registered])
    expect((await h.sql('select id from users where email = ?', [email])).length).toBe(1)
  })

  it('registers an admin only with the right admin code', async () => {
    const wrong = await register({ email: uniqueEmail(), isAdmin: true, adminCode: 'nope' })
    expect(wrong.status).toBe(400)
    expect(wrong.body).toEqual({ message: MESSAGES.invalidAdminCode, code: 'invalid_admin_code' })
    const missing = await register({ email: uniqueEmail(), isAdmin: true })
    expect(missing.status).toBe(400)
    expect(missing.body.message).toBe(MESSAGES.invalidAdminCode)
    const ok = await register({ email: uniqueEmail(), isAdmin: true, adminCode: ADMIN_CODE })
    expect(ok.status).toBe(201)
    const [row] = await h.sql<{ is_admin: boolean }>('select is_admin from users where id = ?', [ok.body.userId])
    expect(row!.is_admin).toBe(true)
    // A code sent without asking for admin is ignored.
    const plain = await register({ email: uniqueEmail(), adminCode: ADMIN_CODE })
    const [p] = await h.sql<{ is_admin: boolean }>('select is_admin from users where id = ?', [plain.body.userId])
    expect(p!.is_admin).toBe(false)
  })
})

describe('admin registration without a configured code', () => {
  let h2: Harness
  beforeAll(async () => {
    h2 = await createHarness({ ADMIN_REGISTRATION_CODE: '' })
  })
  afterAll(async () => {
    await h2?.close()
  })
  it('is refused with 403 and reported off in the config', async () => {
    expect((await h2.call('GET', '/auth/config')).body.adminRegistrationEnabled).toBe(false)
    const res = await h2.call('POST', '/auth/register', {
      body: { name: 'A', email: 'a@acme.test', password: 'Passw0rd!', isAdmin: true, adminCode: 'anything' },
    })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: AUTH_MESSAGES.adminRegistrationDisabled, code: 'admin_registration_disabled' })
  })
})

describe('POST /auth/verify-email', () => {
  it('verifies with the e-mailed code and signs the user in', async () => {
    const email = uniqueEmail('v')
    const reg = await register({ email })
    const res = await h.call('POST', '/auth/verify-email', {
      body: { userId: reg.body.userId, verificationCode: await h.lastCode(reg.body.userId) },
    })
    expect(res.status).toBe(200)
    expect(res.body.token).toMatch(/^ey/)
    expect(res.body.user).toMatchObject({ id: reg.body.userId, email, name: 'Jo Tech', is_admin: false, email_verified: true })
    expect(res.body.user.password_hash).toBeUndefined()
    const me = await h.call('GET', '/users/me', { token: res.body.token })
    expect(me.body.user.id).toBe(reg.body.userId)
    // Single use: the code is gone.
    const again = await h.call('POST', '/auth/verify-email', {
      body: { userId: reg.body.userId, verificationCode: await h.lastCode(reg.body.userId) },
    })
    expect(again.status).toBe(400)
    expect(again.body.code).toBe('already_verified')
  })

  it('rejects a wrong code, then kills the code after 5 wrong tries', async () => {
    const reg = await register({ email: uniqueEmail('w') })
    const code = await h.lastCode(reg.body.userId)
    const wrong = code === '000000' ? '111111' : '000000'
    for (let i = 1; i <= 4; i++) {
      const res = await h.call('POST', '/auth/verify-email', { body: { userId: reg.body.userId, verificationCode: wrong } })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ message: AUTH_MESSAGES.invalidCode, code: 'invalid_code' })
    }
    const fifth = await h.call('POST', '/auth/verify-email', { body: { userId: reg.body.userId, verificationCode: wrong } })
    expect(fifth.status).toBe(400)
    expect(fifth.body.code).toBe('code_exhausted')
    const right = await h.call('POST', '/auth/verify-email', { body: { userId: reg.body.userId, verificationCode: code } })
    expect(right.status).toBe(400)
    expect(right.body).toEqual({ message: AUTH_MESSAGES.codeExhausted, code: 'code_exhausted' })
    const [u] = await h.sql<{ email_verified: boolean }>('select email_verified from users where id = ?', [reg.body.userId])
    expect(u!.email_verified).toBe(false)
  })

  it('rejects an expired code with the spec message', async () => {
    const reg = await register({ email: uniqueEmail('x') })
    const code = await h.lastCode(reg.body.userId)
    h.advance(15 * 60_000 + 1000)
    const res = await h.call('POST', '/auth/verify-email', { body: { userId: reg.body.userId, verificationCode: code } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: 'Verification code has expired. Please request a new one.', code: 'code_expired' })
  })

  it('validates the code format and the user id', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ userId: crypto.randomUUID(), verificationCode: '12345' }, 'Verification code must be 6 digits'],
      [{ userId: crypto.randomUUID(), verificationCode: '1234567' }, 'Verification code must be 6 digits'],
      [{ userId: crypto.randomUUID(), verificationCode: 'abcdef' }, 'Verification code must be 6 digits'],
      [{ userId: 'nope', verificationCode: '123456' }, 'Invalid id'],
      [{ verificationCode: '123456' }, 'Invalid id'], // the contract's own message wins over "is required"
      [{ userId: crypto.randomUUID(), verificationCode: 123456 }, 'Invalid input: expected string, received number'],
    ]
    for (const [body, message] of cases) {
      const res = await h.call('POST', '/auth/verify-email', { body })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ message, code: 'validation_failed' })
    }
    const unknown = await h.call('POST', '/auth/verify-email', { body: { userId: crypto.randomUUID(), verificationCode: '123456' } })
    expect(unknown.status).toBe(400)
    expect(unknown.body.message).toBe(AUTH_MESSAGES.invalidCode)
  })
})

describe('POST /auth/resend-verification', () => {
  it('replaces the code, records the event again and is bounded', async () => {
    const reg = await register({ email: uniqueEmail('r') })
    const first = await h.lastCode(reg.body.userId)
    const tooSoon = await h.call('POST', '/auth/resend-verification', { body: { userId: reg.body.userId } })
    expect(tooSoon.status).toBe(429)
    expect(Number(tooSoon.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(tooSoon.body.code).toBe('too_many_requests')
    h.advance(31_000)
    const res = await h.call('POST', '/auth/resend-verification', { body: { userId: reg.body.userId } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ message: AUTH_MESSAGES.codeResent })
    const codes = (await h.events('identity.verification.requested.v1')).filter((e) => e.data.userId === reg.body.userId)
    expect(codes).toHaveLength(2)
    const second = codes[1]!.data.code
    if (second !== first) {
      const old = await h.call('POST', '/auth/verify-email', { body: { userId: reg.body.userId, verificationCode: first } })
      expect(old.status).toBe(400)
    }
    // Five sends per hour (registration counts), then 429 until the hour is over.
    for (let i = 0; i < 3; i++) {
      h.advance(31_000)
      expect((await h.call('POST', '/auth/resend-verification', { body: { userId: reg.body.userId } })).status).toBe(200)
    }
    h.advance(31_000)
    const capped = await h.call('POST', '/auth/resend-verification', { body: { userId: reg.body.userId } })
    expect(capped.status).toBe(429)
    expect(Number(capped.headers.get('retry-after'))).toBeGreaterThan(60)
    h.advance(3600_000)
    expect((await h.call('POST', '/auth/resend-verification', { body: { userId: reg.body.userId } })).status).toBe(200)
    const latest = await h.lastCode(reg.body.userId)
    const ok = await h.call('POST', '/auth/verify-email', { body: { userId: reg.body.userId, verificationCode: latest } })
    expect(ok.status).toBe(200)
  })

  it('answers 400 for a verified user and validates the id', async () => {
    const { user } = await h.signUp()
    const verified = await h.call('POST', '/auth/resend-verification', { body: { userId: user.id } })
    expect(verified.status).toBe(400)
    expect(verified.body.code).toBe('already_verified')
    const bad = await h.call('POST', '/auth/resend-verification', { body: { userId: 42 } })
    expect(bad.status).toBe(400)
    expect(bad.body.code).toBe('validation_failed')
  })
})

describe('POST /auth/login', () => {
  it('signs a verified user in with a token carrying the roles', async () => {
    const { email, password, user } = await h.signUp({ name: 'Lena Login' })
    const res = await h.call('POST', '/auth/login', { body: { email: email.toUpperCase(), password } })
    expect(res.status).toBe(200)
    expect(res.body.user).toMatchObject({ id: user.id, email, name: 'Lena Login', is_admin: false })
    const claims = JSON.parse(Buffer.from(res.body.token.split('.')[1], 'base64url').toString())
    expect(claims).toMatchObject({ sub: user.id, iss: 'portal-identity', aud: 'portal', roles: [], email, ver: 0 })
    expect(claims.exp - claims.iat).toBe(15 * 60)
    // The session goes on through a refresh token the page's scripts cannot read.
    const cookie = res.headers.getSetCookie().find((c: string) => c.startsWith('portal_refresh='))!
    expect(cookie).toMatch(/^portal_refresh=[\w-]{43}; Max-Age=28800; Path=\/api\/auth; HttpOnly; Secure; SameSite=Strict$/)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const admin = await h.signUp({ admin: true })
    const adminLogin = await h.call('POST', '/auth/login', { body: { email: admin.email, password: admin.password } })
    const adminClaims = JSON.parse(Buffer.from(adminLogin.body.token.split('.')[1], 'base64url').toString())
    expect(adminClaims.roles).toEqual(['admin'])
  })

  it('answers the same 401 for a wrong password and an unknown e-mail', async () => {
    const { email } = await h.signUp()
    const wrong = await h.call('POST', '/auth/login', { body: { email, password: 'Wrong1234' } })
    const unknown = await h.call('POST', '/auth/login', { body: { email: uniqueEmail('ghost'), password: 'Wrong1234' } })
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ message: 'Invalid email or password', code: 'invalid_credentials' })
    }
  })

  it('tells an unverified user to verify, with the user id, and sends a fresh code when the old one expired', async () => {
    const email = uniqueEmail('unv')
    const reg = await register({ email })
    const res = await h.call('POST', '/auth/login', { body: { email, password: 'Passw0rd!' } })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({
      message: 'Please verify your email before logging in.',
      code: 'verification_required',
      requiresVerification: true,
      userId: reg.body.userId,
    })
    const count = async () => (await h.events('identity.verification.requested.v1')).filter((e) => e.data.userId === reg.body.userId).length
    expect(await count()).toBe(1)
    h.advance(16 * 60_000)
    expect((await h.call('POST', '/auth/login', { body: { email, password: 'Passw0rd!' } })).status).toBe(403)
    expect(await count()).toBe(2)
    const ok = await h.call('POST', '/auth/verify-email', { body: { userId: reg.body.userId, verificationCode: await h.lastCode(reg.body.userId) } })
    expect(ok.status).toBe(200)
    // A wrong password never reveals the pending verification.
    const wrong = await register({ email: uniqueEmail('unv2') })
    const [row] = await h.sql<{ email: string }>('select email from users where id = ?', [wrong.body.userId])
    const res2 = await h.call('POST', '/auth/login', { body: { email: row!.email, password: 'Nope12345' } })
    expect(res2.status).toBe(401)
    expect(res2.body.userId).toBeUndefined()
  })

  it('validates the body', async () => {
    const missing = await h.call('POST', '/auth/login', { body: { email: uniqueEmail() } })
    expect(missing.status).toBe(400)
    expect(missing.body.message).toBe('password is required')
    const empty = await h.call('POST', '/auth/login', { body: { email: uniqueEmail(), password: '' } })
    expect(empty.body.message).toBe('Password is required')
    const bad = await h.call('POST', '/auth/login', { body: { email: 'nope', password: 'x' } })
    expect(bad.body.message).toBe('Please enter a valid email address')
    expect((await h.call('POST', '/auth/login', { raw: 'not json' })).status).toBe(400)
  })

  it('locks an account for the address that failed 5 times, not for the owner elsewhere; a success resets the count', async () => {
    const { email, password } = await h.signUp()
    const address = '198.51.100.20'
    const login = (pw: string, from = address) => h.call('POST', '/auth/login', { address: from, body: { email, password: pw } })
    for (let i = 0; i < 4; i++) expect((await login('Wrong1234')).status).toBe(401)
    // A success before the limit resets the count.
    expect((await login(password)).status).toBe(200)
    for (let i = 0; i < 5; i++) expect((await login('Wrong1234')).status).toBe(401)
    const locked = await login(password)
    expect(locked.status).toBe(429)
    expect(locked.body).toEqual({ message: AUTH_MESSAGES.tooManyLogins, code: 'too_many_requests' })
    expect(Number(locked.headers.get('retry-after'))).toBe(60)
    // The stranger's failures do not lock the owner out from their own address.
    expect((await login(password, '198.51.100.21')).status).toBe(200)
    h.advance(60_000 + 1000)
    expect((await login(password)).status).toBe(200)
  })

  it('doubles the lockout of an address that keeps failing', async () => {
    const { email, password } = await h.signUp()
    const address = '198.51.100.30'
    const login = (pw: string) => h.call('POST', '/auth/login', { address, body: { email, password: pw } })
    const lockouts: number[] = []
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 5; i++) expect((await login('Wrong1234')).status).toBe(401)
      const locked = await login(password)
      expect(locked.status).toBe(429)
      const seconds = Number(locked.headers.get('retry-after'))
      lockouts.push(seconds)
      h.advance(seconds * 1000 + 1000)
    }
    expect(lockouts).toEqual([60, 120, 240, 480])
    expect((await login(password)).status).toBe(200)
  })

  it('limits failures per account across addresses well above the per-address lockout', async () => {
    const { email, password } = await h.signUp()
    for (let i = 0; i < 50; i++) expect((await h.call('POST', '/auth/login', { body: { email, password: 'Wrong1234' } })).status).toBe(401)
    const blocked = await h.call('POST', '/auth/login', { body: { email, password } })
    expect(blocked.status).toBe(429)
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60)
    h.advance(15 * 60_000 + 1000)
    expect((await h.call('POST', '/auth/login', { body: { email, password } })).status).toBe(200)
  })

  it('throttles a client address after 20 failures across accounts', async () => {
    const address = '203.0.113.7'
    for (let i = 0; i < 20; i++) {
      const res = await h.call('POST', '/auth/login', { address, body: { email: uniqueEmail('spray'), password: 'Wrong1234' } })
      expect(res.status).toBe(401)
    }
    const { email, password } = await h.signUp()
    const blocked = await h.call('POST', '/auth/login', { address, body: { email, password } })
    expect(blocked.status).toBe(429)
    expect(blocked.headers.get('retry-after')).toBeTruthy()
    expect((await h.call('POST', '/auth/login', { address: '203.0.113.8', body: { email, password } })).status).toBe(200)
    const [row] = await h.sql<{ used: number }>('select used from auth_limits where key = ?', [`login:address:${address}`])
    expect(row!.used).toBe(20)
  })
})

describe('POST /auth/forgot-password and /auth/reset-password', () => {
  const resetTokenFor = async (userId: string) => {
    const all = (await h.events('identity.password-reset.requested.v1')).filter((e) => e.data.userId === userId)
    const url = new URL(all.at(-1)!.data.resetUrl)
    return { url, token: url.searchParams.get('token')!, count: all.length }
  }

  it('answers the same for known and unknown e-mails and records a reset link for the known one', async () => {
    const { email, user } = await h.signUp()
    const eventsBefore = (await h.events()).length
    const unknown = await h.call('POST', '/auth/forgot-password', { body: { email: uniqueEmail('nobody') } })
    expect(unknown.status).toBe(200)
    expect((await h.events()).length).toBe(eventsBefore)
    const known = await h.call('POST', '/auth/forgot-password', { body: { email } })
    expect(known.status).toBe(200)
    expect(known.body).toEqual(unknown.body)
    expect(known.body).toEqual({ message: 'If an account exists for that email, a reset link has been sent.' })
    const { url, token } = await resetTokenFor(user.id)
    expect(`${url.origin}${url.pathname}`).toBe('https://portal.acme.test/reset-password')
    expect(Buffer.from(token, 'base64url')).toHaveLength(32)
    const [row] = await h.sql<{ token_hash: string }>('select token_hash from password_reset_tokens where user_id = ?', [user.id])
    expect(row!.token_hash).not.toBe(token)
  })

  it('resets the password once with the token; the token is single use', async () => {
    const { email, user, password } = await h.signUp()
    await h.call('POST', '/auth/forgot-password', { body: { email } })
    const { token } = await resetTokenFor(user.id)
    const res = await h.call('POST', '/auth/reset-password', { body: { token, password: 'NewPassw0rd' } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ message: 'Password has been reset successfully' })
    expect((await h.call('POST', '/auth/login', { body: { email, password } })).status).toBe(401)
    expect((await h.call('POST', '/auth/login', { body: { email, password: 'NewPassw0rd' } })).status).toBe(200)
    const again = await h.call('POST', '/auth/reset-password', { body: { token, password: 'Other12345' } })
    expect(again.status).toBe(400)
    expect(again.body).toEqual({ message: AUTH_MESSAGES.invalidResetToken, code: 'invalid_reset_token' })
    expect((await h.call('POST', '/auth/login', { body: { email, password: 'NewPassw0rd' } })).status).toBe(200)
  })

  it('refuses an expired token and one replaced by a newer request', async () => {
    const { email, user } = await h.signUp()
    await h.call('POST', '/auth/forgot-password', { body: { email } })
    const first = (await resetTokenFor(user.id)).token
    await h.call('POST', '/auth/forgot-password', { body: { email } })
    const second = (await resetTokenFor(user.id)).token
    const old = await h.call('POST', '/auth/reset-password', { body: { token: first, password: 'NewPassw0rd' } })
    expect(old.status).toBe(400)
    h.advance(60 * 60_000 + 1000)
    const expired = await h.call('POST', '/auth/reset-password', { body: { token: second, password: 'NewPassw0rd' } })
    expect(expired.status).toBe(400)
    expect(expired.body.message).toBe(AUTH_MESSAGES.invalidResetToken)
  })

  it('bounds reset requests per e-mail without changing the answer', async () => {
    const { email, user } = await h.signUp()
    for (let i = 0; i < 5; i++) expect((await h.call('POST', '/auth/forgot-password', { body: { email } })).status).toBe(200)
    expect((await resetTokenFor(user.id)).count).toBe(3)
  })

  it('applies the strong password rules and validates the body', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ token: 'abc', password: 'Sh0rt' }, MESSAGES.passwordMin],
      [{ token: 'abc', password: 'NOLOWER123' }, MESSAGES.passwordLower],
      [{ token: 'abc', password: 'noupper123' }, MESSAGES.passwordUpper],
      [{ token: 'abc', password: 'NoNumberHere' }, MESSAGES.passwordNumber],
      [{ token: '', password: 'Passw0rd!' }, MESSAGES.invalidResetLink],
      [{ password: 'Passw0rd!' }, 'token is required'],
    ]
    for (const [body, message] of cases) {
      const res = await h.call('POST', '/auth/reset-password', { body })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ message, code: 'validation_failed' })
    }
    const unknown = await h.call('POST', '/auth/reset-password', { body: { token: 'made-up', password: 'Passw0rd!' } })
    expect(unknown.status).toBe(400)
    expect(unknown.body.code).toBe('invalid_reset_token')
    expect((await h.call('POST', '/auth/forgot-password', { body: { email: 'nope' } })).status).toBe(400)
  })

  it('clears the sign-in limits of the account', async () => {
    const { email, user } = await h.signUp()
    const address = '198.51.100.40'
    for (let i = 0; i < 5; i++) await h.call('POST', '/auth/login', { address, body: { email, password: 'Wrong1234' } })
    expect((await h.call('POST', '/auth/login', { address, body: { email, password: 'Wrong1234' } })).status).toBe(429)
    await h.call('POST', '/auth/forgot-password', { body: { email } })
    const { token } = await resetTokenFor(user.id)
    expect((await h.call('POST', '/auth/reset-password', { body: { token, password: 'Fresh12345' } })).status).toBe(200)
    expect((await h.call('POST', '/auth/login', { address, body: { email, password: 'Fresh12345' } })).status).toBe(200)
  })
})

describe('tokens and unknown routes', () => {
  it('answers an unknown route with the 404 shape', async () => {
    const res = await h.call('GET', '/auth/nothing-here')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ message: 'No route for GET /auth/nothing-here', code: 'route_not_found' })
  })

  it('rejects missing, malformed, unsigned, foreign, wrong-audience and expired tokens with 401', async () => {
    const { user } = await h.signUp()
    const none = (claims: object) =>
      [Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url'), Buffer.from(JSON.stringify(claims)).toString('base64url'), ''].join('.')
    const foreign = await loadOrCreateSigningKey(undefined)
    const tokens = [
      undefined,
      'garbage',
      none({ sub: user.id, roles: ['admin'], iss: h.env.JWT_ISSUER, aud: h.env.JWT_AUDIENCE, exp: Math.floor(Date.now() / 1000) + 3600 }),
      await h.signRaw({ sub: user.id }, { key: foreign }),
      await h.signRaw({ sub: user.id }, { aud: 'someone-else' }),
    ]
    for (const token of tokens) {
      const res = await h.call('GET', '/users/me', { token })
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ message: 'Invalid or missing authentication token', code: 'invalid_token' })
    }
    const expired = await h.call('GET', '/users/me', { token: await h.signRaw({ sub: user.id }, { exp: Math.floor(Date.now() / 1000) - 10 }) })
    expect(expired.status).toBe(401)
    expect(expired.body).toMatchObject({ expired: true, code: 'token_expired', message: MESSAGES.sessionExpired })
  })
})

describe('nothing tells whether an e-mail has an account', () => {
  /** Resend and verify answers for an id over time: what an enumerator could compare. */
  const probe = async (userId: string) => {
    const seen: unknown[] = []
    const resend = async () => {
      const r = await h.call('POST', '/auth/resend-verification', { body: { userId } })
      seen.push([r.status, r.body, r.headers.get('retry-after')])
    }
    await resend() // too soon after the registration
    h.advance(31_000)
    await resend()
    for (let i = 0; i < 6; i++) {
      const r = await h.call('POST', '/auth/verify-email', { body: { userId, verificationCode: '000000' } })
      seen.push([r.status, r.body])
    }
    return seen
  }

  it('the id a registration of a taken e-mail returns answers resend and verify like a real pending one', async () => {
    const taken = await h.signUp()
    // Code 000000 could be the real one (one in a million): draw again until it is not.
    let real: { body: { userId: string } }
    do real = await register({ email: uniqueEmail('real') })
    while ((await h.lastCode(real.body.userId)) === '000000')
    const realAnswers = await probe(real.body.userId)
    const decoy = await register({ email: taken.email })
    expect(await probe(decoy.body.userId)).toEqual(realAnswers)
    expect(realAnswers[0]).toEqual([429, { message: AUTH_MESSAGES.tooManyCodes, code: 'too_many_requests' }, expect.any(String)])
    expect(realAnswers.at(-1)).toEqual([400, { message: AUTH_MESSAGES.codeExhausted, code: 'code_exhausted' }])
  })

  it('an id nobody registered answers like a pending registration too (no 404)', async () => {
    const id = crypto.randomUUID()
    const res = await h.call('POST', '/auth/resend-verification', { body: { userId: id } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ message: AUTH_MESSAGES.codeResent })
    expect((await h.call('POST', '/auth/resend-verification', { body: { userId: id } })).status).toBe(429)
    for (let i = 0; i < 4; i++) expect((await h.call('POST', '/auth/verify-email', { body: { userId: id, verificationCode: '123456' } })).body.code).toBe('invalid_code')
    expect((await h.call('POST', '/auth/verify-email', { body: { userId: id, verificationCode: '123456' } })).body.code).toBe('code_exhausted')
    expect(await countUsers()).toBeGreaterThan(0)
    expect(await h.sql('select 1 from users where id = ?', [id])).toEqual([])
  })

  it('forgot-password answers before the work for a known address is done (same time for every address)', async () => {
    const { email, user } = await h.signUp()
    // Hold the account's row: the reset work waits for it, the answer must not.
    let answered: number | undefined
    await h.orm.em.fork().transactional(async (em) => {
      await em.execute('select id from users where id = ? for update', [user.id])
      const started = performance.now()
      const res = await h.app.request('/auth/forgot-password', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.77' },
        body: JSON.stringify({ email }),
      })
      answered = performance.now() - started
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ message: AUTH_MESSAGES.forgot })
    })
    expect(answered).toBeLessThan(1_000)
    await h.background.settled()
    expect((await h.events('identity.password-reset.requested.v1')).filter((e) => e.data.userId === user.id)).toHaveLength(1)
  })
})
