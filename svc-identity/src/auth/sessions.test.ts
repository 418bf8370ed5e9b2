// Short access tokens, rotating refresh tokens and the auth version that retires tokens whose facts changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MESSAGES } from '@portal/contracts'
import { createHarness, refreshCookieOf, type Harness } from '../harness.test-support.ts'
import { RETIRED_TOKEN_GRACE_MS } from './refresh-tokens.ts'

let h: Harness
let admin: Awaited<ReturnType<Harness['signUp']>>
beforeAll(async () => {
  h = await createHarness()
  admin = await h.signUp({ admin: true })
})
afterAll(async () => {
  await h?.close()
})

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>
const refresh = (cookie?: string) => h.call('POST', '/auth/refresh', { headers: cookie ? { cookie } : {} })
const me = (token: string) => h.call('GET', '/users/me', { token })
const ended = { message: MESSAGES.sessionExpired, code: 'refresh_invalid', expired: true }
const stale = { message: MESSAGES.sessionExpired, code: 'token_stale', expired: true }
const clearsCookie = (res: { headers: Headers }) =>
  expect(res.headers.getSetCookie().find((c) => c.startsWith('portal_refresh='))).toMatch(/^portal_refresh=; Max-Age=0; Path=\/api\/auth;/)

describe('POST /auth/refresh', () => {
  it('gives a new access token and a new refresh token for the session, and retires the old one', async () => {
    const { refreshCookie, user } = await h.signUp()
    const res = await refresh(refreshCookie)
    expect(res.status).toBe(200)
    expect(res.body.user).toMatchObject({ id: user.id })
    expect(claimsOf(res.body.token)).toMatchObject({ sub: user.id, ver: 0 })
    expect((await me(res.body.token)).status).toBe(200)
    const next = refreshCookieOf(res)!
    expect(next).toBeDefined()
    expect(next).not.toBe(refreshCookie)
    expect((await refresh(next)).status).toBe(200)
  })

  it('treats a retired refresh token presented again as stolen: the whole session ends', async () => {
    const { refreshCookie } = await h.signUp()
    const rotated = refreshCookieOf(await refresh(refreshCookie))!
    h.advance(RETIRED_TOKEN_GRACE_MS)
    const reused = await refresh(refreshCookie)
    expect(reused.status).toBe(401)
    expect(reused.body).toEqual({ ...ended, code: 'refresh_reused' })
    clearsCookie(reused)
    // The thief's copy and the owner's successor alike.
    expect((await refresh(rotated)).body).toEqual(ended)
  })

  it('gives a token retired moments ago another successor: a reload cut off the answer to the refresh, the browser still has it', async () => {
    const { refreshCookie } = await h.signUp()
    const lost = await refresh(refreshCookie) // its answer never reached the browser
    expect(lost.status).toBe(200)
    h.advance(RETIRED_TOKEN_GRACE_MS - 1000)
    const again = await refresh(refreshCookie)
    expect(again.status).toBe(200)
    const next = refreshCookieOf(again)!
    expect(next).not.toBe(refreshCookieOf(lost))
    expect((await refresh(next)).status).toBe(200)
    // Past the grace the first token is a copy again.
    h.advance(RETIRED_TOKEN_GRACE_MS)
    expect((await refresh(refreshCookie)).body).toEqual({ ...ended, code: 'refresh_reused' })
  })

  it('refuses a missing, unknown or expired refresh token', async () => {
    expect((await refresh()).body).toEqual(ended)
    expect((await refresh('portal_refresh=made-up')).status).toBe(401)
    const { refreshCookie } = await h.signUp()
    h.advance(8 * 3600_000 + 1000)
    expect((await refresh(refreshCookie)).body).toEqual(ended)
  })

  it('ends a session 7 days after its sign-in, however often it is refreshed', async () => {
    let { refreshCookie: cookie } = await h.signUp()
    for (let hours = 0; hours + 7 < 7 * 24; hours += 7) {
      h.advance(7 * 3600_000)
      const res = await refresh(cookie)
      expect(res.status, `after ${hours + 7} h`).toBe(200)
      cookie = refreshCookieOf(res)!
    }
    h.advance(7 * 3600_000)
    expect((await refresh(cookie)).status).toBe(401)
  })
})

