import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeJwt } from 'jose'
import { passwordSignInOff } from '@portal/contracts'
import { cookieOf, refreshCookieOf } from '../harness.test-support.ts'
import { providerBody, sessionOf, signInThroughProvider, startSignInWorld, type SignInWorld } from './sign-in.test-support.ts'

let w: SignInWorld
beforeAll(async () => {
  w = await startSignInWorld()
})
afterAll(async () => {
  await w?.close()
})

const loginAt = (world: SignInWorld) => (email: string, password: string, cookie?: string) =>
  world.h.call('POST', '/auth/login', { body: { email, password }, headers: cookie ? { cookie } : {} })

describe('a company sign-in session at each refresh', () => {
  it('goes on while the provider vouches for the person (a refresh token grant), rotating the provider’s tokens', async () => {
    const out = await signInThroughProvider(w, 'dora')
    const before = (await w.h.sql<{ refresh_token: string }>('select refresh_token from oidc_sessions order by checked_at desc limit 1'))[0]!
    expect(before.refresh_token).toBeTruthy()
    const first = await sessionOf(w.h, out.refreshCookie!)
    expect(first.status).toBe(200)
    const second = await sessionOf(w.h, first.refreshCookie!)
    expect(second.status).toBe(200)
    expect(second.body.user.email).toBe('dora@acme.test')
  })

  it('ends at the next refresh once the provider disables the person, and the refresh cookie is cleared', async () => {
    const out = await signInThroughProvider(w, 'dora')
    const live = await sessionOf(w.h, out.refreshCookie!)
    expect(live.status).toBe(200)
    w.provider.accounts.get('dora')!.disabled = true
    try {
      const res = await w.h.call('POST', '/auth/refresh', { headers: { cookie: live.refreshCookie! } })
      expect(res.status).toBe(401)
      expect(res.body).toMatchObject({ code: 'provider_refused', expired: true })
      expect(res.headers.getSetCookie().some((c) => c.startsWith('portal_refresh=;'))).toBe(true)
      // The whole session is over, not only this token: its family is revoked.
      const again = await w.h.call('POST', '/auth/refresh', { headers: { cookie: live.refreshCookie! } })
      expect(again.status).toBe(401)
      expect(w.logs.some((l) => l.msg.startsWith('company sign-in session ended') && String(l.fields?.reason).includes('invalid_grant'))).toBe(true)
      // A new sign-in is refused at the provider (access_denied): the login page explains.
      const refused = await signInThroughProvider(w, 'dora')
      expect(refused).toMatchObject({ error: 'denied', location: '/login?sso_error=denied&provider=company', refreshCookie: undefined })
    } finally {
      w.provider.accounts.get('dora')!.disabled = false
    }
  })

  it('with no refresh token from the provider, asks its userinfo endpoint with the access token instead', async () => {
    const out = await signInThroughProvider(w, 'tina')
    await w.h.sql("update oidc_sessions set refresh_token = null where user_id = (select id from users where email = 'tina.tech@acme.test')")
    const ok = await sessionOf(w.h, out.refreshCookie!)
    expect(ok.status).toBe(200)
    w.provider.accounts.get('tina')!.disabled = true
    try {
      const res = await w.h.call('POST', '/auth/refresh', { headers: { cookie: ok.refreshCookie! } })
      expect(res.status).toBe(401)
      expect(res.body.code).toBe('provider_refused')
    } finally {
      w.provider.accounts.get('tina')!.disabled = false
    }
  })

  it('lives on while the provider cannot be reached, within the grace after the last check, then ends', async () => {
    const out = await signInThroughProvider(w, 'mark')
    const userId = (await w.h.sql<{ id: string }>("select id from users where email = 'mark.manager@acme.test'"))[0]!.id
    // The provider's token endpoint moves somewhere nothing answers.
    await w.h.sql('update oidc_sessions set checked_at = now() where user_id = ?', [userId])
    // The provider goes away (its metadata stays known to identity).
    await w.provider.stop()
    const kept = await sessionOf(w.h, out.refreshCookie!)
    expect(kept.status).toBe(200)
    expect(w.logs.some((l) => l.msg === 'company sign-in: provider unreachable, session kept within the grace')).toBe(true)
    w.h.advance(2 * 3600_000)
    const ended = await w.h.call('POST', '/auth/refresh', { headers: { cookie: kept.refreshCookie! } })
    expect(ended.status).toBe(401)
    expect(ended.body.code).toBe('provider_refused')
  })
})

