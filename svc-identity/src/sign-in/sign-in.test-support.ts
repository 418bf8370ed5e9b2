// Shared set-up of company sign-in's tests: identity's harness, a real OpenID provider on a loopback
// port with people whose claims cover every mapping, the provider configured by an admin, and a
// helper that signs a person in through the provider as a browser would.
import { expect } from 'vitest'
import { capturingLogger, cookieOf, createHarness, refreshCookieOf, type Harness } from '../harness.test-support.ts'
import { startTestProvider, type TestAccount, type TestProvider } from '../oidc-test-provider.test-support.ts'

export const PORTAL = 'https://portal.acme.test'
export const CALLBACK = `${PORTAL}/api/auth/oidc/company/callback`
export const CLIENT = { client_id: 'portal', client_secret: 'portal-secret-1' }

/** People at the provider; each covers some mappings (or breaks one). */
export const ACCOUNTS: Record<string, TestAccount> = {
  tina: {
    password: 'pw-tina',
    claims: {
      email: 'Tina.Tech@acme.test',
      email_verified: true,
      name: 'Tina Tech',
      employee_id: 'E-1001',
      branch: 'seattle',
      department: 'Service',
      hire_date: '2024-03-01',
      groups: ['field-crew'],
    },
  },
  mark: {
    password: 'pw-mark',
    claims: {
      email: 'mark.manager@acme.test',
      email_verified: true,
      name: 'Mark Manager',
      employee_id: 4002,
      branch: 'Seattle',
      department: 'Service',
      groups: ['portal-managers'],
    },
  },
  ada: { password: 'pw-ada', claims: { email: 'ada.admin@acme.test', email_verified: true, name: 'Ada Admin', groups: 'portal-admins' } },
  gil: {
    password: 'pw-gil',
    // No name (given and family names instead), a department Anchorage does not have, a hire date that is no date.
    claims: { email: 'gil@acme.test', given_name: 'Gil', family_name: 'Given', branch: 'Anchorage', department: 'Electricians', hire_date: '2024-02-30', groups: [] },
  },
  pat: { password: 'pw-pat', claims: { email: 'pat.partial@acme.test', name: 'Pat Partial', groups: ['portal-managers'] } },
  eve: { password: 'pw-eve', claims: { email: 'eve@elsewhere.test', email_verified: true, name: 'Eve Elsewhere' } },
  nomail: { password: 'pw-nomail', claims: { name: 'No Mail' } },
  unverified: { password: 'pw-unverified', claims: { email: 'unverified@acme.test', email_verified: false, name: 'Una Verified' } },
  sam: { password: 'pw-sam', claims: { email: 'sam.local@acme.test', email_verified: true, name: 'Sam Sso', branch: 'Portland', department: 'Testing' } },
  dora: { password: 'pw-dora', claims: { email: 'dora@acme.test', email_verified: true, name: 'Dora Disabled' } },
}

/** The admin console's fields for the test provider (every mapping in use). */
export const providerBody = (issuer: string, extra: Record<string, unknown> = {}) => ({
  key: 'company',
  display_name: 'Acme Login',
  issuer,
  client_id: CLIENT.client_id,
  client_secret: CLIENT.client_secret,
  scopes: ['openid', 'email', 'profile', 'portal', 'offline_access'],
  claims: { employee_id: 'employee_id', branch: 'branch', department: 'department', hire_date: 'hire_date', groups: 'groups' },
  roles: { admin_values: ['portal-admins'], manager_values: ['portal-managers'], manager_scope: 'own_branch_and_department' },
  ...extra,
})

export interface SignInWorld {
  h: Harness
  provider: TestProvider
  admin: Awaited<ReturnType<Harness['signUp']>>
  logs: ReturnType<typeof capturingLogger>['lines']
  close(): Promise<void>
}

/**
 * Identity, the provider, an admin, and the provider configured by that admin (unless `configure`
 * is false); `envProviders` gives OIDC_PROVIDERS from the provider's issuer.
 */
export async function startSignInWorld(opts: { env?: Record<string, string>; configure?: boolean; envProviders?: (issuer: string) => string } = {}): Promise<SignInWorld> {
  const provider = await startTestProvider({
    clients: [{ ...CLIENT, redirect_uris: [CALLBACK], post_logout_redirect_uris: [`${PORTAL}/login?signed_out=1`] }],
    accounts: structuredClone(ACCOUNTS),
  })
  const logger = capturingLogger()
  const env = { PUBLIC_URL: PORTAL, ...opts.env, ...(opts.envProviders ? { OIDC_PROVIDERS: opts.envProviders(provider.issuer) } : {}) }
  const h = await createHarness(env, { logger })
  const admin = await h.signUp({ name: 'Local Admin', admin: true })
  if (opts.configure !== false) {
    const res = await h.call('POST', '/admin/sign-in/providers', { token: admin.token, body: providerBody(provider.issuer) })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
  }
  return {
    h,
    provider,
    admin,
    logs: logger.lines,
    async close() {
      await h.close()
      await provider.stop()
    },
  }
}

/** What the portal's callback answered: where it sends the browser, and the cookies it set. */
export interface CallbackResult {
  status: number
  location: string
  /** The login page's error code, when it sends the browser back with one. */
  error: string | null
  refreshCookie?: string
  linkCookie?: string
}

/** The callback's answer read (status, where to, cookies). */
export function readCallback(res: { status: number; headers: Headers }): CallbackResult {
  const location = res.headers.get('location') ?? ''
  return {
    status: res.status,
    location,
    error: new URL(location, PORTAL).searchParams.get('sso_error'),
    refreshCookie: refreshCookieOf(res),
    linkCookie: cookieOf(res, 'portal_link'),
  }
}

/** Clicks "Sign in with Acme Login": the provider's address and the attempt cookie. */
export async function startSignIn(h: Harness, key = 'company') {
  const res = await h.call('GET', `/auth/oidc/${key}/start`)
  expect(res.status).toBe(303)
  return { location: res.headers.get('location')!, attemptCookie: cookieOf(res, 'portal_oidc')!, res }
}

/** Signs `login` in through the provider, as a browser: start, the provider's login page, the callback. */
export async function signInThroughProvider(w: Pick<SignInWorld, 'h' | 'provider'>, login: string | 'cancel', opts: { jar?: Map<string, string>; address?: string } = {}) {
  const start = await startSignIn(w.h)
  const back = await w.provider.browse(start.location, login === 'cancel' ? 'cancel' : { login }, opts.jar)
  expect(back.href.startsWith(CALLBACK)).toBe(true)
  const res = await w.h.call('GET', `/auth/oidc/company/callback${back.search}`, { headers: { cookie: start.attemptCookie }, address: opts.address })
  return { ...readCallback(res), callbackQuery: back.search, attemptCookie: start.attemptCookie }
}

/** The session a refresh cookie holds (POST /auth/refresh), as the login page fetches it after a company sign-in. */
export async function sessionOf(h: Harness, refreshCookie: string) {
  const res = await h.call('POST', '/auth/refresh', { headers: { cookie: refreshCookie } })
  return { status: res.status, body: res.body, refreshCookie: refreshCookieOf(res) }
}
