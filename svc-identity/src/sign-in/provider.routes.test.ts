import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { randomBytes } from 'node:crypto'
import { createSecretBox } from '@portal/server-kit'
import { silentLogger } from '@portal/server-kit/testing'
import { resealClientSecrets } from './providers.ts'
import { CLIENT_SECRET_COLUMN } from './sign-in.repository.ts'
import { CLIENT, providerBody, signInThroughProvider, startSignInWorld, type SignInWorld } from './sign-in.test-support.ts'

let w: SignInWorld
let tech: Awaited<ReturnType<SignInWorld['h']['signUp']>>
beforeAll(async () => {
  w = await startSignInWorld({ configure: false })
  tech = await w.h.signUp({ name: 'Tom Tech' })
})
afterAll(async () => {
  await w?.close()
})

const api = (method: string, path: string, body?: unknown, token = w.admin.token) => w.h.call(method, `/admin/sign-in/providers${path}`, { token, body })
const updateBody = (extra: Record<string, unknown> = {}) => {
  const { key: _key, client_secret: _secret, ...rest } = providerBody(w.provider.issuer)
  return { ...rest, ...extra }
}
const auditOf = async () =>
  (await w.h.call('GET', '/admin/audit/identity', { token: w.admin.token })).body as { action: string; target: string; details: Record<string, unknown> }[]

