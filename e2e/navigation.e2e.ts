import type { Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { axeSerious, createPracticeExam, logIn, openPage, overflowing, PHONE, suiteBrowser, waitForMail, watchErrors } from './browser.ts'

// Issue 15 items 4, 5 and 7: announced pages, a navigation shell, phones.
const baseURL = inject('baseURL')
const browser = suiteBrowser()

/** The document title and what has focus (tag and text), as a screen reader announces a page. */
const announced = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement
    return { title: document.title, focus: !el || el === document.body ? '<body>' : `${el.tagName.toLowerCase()} ${el.textContent?.trim()}` }
  })

const expectAnnounced = async (page: Page, title: string | RegExp, focus: string | RegExp) => {
  if (typeof title === 'string') await expect.poll(() => announced(page).then((a) => a.title)).toBe(`${title} · Learning Portal`)
  else await expect.poll(() => announced(page).then((a) => a.title)).toMatch(title)
  await expect.poll(() => announced(page).then((a) => a.focus)).toMatch(typeof focus === 'string' ? new RegExp(`^${focus.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : focus)
}

const noSerious = async (page: Page, where: string) => expect(await axeSerious(page), where).toEqual([])

describe('announced pages and the navigation shell', () => {
  it('titles every route and puts focus on its heading after each navigation, through the header navigation', async () => {
    const examName = `Announced ${Date.now()}`
    await createPracticeExam(baseURL, examName)
    const page = await openPage(browser(), baseURL)
    const errors = watchErrors(page)
    await page.goto('/login')
    expect((await announced(page)).title).toBe('Log In · Learning Portal')
    await page.getByRole('link', { name: 'Create an account' }).click()
    await expectAnnounced(page, 'Register', 'h1 Register for the Exam Platform')
    await page.getByRole('link', { name: 'Log in', exact: true }).click()
    await expectAnnounced(page, 'Log In', 'h1 Log In')

    // After login: the dashboard, led by what is due (issue 24), then what to do next, the figures after it.
    await logIn(page, 'tech.seattle@example.com', 'Tech1234!')
    await page.waitForURL('**/user-dashboard')
    await expectAnnounced(page, 'Dashboard', /^h1 Welcome, /)
    await page.getByRole('heading', { level: 2, name: 'Due and overdue' }).waitFor()
    const headings = await page.getByRole('heading', { level: 2 }).allTextContents()
    expect(headings[0]).toBe('Due and overdue')
    expect(headings.indexOf('Available Exams')).toBeLessThan(headings.indexOf('Exam Statistics'))
    expect(headings.indexOf('My Courses')).toBeLessThan(headings.indexOf('Exam Statistics'))
    if (headings.includes('Continue where you left off')) expect(headings[1]).toBe('Continue where you left off')
    await noSerious(page, 'dashboard')

    // The header offers the learner's sections (no Team, no Admin) and marks the current one.
    const nav = page.getByRole('navigation', { name: 'Main' })
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Dashboard', 'Courses', 'Exams', 'Certifications'])
    expect(await nav.getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page')
    expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false)

    await nav.getByRole('link', { name: 'Certifications' }).click()
    await page.waitForURL('**/technician/profile')
    // The page names itself more precisely than its route ("My Technician Profile").
    await expectAnnounced(page, /Technician Profile · Learning Portal$/, /^h1 /)
    expect(await nav.getByRole('link', { name: 'Certifications' }).getAttribute('aria-current')).toBe('page')
    await noSerious(page, 'technician profile')

    // A section of the dashboard: focus lands on its heading.
    await nav.getByRole('link', { name: 'Courses' }).click()
    await expectAnnounced(page, 'Dashboard', 'h2 My Courses')
    await nav.getByRole('link', { name: 'Exams' }).click()
    await expectAnnounced(page, 'Dashboard', 'h2 Available Exams')

    // The exam intro, then Start Exam: each view named after the exam, focus never dropped.
    await page.getByRole('listitem').filter({ hasText: examName }).getByRole('button', { name: 'Start Exam' }).click()
    await page.waitForURL(/\/exam\/\d+$/)
    await expectAnnounced(page, examName, `h1 ${examName}`)
    await noSerious(page, 'exam intro')
    await page.getByRole('button', { name: 'Start Exam' }).click()
    await expect.poll(() => announced(page).then((a) => a.title)).toBe(`${examName} (in progress) · Learning Portal`)
    expect((await announced(page)).focus).not.toBe('<body>')
    await page.getByRole('radio', { name: 'Yes' }).check()
    await page.getByRole('button', { name: 'Review and Submit' }).first().click()
    await page.getByRole('region', { name: 'Review Your Answers' }).getByRole('button', { name: 'Submit Exam' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Submit Exam' }).click()
    await page.waitForURL('**/exam-results')
    await expectAnnounced(page, 'Exam Results', /^h1 /)
    await page.getByRole('button', { name: 'Return to Dashboard' }).click()
    await page.waitForURL('**/user-dashboard')
    await expectAnnounced(page, 'Dashboard', /^h1 Welcome, /)

    // An address with no page.
    await page.goto('/no-such-page')
    expect((await announced(page)).title).toBe('Page Not Found · Learning Portal')
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('offers managers their team and admins the admin dashboard, and going back to it lands on the heading', async () => {
    const page = await openPage(browser(), baseURL)
    await logIn(page, 'manager@example.com', 'Manager123!')
    await page.waitForURL('**/user-dashboard')
    const nav = page.getByRole('navigation', { name: 'Main' })
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Dashboard', 'Courses', 'Exams', 'Certifications', 'Team'])
    await page.context().close()

    const admin = await openPage(browser(), baseURL)
    await logIn(admin, 'admin@example.com', 'Admin123!')
    await admin.waitForURL('**/admin-dashboard')
    await expectAnnounced(admin, 'Admin Dashboard', 'h1 Admin Dashboard')
    const adminNav = admin.getByRole('navigation', { name: 'Main' })
    expect(await adminNav.getByRole('link').allTextContents()).toEqual(['Dashboard', 'Courses', 'Exams', 'Certifications', 'Team', 'Admin'])
    // The admin's learner dashboard asks for the branch first: the profile dialog keeps the focus it took.
    await adminNav.getByRole('link', { name: 'Dashboard' }).click()
    const profileDialog = admin.getByRole('dialog', { name: 'Complete Your Profile' })
    await profileDialog.waitFor()
    await expectAnnounced(admin, 'Dashboard', /^select Select a branch/)
    await profileDialog.getByRole('button').first().focus()
    await admin.keyboard.press('Escape')
    await profileDialog.waitFor({ state: 'hidden' })
    await adminNav.getByRole('link', { name: 'Team' }).click()
    await expectAnnounced(admin, 'Team Dashboard', 'h1 Team Dashboard')
    await adminNav.getByRole('link', { name: 'Admin' }).click()
    await expectAnnounced(admin, 'Admin Dashboard', 'h1 Admin Dashboard')
    await adminNav.getByRole('link', { name: 'Certifications' }).click()
    await expectAnnounced(admin, /Technician Profile · Learning Portal$/, /^h1 /)
    await adminNav.getByRole('link', { name: 'Admin' }).click()
    await expectAnnounced(admin, 'Admin Dashboard', 'h1 Admin Dashboard')
    await noSerious(admin, 'admin dashboard')
    await admin.context().close()
  })

  it('shows "—" for statistics with no data yet, not 0%', async () => {
    const email = `fresh.${Date.now()}@example.com`
    const res = await fetch(`${baseURL}/api/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Fresh Start', email, password: 'Fresh1234!' }),
    })
    const { userId } = (await res.json()) as { userId: string }
    const [, code] = await waitForMail(baseURL, email, /\b(\d{6})\b/)
    await fetch(`${baseURL}/api/auth/verify-email`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ userId, verificationCode: code }) })
    const page = await openPage(browser(), baseURL)
    await logIn(page, email, 'Fresh1234!')
    await page.waitForURL('**/user-dashboard')
    const stats = page.getByRole('region', { name: 'Exam Statistics' })
    await stats.getByText('Exams Taken').waitFor()
    for (const label of ['Average Score', 'Highest Score', 'Lowest Score']) {
      const figure = stats
        .locator('div')
        .filter({ has: page.getByText(label, { exact: true }) })
        .locator('dd')
      expect(await figure.textContent()).toBe('—No data yet')
    }
    expect(await page.getByRole('region', { name: 'Exam Statistics' }).textContent()).not.toContain('0%')
    expect(await page.getByRole('region', { name: 'Course Statistics' }).textContent()).not.toContain('0%')
    await page.context().close()
  })
})

