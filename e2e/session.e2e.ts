// A session outlives its short access token by refreshing it (issue 9 item 4), in a portal of its
// own whose access tokens live 5 seconds (the journeys' portal keeps the default 15 minutes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser, logIn, watchErrors } from './browser.ts'
import { startPortal } from './portal.ts'

const TTL_SECONDS = 5
let browser: Browser
let portal: Awaited<ReturnType<typeof startPortal>> | undefined
let baseURL: string

beforeAll(async () => {
  // The builds exist already (the journeys' portal was started with `npm start`): run the launcher alone.
  portal = await startPortal(process.execPath, ['launcher/src/main.ts'], { ACCESS_TOKEN_TTL_SECONDS: String(TTL_SECONDS) })
  baseURL = portal.baseURL
  browser = await launchBrowser()
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await portal?.stop()
})

/** The page's access token: in memory only (decision 0019), in ui-kit's slot on the global object. */
const tokenOf = (page: Page) => page.evaluate(() => (globalThis as unknown as Record<symbol, string | null | undefined>)[Symbol.for('portal.ui-kit.access-token')] ?? null)
/** What the page keeps in localStorage: the user, never a token. */
const storedKeys = (page: Page) => page.evaluate(() => Object.keys(localStorage))
const pastTheToken = () => new Promise((r) => setTimeout(r, (TTL_SECONDS + 2) * 1000))

describe('a session with short access tokens', () => {
  it('stays signed in past the token’s lifetime by refreshing it, with the refresh token out of script reach; logout ends it', async () => {
    const context = await browser.newContext({ baseURL })
    const page = await context.newPage()
    page.setDefaultTimeout(15_000)
    const errors = watchErrors(page)
    const dialogs: string[] = []
    page.on('dialog', (d) => {
      dialogs.push(d.message())
      void d.dismiss()
    })
    const refreshes: number[] = []
    page.on('response', (r) => {
      if (r.url().endsWith('/api/auth/refresh')) refreshes.push(r.status())
    })

    await logIn(page, 'tech.portland@example.com', 'Tech1234!')
    await page.waitForURL('**/user-dashboard')
    await page.getByText('Welcome, Pat Portland').waitFor()
    const first = await tokenOf(page)
    expect(first).toBeTruthy()
    expect(await storedKeys(page)).toEqual(['user'])

    // The refresh token is an HttpOnly, SameSite=Strict cookie sent to the auth routes only.
    const [cookie] = (await context.cookies()).filter((c) => c.name === 'portal_refresh')
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' })
    expect(await page.evaluate(() => document.cookie)).not.toContain('portal_refresh')

    // Past the access token's life, a reload (the start-up check, then the dashboard's calls) still works.
    await pastTheToken()
    await page.reload()
    await page.getByText('Welcome, Pat Portland').waitFor()
    await page.getByRole('heading', { name: 'My Courses' }).waitFor()
    const second = await tokenOf(page)
    expect(second).toBeTruthy()
    expect(second).not.toBe(first)
    expect(page.url()).toContain('/user-dashboard')
    expect(await storedKeys(page)).toEqual(['user'])

    // A tab opened now is signed in as well: it gets a token of its own from the refresh cookie.
    const other = await context.newPage()
    await other.goto('/user-dashboard')
    await other.getByText('Welcome, Pat Portland').waitFor()
    expect(await tokenOf(other)).toBeTruthy()

    // And again without a reload: opening a course calls the API with an ended token.
    await pastTheToken()
    await page.getByRole('button', { name: 'View Course' }).first().click()
    await page.getByRole('button', { name: 'Close Course' }).waitFor()
    await expect.poll(() => tokenOf(page)).not.toBe(second)
    await page.getByRole('heading', { name: 'Module 1 of 2' }).or(page.getByText('Module 1 of 2')).first().waitFor()
    expect(dialogs).toEqual([])
    expect(refreshes.length).toBeGreaterThanOrEqual(2)
    expect(refreshes.every((s) => s === 200)).toBe(true)

    // Logout revokes the refresh token: it cannot bring the session back; the other tab signs out too.
    await page.getByRole('button', { name: 'Close Course' }).click()
    await page.getByRole('button', { name: 'Logout' }).click()
    await page.waitForURL('**/login')
    await other.waitForURL('**/login')
    expect(await tokenOf(other)).toBeNull()
    await expect.poll(async () => (await context.request.post('/api/auth/refresh')).status()).toBe(401)
    expect(errors).toEqual([])
    await context.close()
  })

  it('ends with the spec’s expired-session handling when the session cannot be refreshed', async () => {
    const context = await browser.newContext({ baseURL })
    const page = await context.newPage()
    page.setDefaultTimeout(15_000)
    const dialogs: string[] = []
    page.on('dialog', (d) => {
      dialogs.push(d.message())
      void d.dismiss()
    })
    await logIn(page, 'tech.seattle@example.com', 'Tech1234!')
    await page.waitForURL('**/user-dashboard')
    await page.getByText('Welcome, Sam Seattle').waitFor()
    // The session ends elsewhere (its refresh token revoked), then the access token runs out.
    await context.clearCookies()
    await pastTheToken()
    await page.getByRole('button', { name: 'View Course' }).first().click()
    await page.waitForURL('**/login')
    expect(dialogs).toEqual(['Your session has expired. Please log in again.'])
    expect(await tokenOf(page)).toBeNull()
    await context.close()
  })
})