describe('/admin/sign-in/providers', () => {
  it('is for admins only', async () => {
    expect((await api('GET', '', undefined, tech.token)).status).toBe(403)
    expect((await api('POST', '', providerBody(w.provider.issuer), tech.token)).status).toBe(403)
    expect((await w.h.call('GET', '/admin/sign-in/providers')).status).toBe(401)
    expect((await api('DELETE', '/company', undefined, tech.token)).status).toBe(403)
  })

  it('adds a provider after checking its discovery document, and never answers its secret', async () => {
    const res = await api('POST', '', providerBody(w.provider.issuer))
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      key: 'company',
      display_name: 'Acme Login',
      issuer: w.provider.issuer,
      client_id: 'portal',
      client_secret_set: true,
      client_secret_unreadable: false,
      allowed_domains: [],
      effective_domains: ['acme.test'],
      local_passwords: true,
      admin_break_glass: true,
      redirect_uri: 'https://portal.acme.test/api/auth/oidc/company/callback',
      post_logout_redirect_uri: 'https://portal.acme.test/login?signed_out=1',
      source: 'admin',
      claims: { name: 'name', email: 'email', employee_id: 'employee_id', branch: 'branch', department: 'department', hire_date: 'hire_date', groups: 'groups' },
      roles: { admin_values: ['portal-admins'], manager_values: ['portal-managers'], manager_scope: 'own_branch_and_department' },
    })
    const list = await api('GET', '')
    expect(list.body).toHaveLength(1)
    expect(JSON.stringify([res.body, list.body])).not.toContain(CLIENT.client_secret)
    expect((await signInThroughProvider(w, 'tina')).error).toBeNull()
  })

  it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ display_name: '' }, 'display_name is required'],
      [{ display_name: undefined }, 'display_name is required'],
      [{ key: 'Not A Key!' }, 'key may hold lower-case letters, digits and hyphens (at most 40), e.g. "entra"'],
      [{ issuer: 'http://login.example.com' }, 'issuer must be an https URL (http only on localhost), without query or fragment'],
      [{ issuer: 'https://login.example.com/?tenant=1' }, 'issuer must be an https URL (http only on localhost), without query or fragment'],
      [{ client_id: '' }, 'client_id is required'],
      [{ scopes: ['email', 'profile'] }, 'scopes must include openid'],
      [{ scopes: ['openid', 'two words'] }, 'scopes holds a value that is not a scope'],
      [{ allowed_domains: ['not a domain'] }, 'allowed_domains holds a value that is not a domain (e.g. example.com)'],
      [{ claims: { email: null } }, 'claims.email is required: the portal knows people by their e-mail address'],
      [{ claims: { branch: 'office location' } }, 'claims.branch may not contain spaces'],
      [{ roles: { manager_scope: 'everyone' } }, 'roles.manager_scope must be one of own_branch, own_department, own_branch_and_department, all'],
      [{ local_passwords: 'no' }, 'local_passwords must be true or false'],
    ]
    for (const [change, message] of cases) {
      const res = await api('POST', '', providerBody(w.provider.issuer, { key: 'other', ...change }))
      expect(res.status, message).toBe(400)
      expect(res.body).toMatchObject({ code: 'validation_failed', message })
    }
    const unreachable = await api('POST', '', providerBody('http://127.0.0.1:9', { key: 'other' }))
    expect(unreachable.status).toBe(400)
    expect(unreachable.body).toMatchObject({ code: 'issuer_not_openid', details: [{ path: 'issuer' }] })
    const taken = await api('POST', '', providerBody(w.provider.issuer))
    expect(taken.status).toBe(409)
    expect(taken.body.code).toBe('provider_key_taken')
    expect((await api('GET', '')).body).toHaveLength(1)
  })

  it('changes a provider: an empty secret keeps the stored one, a new one replaces it (write-only), and each change is audited without it', async () => {
    const kept = await api('PUT', '/company', updateBody({ display_name: 'Acme SSO', client_secret: '' }))
    expect(kept.status).toBe(200)
    expect(kept.body).toMatchObject({ display_name: 'Acme SSO', client_secret_set: true })
    expect((await signInThroughProvider(w, 'tina')).error).toBeNull()

    const replaced = await api('PUT', '/company', updateBody({ display_name: 'Acme SSO', client_secret: 'a-wrong-secret' }))
    expect(replaced.body.client_secret_set).toBe(true)
    // The provider refuses the wrong secret at the token endpoint: the login page says the settings may be wrong.
    expect((await signInThroughProvider(w, 'tina')).error).toBe('provider_error')
    await api('PUT', '/company', updateBody({ display_name: 'Acme SSO', client_secret: CLIENT.client_secret }))
    expect((await signInThroughProvider(w, 'tina')).error).toBeNull()

    const entries = await auditOf()
    const updates = entries.filter((e) => e.action === 'sign_in_provider.updated')
    expect(updates.map((e) => e.details.client_secret)).toEqual(['replaced', 'replaced', 'kept'])
    expect(updates.at(-1)!.details.changed).toEqual(['display_name'])
    expect(entries.find((e) => e.action === 'sign_in_provider.created')).toMatchObject({ target: 'Acme Login', details: { client_secret: 'set', issuer: w.provider.issuer } })
    const trail = JSON.stringify(entries)
    expect(trail).not.toContain(CLIENT.client_secret)
    expect(trail).not.toContain('a-wrong-secret')
  })

  it('turns a confidential client into a public one only when told to', async () => {
    const res = await api('PUT', '/company', updateBody({ display_name: 'Acme SSO', clear_client_secret: true }))
    expect(res.body.client_secret_set).toBe(false)
    await api('PUT', '/company', updateBody({ display_name: 'Acme SSO', client_secret: CLIENT.client_secret }))
  })

  it('keeps the client secret sealed; one stored plain is sealed at start; one sealed under a lost key stops sign-in until entered again', async () => {
    const stored = async () => (await w.h.sql<{ client_secret: string }>("select client_secret from sign_in_providers where key = 'company'"))[0]!.client_secret
    expect(await stored()).toMatch(/^sealed:v1:/)
    expect(await stored()).not.toContain(CLIENT.client_secret)

    // Stored plain by an earlier version: used as it is, then sealed by the start-up pass.
    await w.h.sql("update sign_in_providers set client_secret = ? where key = 'company'", [CLIENT.client_secret])
    expect((await signInThroughProvider(w, 'tina')).error).toBeNull()
    await resealClientSecrets(w.h.orm, w.h.secrets, silentLogger)
    expect(await stored()).toMatch(/^sealed:v1:/)
    expect((await signInThroughProvider(w, 'tina')).error).toBeNull()

    // Sealed under a key this instance was not given: the console still lists it (secret set),
    // an edit that leaves the secret keeps what is stored, and sign-in is refused until it is entered again.
    const lost = createSecretBox(new Uint8Array(randomBytes(32))).seal(CLIENT.client_secret, CLIENT_SECRET_COLUMN)
    await w.h.sql("update sign_in_providers set client_secret = ? where key = 'company'", [lost])
    expect((await api('GET', '')).body).toMatchObject([{ key: 'company', client_secret_set: true, client_secret_unreadable: true }])
    expect((await api('PUT', '/company', updateBody({ display_name: 'Acme SSO' }))).body).toMatchObject({ client_secret_set: true })
    expect(await stored()).toBe(lost)
    const refused = await w.h.call('GET', '/auth/oidc/company/start')
    expect(refused.headers.get('location')).toBe('/login?sso_error=provider_unavailable&provider=company')
    await api('PUT', '/company', updateBody({ display_name: 'Acme SSO', client_secret: CLIENT.client_secret }))
    expect(await stored()).toMatch(/^sealed:v1:/)
    expect((await api('GET', '')).body).toMatchObject([{ key: 'company', client_secret_set: true, client_secret_unreadable: false }])
    expect((await signInThroughProvider(w, 'tina')).error).toBeNull()
  })

  it('answers 404 for an unknown provider and 400 for a key that is not one', async () => {
    expect((await api('PUT', '/nobody', updateBody())).status).toBe(404)
    expect((await api('DELETE', '/nobody')).body).toEqual({ message: 'Sign-in provider not found', code: 'provider_not_found' })
    expect((await api('PUT', '/Bad%20Key', updateBody())).status).toBe(400)
  })

  it('deletes a provider: the login page no longer offers it and its sign-in is refused', async () => {
    const res = await api('DELETE', '/company')
    expect(res.status).toBe(200)
    expect((await api('GET', '')).body).toEqual([])
    expect((await w.h.call('GET', '/auth/oidc/providers')).body).toEqual({ providers: [] })
    expect((await w.h.call('GET', '/auth/oidc/company/start')).headers.get('location')).toBe('/login?sso_error=unknown_provider&provider=company')
    expect((await auditOf()).at(0)).toMatchObject({ action: 'sign_in_provider.deleted', target: 'Acme SSO' })
  })
})

