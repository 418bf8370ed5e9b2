// Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): a browser that
// signed in as a user before is known; its sign-ins escape the lockout unknown clients put on the
// account, and its own failures lock only it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, deviceCookieOf, type Harness } from '../harness.test-support.ts'
import { AUTH_MESSAGES } from './auth.service.ts'
import { hashToken } from './secrets.ts'

let h: Harness
beforeAll(async () => {
  // Three failures from unknown clients lock an account (the default is 50, same rule).
  h = await createHarness({ LOGIN_FAILURES_PER_ACCOUNT: '3' })
})
afterAll(async () => {
  await h?.close()
})

const login = (email: string, password: string, opts: { cookie?: string; address?: string } = {}) =>
  h.call('POST', '/auth/login', { address: opts.address, body: { email, password }, headers: opts.cookie ? { cookie: opts.cookie } : {} })
const lockedOut = { message: AUTH_MESSAGES.tooManyLogins, code: 'too_many_requests' }
/** Wrong passwords from as many unknown clients (each its own address). */
const strangersTry = async (email: string, times: number) => {
  for (let i = 0; i < times; i++) expect((await login(email, 'Wrong1234')).status).toBe(401)
}

describe('device cookies', () => {
  it('are set on sign-in and e-mail verification: HttpOnly, Secure, SameSite=Strict, sent only to the sign-in route, stored hashed', async () => {
    const u = await h.signUp()
    expect(u.deviceCookie).toBeDefined()
    const res = await login(u.email, u.password)
    const set = res.headers.getSetCookie().find((c: string) => c.startsWith('portal_device='))!
    expect(set).toMatch(/^portal_device=[\w-]{43}; Max-Age=15552000; Path=\/api\/auth\/login; HttpOnly; Secure; SameSite=Strict$/)
    const token = deviceCookieOf(res)!.slice('portal_device='.length)
    const rows = await h.sql<{ token_hash: string }>('select token_hash from known_devices where user_id = ?', [u.user.id])
    expect(rows.map((r) => r.token_hash)).toContain(hashToken(token))
    expect(rows.map((r) => r.token_hash)).not.toContain(token)
  })

  it("let a known browser sign in while unknown clients' failures have locked the account", async () => {
    const u = await h.signUp()
    await strangersTry(u.email, 3)
    // The owner from a new browser is locked out with the strangers ...
    const unknown = await login(u.email, u.password)
    expect(unknown.status).toBe(429)
    expect(unknown.body).toEqual(lockedOut)
    expect(Number(unknown.headers.get('retry-after'))).toBeGreaterThan(0)
    // ... from the browser they signed in with before, not.
    const known = await login(u.email, u.password, { cookie: u.deviceCookie })
    expect(known.status).toBe(200)
    expect(known.body.user.id).toBe(u.user.id)
  })

  it('help only the user who signed in with them', async () => {
    const owner = await h.signUp()
    const other = await h.signUp()
    await strangersTry(owner.email, 3)
    // Another user's device cookie makes this browser no better than a stranger for this account.
    expect((await login(owner.email, owner.password, { cookie: other.deviceCookie })).body).toEqual(lockedOut)
    expect((await login(owner.email, owner.password, { cookie: 'portal_device=made-up' })).body).toEqual(lockedOut)
  })

  it("count a known browser's wrong passwords on that browser alone, and lock it after five like an address", async () => {
    const u = await h.signUp()
    for (let i = 0; i < 5; i++) expect((await login(u.email, 'Wrong1234', { cookie: u.deviceCookie })).status).toBe(401)
    // Nothing counted against the account: unknown clients are not locked out by the known browser.
    const [account] = await h.sql<{ used: number }>('select used from auth_limits where key = ?', [`login:account:${u.email}`])
    expect(account?.used ?? 0).toBe(0)
    // Locked, the browser is an unknown client again: once strangers lock the account, it is locked out too.
    await strangersTry(u.email, 3)
    expect((await login(u.email, u.password, { cookie: u.deviceCookie })).body).toEqual(lockedOut)
  })

  it('are replaced at each sign-in, and forgotten by a password reset', async () => {
    const u = await h.signUp()
    const next = deviceCookieOf(await login(u.email, u.password, { cookie: u.deviceCookie }))!
    expect(next).not.toBe(u.deviceCookie)
    await strangersTry(u.email, 3)
    expect((await login(u.email, u.password, { cookie: u.deviceCookie })).body).toEqual(lockedOut) // the old one is no longer known
    const signedIn = await login(u.email, u.password, { cookie: next })
    expect(signedIn.status).toBe(200)
    await h.call('POST', '/auth/forgot-password', { body: { email: u.email } })
    const link = (await h.events('identity.password-reset.requested.v1')).filter((e) => e.data.userId === u.user.id).at(-1)!
    const token = new URL(link.data.resetUrl).searchParams.get('token')
    expect((await h.call('POST', '/auth/reset-password', { body: { token, password: 'Brand9New' } })).status).toBe(200)
    expect(await h.sql('select 1 from known_devices where user_id = ?', [u.user.id])).toEqual([])
  })
})
