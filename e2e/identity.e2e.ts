import { describe, expect, inject, it } from 'vitest'
import { DEMO_ADMIN_CODE } from 'launcher/demo'
import { logIn, openPage, suiteBrowser, waitForMail, watchErrors } from './browser.ts'

const baseURL = inject('baseURL')
const browser = suiteBrowser()
const newPage = () => openPage(browser(), baseURL)

describe('identity journeys', () => {
  it('refuses to register an address outside the company domain', async () => {
    const page = await newPage()
    await page.goto('/register')
    await page.getByLabel('Full Name').fill('Wrong Domain')
    await page.getByLabel('Email').fill('someone@gmail.com')
    await expect.poll(() => page.getByText('Registration is limited to employees (@example.com email addresses only)').count()).toBeGreaterThan(0)
    await page.getByLabel('Password', { exact: true }).fill('Secret123!')
    await page.getByRole('button', { name: 'Register' }).click()
    expect(page.url()).toContain('/register')
    await page.context().close()
  })

  it('registers, verifies by e-mailed code, completes the profile, logs out, logs in, resets the password', async () => {
    const page = await newPage()
    const errors = watchErrors(page)
    const email = `jordan.${Date.now()}@example.com`
    await page.goto('/register')
    await page.getByLabel('Full Name').fill('Jordan Tech')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill('FirstPass1')
    await page.getByRole('button', { name: 'Register' }).click()

    const [, code] = await waitForMail(baseURL, email, /\b(\d{6})\b/)
    await page.getByLabel('Verification Code').fill(code!)
    await page.getByRole('button', { name: 'Verify Email' }).click()
    await page.waitForURL('**/user-dashboard')
    await page.getByText('Welcome, Jordan Tech').waitFor()

    // The new user has no branch yet: the profile modal asks for it.
    const dialog = page.getByRole('dialog', { name: 'Complete Your Profile' })
    await dialog.waitFor()
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.getByText('Branch is required').waitFor()
    await dialog.getByLabel('Branch').selectOption('Anchorage')
    const departments = await dialog.getByLabel('Department').locator('option').allTextContents()
    expect(departments).not.toContain('Electricians')
    await dialog.getByLabel('Department').selectOption('Testing')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await dialog.waitFor({ state: 'hidden' })
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}'))
    expect(stored).toMatchObject({ branch: 'Anchorage', department: 'Testing' })

    // The access token was never stored (memory only, decision 0019); logout clears the stored user.
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()
    await page.getByRole('button', { name: 'Logout' }).click()
    await page.waitForURL('**/login')
    expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user')])).toEqual([null, null])

    await logIn(page, email, 'FirstPass1')
    await page.waitForURL('**/user-dashboard')
    // The profile is kept: no modal this time.
    await page.getByText('Welcome, Jordan Tech').waitFor()
    expect(await page.getByRole('dialog', { name: 'Complete Your Profile' }).isVisible()).toBe(false)
    await page.getByRole('button', { name: 'Logout' }).click()
    await page.waitForURL('**/login')

    await page.goto('/forgot-password')
    const askedAt = new Date().toISOString()
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Send Reset Link' }).click()
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor()
    const [link] = await waitForMail(baseURL, email, /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+/, askedAt)
    // The link points at the portal as it runs here (its port), not at the default 8080.
    expect(new URL(link!).origin).toBe(new URL(baseURL).origin)
    await page.goto(link!)
    await page.getByLabel('New Password').fill('weak')
    await page.getByLabel('Confirm Password').fill('weak')
    await page.getByRole('button', { name: 'Reset Password' }).click()
    await page.getByText('Password must be at least 8 characters long').waitFor()
    await page.getByLabel('New Password').fill('SecondPass2')
    await page.getByLabel('Confirm Password').fill('SecondPass2')
    await page.getByRole('button', { name: 'Reset Password' }).click()
    await page.getByRole('heading', { name: 'Password Reset Successful' }).waitFor()
    await page
      .getByRole('link', { name: 'Go to Login' })
      .or(page.getByRole('button', { name: 'Go to Login' }))
      .click()
    await page.waitForURL('**/login')

    await logIn(page, email, 'FirstPass1')
    await page.getByRole('alert').waitFor()
    expect(page.url()).toContain('/login')
    await logIn(page, email, 'SecondPass2')
    await page.waitForURL('**/user-dashboard')
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('registers an admin with the demo admin code (printed at start); a wrong code is refused', async () => {
    const page = await newPage()
    const errors = watchErrors(page)
    const email = `avery.admin.${Date.now()}@example.com`
    await page.goto('/register')
    await page.getByLabel('Full Name').fill('Avery Admin')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill('AdminPass1')
    await page.getByRole('checkbox', { name: 'Register as Admin' }).check()
    await page.getByLabel('Admin Code').fill('not-the-code')
    await page.getByRole('button', { name: 'Register' }).click()
    await page.getByText('Invalid admin code').waitFor()
    await page.getByLabel('Admin Code').fill(DEMO_ADMIN_CODE)
    await page.getByRole('button', { name: 'Register' }).click()
    const [, code] = await waitForMail(baseURL, email, /\b(\d{6})\b/)
    await page.getByLabel('Verification Code').fill(code!)
    await page.getByRole('button', { name: 'Verify Email' }).click()
    await page.waitForURL('**/admin-dashboard')
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('shows the invalid reset link screen without a token', async () => {
    const page = await newPage()
    await page.goto('/reset-password')
    await page.getByRole('heading', { name: 'Invalid Reset Link' }).waitFor()
    await page.context().close()
  })

  it('sends an admin to the admin dashboard, with the users list', async () => {
    const page = await newPage()
    await logIn(page, 'admin@example.com', 'Admin123!')
    await page.waitForURL('**/admin-dashboard')
    await page.getByRole('tab', { name: 'Users' }).click()
    await page.getByRole('cell', { name: 'tech.seattle@example.com' }).waitFor()
    await page.context().close()
  })

  it('sends a technician on an admin route to the user dashboard', async () => {
    const page = await newPage()
    await logIn(page, 'tech.portland@example.com', 'Tech1234!')
    await page.waitForURL('**/user-dashboard')
    await page.goto('/admin-dashboard')
    await page.waitForURL('**/user-dashboard')
    await page.goto('/')
    await page.waitForURL('**/user-dashboard')
    await page.context().close()
  })

  it('sends a visitor who is not signed in to the login page', async () => {
    const page = await newPage()
    await page.goto('/user-dashboard')
    await page.waitForURL('**/login')
    await page.context().close()
  })

  it('shows a fallback, not a blank page, when a remote is down', async () => {
    const page = await newPage()
    await page.route('**/remotes/mf-learner/**', (route) => route.abort())
    await logIn(page, 'tech.seattle@example.com', 'Tech1234!')
    await page.waitForURL('**/user-dashboard')
    await page.getByText('This part of the portal could not be loaded.').waitFor()
    await expect.poll(() => page.getByRole('button', { name: 'Logout' }).isVisible()).toBe(true)
    await page.context().close()
  })
})
