// Company sign-in (issue 25) in Chromium, in a portal of its own (the people it makes stay out of
// the other journeys' figures) and a real OpenID provider (oidc-provider, OpenID Certified) started
// by this test on a loopback port: another site than the portal, as a company's provider is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { startTestProvider, type TestProvider } from 'svc-identity/oidc-test-provider'
import { axeSerious, launchBrowser, logIn, watchErrors } from './browser.ts'
import { startPortal } from './portal.ts'

let browser: Browser
let portal: Awaited<ReturnType<typeof startPortal>> | undefined
let provider: TestProvider | undefined
let baseURL: string

beforeAll(async () => {
  // The builds exist already (the journeys' portal was started with `npm start`): run the launcher alone.
  portal = await startPortal(process.execPath, ['launcher/src/main.ts'])
  baseURL = portal.baseURL
  provider = await startTestProvider({
    clients: [
      {
        client_id: 'learning-portal',
        client_secret: 'e2e-client-secret',
        redirect_uris: [`${baseURL}/api/auth/oidc/acme/callback`],
        post_logout_redirect_uris: [`${baseURL}/login?signed_out=1`],
      },
    ],
    accounts: {
      nina: {
        password: 'nina-at-acme',
        claims: {
          email: 'nina.new@example.com',
          email_verified: true,
          name: 'Nina New',
          employee_id: 'E7001',
          branch: 'Seattle',
          department: 'Service',
          hire_date: '2026-11-02',
          groups: ['staff'],
        },
      },
      max: {
        password: 'max-at-acme',
        claims: {
          email: 'max.manager@example.com',
          email_verified: true,
          name: 'Max Manager',
          employee_id: 'E7002',
          branch: 'Seattle',
          department: 'Service',
          groups: ['staff', 'portal-managers'],
        },
      },
      eve: { password: 'eve-at-acme', claims: { email: 'eve@elsewhere.test', email_verified: true, name: 'Eve Elsewhere' } },
    },
  })
  browser = await launchBrowser()
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await provider?.stop()
  await portal?.stop()
})

const contexts: BrowserContext[] = []
/** A browser of its own (its own cookies, at the portal and at the provider). */
async function freshPage(): Promise<Page> {
  const context = await browser.newContext({ baseURL })
  contexts.push(context)
  const page = await context.newPage()
  page.setDefaultTimeout(15_000)
  return page
}