describe('POST /auth/logout', () => {
  it('ends the session of the refresh token and clears the cookie', async () => {
    const { refreshCookie } = await h.signUp()
    const res = await h.call('POST', '/auth/logout', { headers: { cookie: refreshCookie! } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ message: 'Logged out' })
    clearsCookie(res)
    expect((await refresh(refreshCookie)).body).toEqual(ended)
    // Without a cookie there is nothing to end, and nothing fails.
    expect((await h.call('POST', '/auth/logout')).status).toBe(200)
  })
})

describe('tokens whose facts changed', () => {
  it('a demoted manager’s token is refused at once; a refresh gives one without the role', async () => {
    const m = await h.signUp()
    const promoted = await h.call('PUT', `/users/${m.user.id}/roles`, {
      token: admin.token,
      body: { is_manager: true, manager_scope: { branches: ['Portland'], departments: [] } },
    })
    expect(promoted.status).toBe(200)
    expect((await me(m.token)).body).toEqual(stale)
    const asManager = await refresh(m.refreshCookie)
    expect(claimsOf(asManager.body.token)).toMatchObject({ roles: ['manager'], ver: 1, scope: { branches: ['Portland'] } })
    expect((await me(asManager.body.token)).status).toBe(200)

    await h.call('PUT', `/users/${m.user.id}/roles`, { token: admin.token, body: { is_manager: false } })
    expect((await me(asManager.body.token)).body).toEqual(stale)
    const updates = (await h.events('identity.user.updated.v1')).filter((e) => e.data.userId === m.user.id)
    expect(updates.map((e) => [e.data.isManager, e.data.authVersion])).toEqual([
      [true, 1],
      [false, 2],
    ])
    const demoted = await refresh(refreshCookieOf(asManager))
    expect(claimsOf(demoted.body.token)).toMatchObject({ roles: [], ver: 2 })
    // Saving the same roles again changes nothing a token carries: tokens stay valid.
    await h.call('PUT', `/users/${m.user.id}/roles`, { token: admin.token, body: { is_manager: false } })
    expect((await me(demoted.body.token)).status).toBe(200)
  })

  it('a password reset retires every access and refresh token from before it', async () => {
    const u = await h.signUp()
    const second = await h.call('POST', '/auth/login', { body: { email: u.email, password: u.password } })
    await h.call('POST', '/auth/forgot-password', { body: { email: u.email } })
    const link = (await h.events('identity.password-reset.requested.v1')).filter((e) => e.data.userId === u.user.id).at(-1)!
    const token = new URL(link.data.resetUrl).searchParams.get('token')
    expect((await h.call('POST', '/auth/reset-password', { body: { token, password: 'Brand9New' } })).status).toBe(200)
    for (const access of [u.token, second.body.token]) expect((await me(access)).body).toEqual(stale)
    for (const cookie of [u.refreshCookie, refreshCookieOf(second)]) expect((await refresh(cookie)).body).toEqual(ended)
    const update = (await h.events('identity.user.updated.v1')).filter((e) => e.data.userId === u.user.id).at(-1)!
    expect(update.data).toMatchObject({ authVersion: 1 })
    const fresh = await h.call('POST', '/auth/login', { body: { email: u.email, password: 'Brand9New' } })
    expect(claimsOf(fresh.body.token).ver).toBe(1)
    expect((await me(fresh.body.token)).status).toBe(200)
  })

  it('a deleted user’s access and refresh tokens stop working', async () => {
    const u = await h.signUp()
    expect((await h.call('DELETE', `/users/${u.user.id}`, { token: admin.token })).status).toBe(200)
    expect((await me(u.token)).body).toEqual(stale)
    expect((await refresh(u.refreshCookie)).body).toEqual(ended)
  })

  it('user events carry the auth version, employee id and hire date', async () => {
    const u = await h.signUp()
    const [registered] = (await h.events('identity.user.registered.v1')).filter((e) => e.data.userId === u.user.id)
    expect(registered!.data).toMatchObject({ authVersion: 0, employeeId: null, hireDate: null })
  })
})