describe('providers configured by the environment (OIDC_PROVIDERS)', () => {
  let v: SignInWorld
  beforeAll(async () => {
    v = await startSignInWorld({ configure: false, envProviders: (issuer) => JSON.stringify([providerBody(issuer, { display_name: 'Acme by file' })]) })
  })
  afterAll(async () => {
    await v?.close()
  })

  it('are listed read-only, cannot be changed in the console, and sign people in', async () => {
    const list = await v.h.call('GET', '/admin/sign-in/providers', { token: v.admin.token })
    expect(list.body).toMatchObject([{ key: 'company', display_name: 'Acme by file', source: 'environment', client_secret_set: true }])
    expect(JSON.stringify(list.body)).not.toContain(CLIENT.client_secret)
    const put = await v.h.call('PUT', '/admin/sign-in/providers/company', { token: v.admin.token, body: updateBody() })
    expect(put.status).toBe(409)
    expect(put.body.code).toBe('provider_read_only')
    expect((await v.h.call('DELETE', '/admin/sign-in/providers/company', { token: v.admin.token })).status).toBe(409)
    expect((await v.h.call('POST', '/admin/sign-in/providers', { token: v.admin.token, body: providerBody(v.provider.issuer) })).status).toBe(409)
    const out = await signInThroughProvider(v, 'mark')
    expect(out.error).toBeNull()
  })
})