/** From the login page, through "Sign in with Acme" and the provider's own login page. */
async function signInWithAcme(page: Page, login: string, password: string) {
  await page.goto('/login')
  await page.getByRole('link', { name: 'Sign in with Acme' }).click()
  await page.getByRole('heading', { name: 'Sign in to the Test Provider' }).waitFor()
  expect(new URL(page.url()).origin).toBe(provider!.issuer)
  await page.getByLabel('Username').fill(login)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

/** The user the shell keeps (localStorage), as identity answered it. */
const storedUser = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null') as Record<string, unknown> | null)

describe('company sign-in', () => {
  it('an admin configures the provider in the Sign-in section', async () => {
    const page = await freshPage()
    const errors = watchErrors(page)
    await logIn(page, 'admin@example.com', 'Admin123!')
    await page.waitForURL('**/admin-dashboard')
    await page.getByRole('tab', { name: 'Sign-in' }).click()
    await page.getByText('No sign-in provider is configured: people sign in with their portal passwords.').waitFor()
    await page.getByRole('button', { name: 'Add Provider' }).click()

    const dialog = page.getByRole('dialog', { name: 'Add Sign-in Provider' })
    await dialog.getByLabel('Display name').fill('Acme')
    expect(await dialog.getByLabel('Key').inputValue()).toBe('acme')
    await dialog.getByLabel('Issuer URL').fill(provider!.issuer)
    await dialog.getByLabel('Client ID').fill('learning-portal')
    await dialog.getByLabel('Client secret').fill('e2e-client-secret')
    await dialog.getByLabel('Scopes').fill('openid email profile portal offline_access')
    await dialog.getByText(`${baseURL}/api/auth/oidc/acme/callback`).waitFor()
    for (const [label, claim] of [
      ['Employee ID claim', 'employee_id'],
      ['Branch claim', 'branch'],
      ['Department claim', 'department'],
      ['Hire date claim', 'hire_date'],
      ['Group or role claim', 'groups'],
    ] as const)
      await dialog.getByLabel(label).fill(claim)
    await dialog.getByLabel('Manager group values').fill('portal-managers')
    await dialog.getByLabel('Manager scope').selectOption({ label: 'Their own branch and department' })
    // The break-glass switch warns before admins would lose their password too; it is put back.
    await dialog.getByRole('switch', { name: 'Local passwords allowed for these domains' }).click()
    await dialog.getByRole('switch', { name: 'Admin break-glass password sign-in' }).click()
    await dialog
      .getByRole('alert')
      .getByText(/admins cannot sign in with a password either/)
      .waitFor()
    await dialog.getByRole('switch', { name: 'Admin break-glass password sign-in' }).click()
    await dialog.getByRole('switch', { name: 'Local passwords allowed for these domains' }).click()
    expect(await dialog.getByRole('alert').count()).toBe(0)
    expect(await axeSerious(page)).toEqual([])
    await dialog.getByRole('button', { name: 'Add Provider' }).click()

    await page
      .getByRole('status')
      .getByText(/^Added Acme\./)
      .waitFor()
    const row = page.getByRole('table', { name: 'Sign-in providers' }).getByRole('row').filter({ hasText: 'Acme' })
    await row.getByText(provider!.issuer).waitFor()
    await row.getByText('Allowed').waitFor()
    // The secret is write-only: editing shows an empty field and says one is stored.
    await row.getByRole('button', { name: 'Edit Acme' }).click()
    const edit = page.getByRole('dialog', { name: 'Edit Acme' })
    expect(await edit.getByLabel('Client secret').inputValue()).toBe('')
    await edit.getByText('A secret is stored. Leave empty to keep it.').waitFor()
    await edit.getByRole('button', { name: 'Cancel' }).click()
    expect(errors).toEqual([])
  })

  let nina: Page
  it('a new technician signs in through the provider and lands on the dashboard with branch and department set', async () => {
    nina = await freshPage()
    const errors = watchErrors(nina)
    await nina.goto('/login')
    // The provider comes first on the login page, the password form after it (the list of providers loads after the page).
    await nina.getByText('Sign in with Acme', { exact: true }).waitFor()
    const first = await nina.locator('main a, main input, main button').first().textContent()
    expect(first).toBe('Sign in with Acme')
    expect(await axeSerious(nina)).toEqual([])
    await signInWithAcme(nina, 'nina', 'nina-at-acme')
    await nina.waitForURL('**/user-dashboard')
    await nina.getByText('Welcome, Nina New').waitFor()
    expect(await storedUser(nina)).toMatchObject({
      email: 'nina.new@example.com',
      branch: 'Seattle',
      department: 'Service',
      employee_id: 'E7001',
      hire_date: '2026-11-02',
      email_verified: true,
    })
    // The provider sent the branch and department: nothing to complete.
    await nina.getByRole('heading', { name: 'My Courses' }).waitFor()
    expect(await nina.getByRole('dialog', { name: 'Complete Your Profile' }).count()).toBe(0)
    // The session is the portal's own: the refresh cookie, out of the script's reach.
    const [cookie] = (await nina.context().cookies()).filter((c) => c.name === 'portal_refresh')
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' })
    // A reload keeps the session (the refresh asks the provider, which still vouches for Nina).
    await nina.reload()
    await nina.getByText('Welcome, Nina New').waitFor()
    expect(errors).toEqual([])
  })

  it('a provider-side manager signs in and sees the team; signing out offers the provider’s sign-out too', async () => {
    const max = await freshPage()
    const errors = watchErrors(max)
    await signInWithAcme(max, 'max', 'max-at-acme')
    await max.waitForURL('**/user-dashboard')
    expect(await storedUser(max)).toMatchObject({ is_manager: true, manager_scope: { branches: ['Seattle'], departments: ['Service'] } })
    await max.getByRole('link', { name: 'Open Team Dashboard' }).click()
    await max.getByRole('heading', { level: 1, name: 'Team Dashboard' }).waitFor()
    await max.getByRole('table', { name: 'Team members' }).getByRole('row').filter({ hasText: 'Nina New' }).waitFor()

    await max.getByRole('button', { name: 'Logout' }).click()
    await max.waitForURL('**/login')
    await max.getByText('You are signed out of the portal. You may still be signed in at Acme.').waitFor()
    await max.getByRole('link', { name: 'Sign out of Acme too' }).click()
    // The provider asks; its answer brings the browser back to the login page.
    await max.getByRole('button', { name: /Yes, sign me out/ }).click()
    await max.waitForURL('**/login?signed_out=1')
    await max.getByText('You are signed out.').waitFor()
    expect((await max.context().cookies()).filter((c) => c.name === 'portal_refresh')).toEqual([])
    expect(errors).toEqual([])
  })

  it('errors from the provider land on the login page with a clear message', async () => {
    // An address outside the company's domain.
    const eve = await freshPage()
    const errors = watchErrors(eve)
    await signInWithAcme(eve, 'eve', 'eve-at-acme')
    await eve.waitForURL('**/login?sso_error=domain_not_allowed*')
    await eve.getByRole('alert').getByText("Your address may not sign in with Acme: only the company's addresses may. Use your company account.").waitFor()
    expect(await eve.getByRole('link', { name: 'Sign in with Acme' }).count()).toBe(1)

    // Consent denied (Cancel at the provider), in a browser without a session there.
    const cancel = await freshPage()
    await cancel.goto('/login')
    await cancel.getByRole('link', { name: 'Sign in with Acme' }).click()
    await cancel.getByRole('button', { name: 'Cancel' }).click()
    await cancel.waitForURL('**/login?sso_error=denied*')
    await cancel
      .getByRole('alert')
      .getByText(/^Acme did not sign you in: the sign-in was cancelled/)
      .waitFor()

    // A tampered state: the callback does not match this browser's attempt.
    const tampered = await freshPage()
    await tampered.goto('/login')
    await tampered.getByRole('link', { name: 'Sign in with Acme' }).click()
    await tampered.getByLabel('Username').waitFor()
    await tampered.goto('/api/auth/oidc/acme/callback?code=forged&state=forged')
    await tampered.waitForURL('**/login?sso_error=state_mismatch*')
    await tampered
      .getByRole('alert')
      .getByText(/could not be matched to this browser/)
      .waitFor()
    expect(errors).toEqual([])
  })

  it('the provider disables the technician: the session ends at the next refresh', async () => {
    provider!.accounts.get('nina')!.disabled = true
    await nina.reload()
    await nina.waitForURL('**/login')
    await nina.getByRole('link', { name: 'Sign in with Acme' }).waitFor()
    expect(await storedUser(nina)).toBeNull()
    // Signing in again is refused at the provider's login, and the login page says so.
    const again = await freshPage()
    await signInWithAcme(again, 'nina', 'nina-at-acme')
    await again.waitForURL('**/login?sso_error=denied*')
    await again
      .getByRole('alert')
      .getByText(/^Acme did not sign you in/)
      .waitFor()
  })

  it('the admin deletes the provider after confirming; the login page no longer offers it', async () => {
    const page = await freshPage()
    await logIn(page, 'admin@example.com', 'Admin123!')
    await page.waitForURL('**/admin-dashboard')
    await page.getByRole('tab', { name: 'Sign-in' }).click()
    await page.getByRole('button', { name: 'Delete Acme' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete Sign-in Provider' })
    await confirm.getByText(/Are you sure you want to delete Acme\?/).waitFor()
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('status').getByText('Deleted Acme.').waitFor()
    const login = await freshPage()
    await login.goto('/login')
    await login.getByRole('button', { name: 'Log In' }).waitFor()
    expect(await login.getByRole('link', { name: 'Sign in with Acme' }).count()).toBe(0)
  })
})