describe('loading', () => {
  it('fetches the dashboard while the session check is still under way', async () => {
    const page = await openPage(browser(), baseURL)
    await logIn(page, 'tech.seattle@example.com', 'Tech1234!')
    await page.waitForURL('**/user-dashboard')
    await page.getByRole('heading', { name: 'Available Exams' }).waitFor()
    // A slow session check (300 ms more on the wire): the dashboard's remote is on its way before it
    // answers. The check at start is the refresh that brings the page its token (decision 0019).
    const events: string[] = []
    await page.route('**/api/auth/refresh', async (route) => {
      await new Promise((r) => setTimeout(r, 300))
      await route.continue()
    })
    page.on('request', (req) => {
      if (req.url().includes('/remotes/mf-learner/')) events.push('remote requested')
    })
    page.on('requestfinished', (req) => {
      if (req.url().endsWith('/api/auth/refresh')) events.push('session checked')
    })
    await page.reload()
    await page.getByRole('heading', { name: 'Available Exams' }).waitFor()
    expect(events.indexOf('remote requested')).toBeGreaterThanOrEqual(0)
    expect(events.indexOf('remote requested')).toBeLessThan(events.indexOf('session checked'))
    await page.context().close()
  })
})

describe('on a 390 px phone', () => {
  it('opens the navigation from a Menu button, and nothing is wider than the screen', async () => {
    const page = await openPage(browser(), baseURL, PHONE)
    await logIn(page, 'tech.seattle@example.com', 'Tech1234!')
    await page.waitForURL('**/user-dashboard')
    await page.getByRole('heading', { name: 'Available Exams' }).waitFor()
    const menu = page.getByRole('button', { name: 'Menu' })
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false')
    const nav = page.getByRole('navigation', { name: 'Main' })
    expect(await nav.isVisible()).toBe(false)
    expect(await overflowing(page)).toEqual({ scrollWidth: 390, width: 390, wide: [] })

    await menu.click()
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('true')
    const links = nav.getByRole('link')
    expect(await links.count()).toBe(4)
    for (const link of await links.all()) {
      const box = (await link.boundingBox())!
      expect(box.x).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width).toBeLessThanOrEqual(390)
      expect(box.height).toBeGreaterThanOrEqual(24)
    }
    expect(await page.getByRole('button', { name: 'Logout' }).isVisible()).toBe(true)
    await noSerious(page, 'phone menu open')
    // Escape closes it and gives focus back to Menu.
    await links.first().focus()
    await page.keyboard.press('Escape')
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false')
    expect(await menu.evaluate((el) => el === document.activeElement)).toBe(true)

    // A navigation closes the menu and lands on the section.
    await menu.click()
    await nav.getByRole('link', { name: 'Courses' }).click()
    await expect.poll(() => menu.getAttribute('aria-expanded')).toBe('false')
    await expectAnnounced(page, 'Dashboard', 'h2 My Courses')
    await page.context().close()
  })

  it("keeps admin tables' actions in view, the tabs in one scrolling row, and the page as wide as the screen while a group is edited", async () => {
    const page = await openPage(browser(), baseURL, PHONE)
    await logIn(page, 'admin@example.com', 'Admin123!')
    await page.waitForURL('**/admin-dashboard')
    const tablist = page.getByRole('tablist', { name: 'Admin sections' })
    const tabs = tablist.getByRole('tab')
    await tabs.first().waitFor()
    // One row: every tab at the same height, the list scrolls sideways instead.
    const tops = new Set((await Promise.all((await tabs.all()).map((t) => t.boundingBox()))).map((b) => Math.round(b!.y)))
    expect(tops.size).toBe(1)
    expect(await tablist.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
    expect(await overflowing(page)).toEqual({ scrollWidth: 390, width: 390, wide: [] })

    const actionsInView = async (table: string) => {
      const rows = page.getByRole('table', { name: table }).getByRole('row')
      await rows.nth(1).waitFor()
      // The row's actions: its last cell, in view without scrolling the table sideways.
      for (const button of await rows.nth(1).getByRole('cell').last().getByRole('button').all()) {
        const box = (await button.boundingBox())!
        expect(box.x, `${await button.textContent()} in ${table}`).toBeGreaterThanOrEqual(0)
        expect(box.x + box.width, `${await button.textContent()} in ${table}`).toBeLessThanOrEqual(390)
      }
    }
    await page.getByRole('table', { name: 'Exams' }).or(page.getByText('No exams')).first().waitFor()
    if (await page.getByRole('table', { name: 'Exams' }).isVisible()) await actionsInView('Exams')

    // The tab list scrolls the chosen tab into view.
    await tabs.filter({ hasText: 'Users' }).click()
    await actionsInView('Users')
    await noSerious(page, 'users tab on a phone')
    const users = page.getByRole('table', { name: 'Users' })
    await users
      .getByRole('button', { name: /^Edit user group of / })
      .first()
      .click()
    await users.getByRole('combobox').first().waitFor()
    expect(await overflowing(page)).toEqual({ scrollWidth: 390, width: 390, wide: [] })
    await noSerious(page, 'editing a group on a phone')
    await page.context().close()
  })

  it('shows the lesson before the module list in the course viewer', async () => {
    const page = await openPage(browser(), baseURL, PHONE)
    await logIn(page, 'tech.seattle@example.com', 'Tech1234!')
    await page.waitForURL('**/user-dashboard')
    await page.getByRole('region', { name: 'My Courses' }).getByRole('button', { name: 'View Course' }).first().click()
    const modules = page.getByRole('navigation', { name: 'Course modules' })
    await modules.waitFor()
    const lesson = page.locator('.pk-split__main')
    await lesson.waitFor()
    expect((await lesson.boundingBox())!.y).toBeLessThan((await modules.boundingBox())!.y)
    await expect.poll(() => announced(page).then((a) => a.title)).toMatch(/ · Learning Portal$/)
    expect((await announced(page)).title).not.toBe('Dashboard · Learning Portal')
    expect(await overflowing(page).then((o) => o.scrollWidth)).toBe(390)
    await noSerious(page, 'course viewer on a phone')
    await page.getByRole('button', { name: 'Close Course' }).click()
    await expect.poll(() => announced(page).then((a) => a.title)).toBe('Dashboard · Learning Portal')
    await page.context().close()
  })
})