describe('a company sign-in session at logout', () => {
  let v: SignInWorld
  beforeAll(async () => {
    v = await startSignInWorld()
  })
  afterAll(async () => {
    await v?.close()
  })

  it('ends the portal session and offers the provider’s own sign-out (its end-session endpoint, with the ID token as hint)', async () => {
    const out = await signInThroughProvider(v, 'tina')
    const session = await sessionOf(v.h, out.refreshCookie!)
    const res = await v.h.call('POST', '/auth/logout', { headers: { cookie: session.refreshCookie! } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ message: 'Logged out', provider: 'Acme Login' })
    const end = new URL(res.body.end_session_url)
    expect(`${end.origin}${end.pathname}`).toBe(`${v.provider.issuer}/session/end`)
    expect(end.searchParams.get('post_logout_redirect_uri')).toBe('https://portal.acme.test/login?signed_out=1')
    expect(decodeJwt(end.searchParams.get('id_token_hint')!).sub).toBe('tina')
    expect((await v.h.call('POST', '/auth/refresh', { headers: { cookie: session.refreshCookie! } })).status).toBe(401)
  })

  it('answers a password session’s logout as before', async () => {
    const res = await v.h.call('POST', '/auth/logout', { headers: { cookie: v.admin.refreshCookie! } })
    expect(res.body).toEqual({ message: 'Logged out' })
  })
})

describe('an existing local account with the same e-mail', () => {
  let v: SignInWorld
  let sam: Awaited<ReturnType<SignInWorld['h']['signUp']>>
  beforeAll(async () => {
    v = await startSignInWorld()
    sam = await v.h.signUp({ name: 'Sam Local', email: 'sam.local@acme.test' })
  })
  const login = (email: string, password: string, cookie?: string) => loginAt(v)(email, password, cookie)
  afterAll(async () => {
    await v?.close()
  })

  it('is not taken over: the sign-in asks for the account’s password once, creates no user and links nothing', async () => {
    const usersBefore = await v.h.sql('select count(*)::int as n from users')
    const out = await signInThroughProvider(v, 'sam')
    expect(out).toMatchObject({ status: 303, location: '/login?sso_error=link_required&provider=company', refreshCookie: undefined })
    expect(out.linkCookie).toBeTruthy()
    expect(await v.h.sql('select count(*)::int as n from users')).toEqual(usersBefore)
    expect(await v.h.sql('select * from user_identities where user_id = ?', [sam.user.id])).toEqual([])
  })

  it('is not linked by a password sign-in from another browser (no link cookie), nor by a wrong password', async () => {
    const out = await signInThroughProvider(v, 'sam')
    expect((await login('sam.local@acme.test', sam.password)).status).toBe(200)
    expect((await login('sam.local@acme.test', 'Wrong-pass1', out.linkCookie)).status).toBe(401)
    expect(await v.h.sql('select * from user_identities where user_id = ?', [sam.user.id])).toEqual([])
  })

  it('is linked by its owner’s password sign-in in the browser that tried, and then signs in through the provider as that account', async () => {
    const out = await signInThroughProvider(v, 'sam')
    const res = await login('sam.local@acme.test', sam.password, out.linkCookie)
    expect(res.status).toBe(200)
    expect(res.headers.getSetCookie().some((c) => c.startsWith('portal_link=;'))).toBe(true)
    expect(await v.h.sql('select issuer, subject, provider_key from user_identities where user_id = ?', [sam.user.id])).toEqual([
      { issuer: v.provider.issuer, subject: 'sam', provider_key: 'company' },
    ])
    const again = await signInThroughProvider(v, 'sam')
    expect(again.error).toBeNull()
    const session = await sessionOf(v.h, again.refreshCookie!)
    // The same account, its profile now mapped from the provider; the password still works.
    expect(session.body.user).toMatchObject({ id: sam.user.id, name: 'Sam Sso', branch: 'Portland', department: 'Testing' })
    expect((await login('sam.local@acme.test', sam.password)).status).toBe(200)
  })

  it('that was never verified is the provider’s person’s: the account is theirs and its password stops working', async () => {
    const reg = await v.h.call('POST', '/auth/register', { body: { name: 'Squatter', email: 'pat.partial@acme.test', password: 'Squat-pass1', isAdmin: false } })
    expect(reg.status).toBe(201)
    const out = await signInThroughProvider(v, 'pat')
    expect(out.error).toBeNull()
    const session = await sessionOf(v.h, out.refreshCookie!)
    expect(session.body.user).toMatchObject({ id: reg.body.userId, name: 'Pat Partial', email_verified: true })
    expect((await login('pat.partial@acme.test', 'Squat-pass1')).status).toBe(401)
  })
})

