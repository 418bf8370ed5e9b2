import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { decodeJwt } from 'jose'
import { sessionOf, signInThroughProvider, startSignIn, startSignInWorld, type SignInWorld } from './sign-in.test-support.ts'

let w: SignInWorld
beforeAll(async () => {
  w = await startSignInWorld()
})
afterAll(async () => {
  await w?.close()
})

const userRow = async (email: string) => (await w.h.sql('select * from users where email = ?', [email]))[0]

describe('company sign-in through a real OpenID provider', () => {
  it('sends the browser to the provider with PKCE (S256), state and nonce, and binds the attempt to an HttpOnly cookie', async () => {
    const { location, res } = await startSignIn(w.h)
    const url = new URL(location)
    expect(url.origin).toBe(w.provider.issuer)
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'portal',
      response_type: 'code',
      redirect_uri: 'https://portal.acme.test/api/auth/oidc/company/callback',
      scope: 'openid email profile portal offline_access',
      code_challenge_method: 'S256',
    })
    for (const p of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(p)).toMatch(/^[\w-]{30,}$/)
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('portal_oidc='))!
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Lax/)
    expect(cookie).toMatch(/Path=\/api\/auth\/oidc/)
    expect(cookie).toMatch(/Secure/)
    // What the callback checks stays on the server: the cookie is a random handle.
    expect(cookie).not.toContain(url.searchParams.get('state')!)
  })

  it('creates a new technician just in time, verified and with the mapped profile, and gives the session a password sign-in gives', async () => {
    const out = await signInThroughProvider(w, 'tina')
    expect(out).toMatchObject({ status: 303, location: '/login?sso=done', error: null })
    const refreshSet = out.refreshCookie!
    expect(refreshSet).toBeTruthy()
    const session = await sessionOf(w.h, refreshSet)
    expect(session.status).toBe(200)
    expect(session.body.user).toMatchObject({
      name: 'Tina Tech',
      email: 'tina.tech@acme.test',
      email_verified: true,
      employee_id: 'E-1001',
      branch: 'Seattle',
      department: 'Service',
      hire_date: '2024-03-01',
      is_admin: false,
      is_manager: false,
    })
    // The access token is the portal's own, for 15 minutes, with the user's auth version.
    const claims = decodeJwt(session.body.token)
    expect(claims).toMatchObject({ iss: 'portal-identity', aud: 'portal', sub: session.body.user.id, ver: 0 })
    expect(claims.exp! - claims.iat!).toBe(15 * 60)
    // The refresh cookie rotates like any other session's.
    expect(session.refreshCookie).toBeTruthy()
    expect(session.refreshCookie).not.toBe(refreshSet)
    const me = await w.h.call('GET', '/users/me', { token: session.body.token })
    expect(me.body.user.branch).toBe('Seattle')
    // Announced as a registration, so the other services' projections learn of the person.
    const registered = (await w.h.events('identity.user.registered.v1')).filter((e) => e.data.email === 'tina.tech@acme.test')
    expect(registered).toHaveLength(1)
    expect(registered[0]!.data).toMatchObject({ branch: 'Seattle', department: 'Service', employeeId: 'E-1001', hireDate: '2024-03-01' })
    // No portal password: a password sign-in fails like a wrong password.
    expect((await userRow('tina.tech@acme.test'))!.password_hash).toBe('')
    const pw = await w.h.call('POST', '/auth/login', { body: { email: 'tina.tech@acme.test', password: '' + 'anything' } })
    expect(pw.status).toBe(401)
  })

  it('signs the same person in again as the same user, updating what the provider changed', async () => {
    const before = await userRow('tina.tech@acme.test')
    w.provider.accounts.get('tina')!.claims.department = 'Testing'
    w.provider.accounts.get('tina')!.claims.name = 'Tina T. Tech'
    const out = await signInThroughProvider(w, 'tina')
    const session = await sessionOf(w.h, out.refreshCookie!)
    expect(session.body.user).toMatchObject({ id: before!.id, name: 'Tina T. Tech', department: 'Testing', branch: 'Seattle' })
    expect(await w.h.sql('select count(*)::int as n from users where email = ?', ['tina.tech@acme.test'])).toEqual([{ n: 1 }])
    const updated = (await w.h.events('identity.user.updated.v1')).filter((e) => e.data.userId === before!.id)
    expect(updated.at(-1)!.data).toMatchObject({ department: 'Testing', name: 'Tina T. Tech' })
  })

  it('makes a provider-side manager a manager of their own branch and department', async () => {
    const out = await signInThroughProvider(w, 'mark')
    const session = await sessionOf(w.h, out.refreshCookie!)
    expect(session.body.user).toMatchObject({
      name: 'Mark Manager',
      employee_id: '4002',
      is_manager: true,
      is_admin: false,
      manager_scope: { branches: ['Seattle'], departments: ['Service'] },
    })
    expect(decodeJwt(session.body.token)).toMatchObject({ roles: ['manager'], scope: { branches: ['Seattle'], departments: ['Service'] } })
  })

  it('makes a provider-side admin an admin (a group claim given as one string)', async () => {
    const out = await signInThroughProvider(w, 'ada')
    const session = await sessionOf(w.h, out.refreshCookie!)
    expect(session.body.user).toMatchObject({ is_admin: true, is_manager: false, branch: null, department: null })
  })

  it('takes the name from given and family names, and leaves a department the branch lacks and a date that is none for the person to fill in', async () => {
    const out = await signInThroughProvider(w, 'gil')
    const session = await sessionOf(w.h, out.refreshCookie!)
    expect(session.body.user).toMatchObject({ name: 'Gil Given', branch: 'Anchorage', department: null, hire_date: null })
    expect(w.logs.some((l) => l.msg === 'company sign-in: claims not usable' && JSON.stringify(l.fields?.fields) === JSON.stringify(['department', 'hire_date']))).toBe(true)
  })

  it('does not make a manager whose scope would need a branch the provider did not send (an empty scope would mean everything)', async () => {
    const out = await signInThroughProvider(w, 'pat')
    const session = await sessionOf(w.h, out.refreshCookie!)
    expect(session.body.user).toMatchObject({ is_manager: false, manager_scope: { branches: [], departments: [] } })
  })

  it('takes the manager role away when the provider does, and older tokens stop working', async () => {
    const first = await sessionOf(w.h, (await signInThroughProvider(w, 'mark')).refreshCookie!)
    w.provider.accounts.get('mark')!.claims.groups = []
    const again = await sessionOf(w.h, (await signInThroughProvider(w, 'mark')).refreshCookie!)
    expect(again.body.user).toMatchObject({ is_manager: false, manager_scope: { branches: [], departments: [] } })
    const stale = await w.h.call('GET', '/users/me', { token: first.body.token })
    expect(stale.status).toBe(401)
    expect(stale.body.code).toBe('token_stale')
    w.provider.accounts.get('mark')!.claims.groups = ['portal-managers']
  })

  it('lists the providers on a public endpoint: display name and start URL, nothing else', async () => {
    const res = await w.h.call('GET', '/auth/oidc/providers')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ providers: [{ key: 'company', display_name: 'Acme Login', start_url: '/api/auth/oidc/company/start' }] })
  })
})

describe('a provider that rotates its signing key', () => {
  it('is followed: an ID token signed by a key published since the last fetch of its JWKS fetches it again', async () => {
    await signInThroughProvider(w, 'tina') // the provider's keys are known now
    const kid = await w.provider.rotateKey()
    expect(kid).toBe('key-2')
    // openid-client fetches a JWKS again for an unknown key id once the one it holds is a minute old.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 })
    try {
      const out = await signInThroughProvider(w, 'tina')
      expect(out.error).toBeNull()
      expect((await sessionOf(w.h, out.refreshCookie!)).body.user.email).toBe('tina.tech@acme.test')
    } finally {
      vi.useRealTimers()
    }
  })
})