describe('local passwords beside the provider', () => {
  let v: SignInWorld
  let tech: Awaited<ReturnType<SignInWorld['h']['signUp']>>
  let local: Awaited<ReturnType<SignInWorld['h']['signUp']>>
  beforeAll(async () => {
    v = await startSignInWorld()
    tech = await v.h.signUp({ name: 'Pass Word' })
    local = await v.h.signUp({ name: 'Sam Local', email: 'sam.local@acme.test' })
  })
  const login = (email: string, password: string, cookie?: string) => loginAt(v)(email, password, cookie)
  afterAll(async () => {
    await v?.close()
  })
  const setPasswords = async (local_passwords: boolean, admin_break_glass: boolean) => {
    const body = { ...providerBody(v.provider.issuer), local_passwords, admin_break_glass }
    const { key: _key, client_secret: _secret, ...update } = body
    const res = await v.h.call('PUT', '/admin/sign-in/providers/company', { token: v.admin.token, body: update })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
  }

  it('stay allowed by default', async () => {
    expect((await login(tech.email, tech.password)).status).toBe(200)
  })

  it('switched off, refuse the company’s people with a message naming the provider, after the password was checked; admins keep their break-glass password', async () => {
    await setPasswords(false, true)
    const res = await login(tech.email, tech.password)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: passwordSignInOff('Acme Login'), code: 'password_sign_in_disabled' })
    // A wrong password is a wrong password (nothing said about the account).
    expect((await login(tech.email, 'Wrong-pass1')).status).toBe(401)
    expect((await login(v.admin.email, v.admin.password)).status).toBe(200)
    const reg = await v.h.call('POST', '/auth/register', { body: { name: 'New', email: 'new.person@acme.test', password: 'Passw0rd!', isAdmin: false } })
    expect(reg.status).toBe(400)
    expect(reg.body.code).toBe('password_sign_in_disabled')
  })

  it('switched off for admins too (break-glass off), refuse admins as well', async () => {
    await setPasswords(false, false)
    const res = await login(v.admin.email, v.admin.password)
    expect(res.status).toBe(403)
    await setPasswords(true, true)
    expect((await login(v.admin.email, v.admin.password)).status).toBe(200)
  })

  it('switched off, still let a password complete a link waiting in this browser', async () => {
    await setPasswords(false, true)
    const out = await signInThroughProvider(v, 'sam')
    expect(out.error).toBe('link_required')
    const res = await login(local.email, local.password, out.linkCookie)
    expect(res.status).toBe(200)
    expect(cookieOf(res, 'portal_refresh') ?? refreshCookieOf(res)).toBeTruthy()
    expect((await login(local.email, local.password)).status).toBe(403)
    await setPasswords(true, true)
  })
})
