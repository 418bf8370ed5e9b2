import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { readFile } from 'node:fs/promises'
import type { Browser, Page } from 'playwright-core'
import { apiLogIn, axeSerious, focusedControl, launchBrowser, signedInPage, watchErrors } from './browser.ts'
import { readXlsx } from './xlsx.ts'

// Team compliance and revenue (issue 11) as people use them: a manager filters, sorts and exports
// the team, opens a member, edits the ratio and asks for a promotion; an admin approves it and the
// tier changes; an admin enters revenue and sees it in Recent Entries and in the technician's trend.
const baseURL = inject('baseURL')
let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  // Journeys share the portal: the demo manager watches Portland again, as the demo says.
  if (restoreScope) expect((await restoreScope()).status).toBe(200)
  await browser?.close()
})

const signedIn = (email: string, password: string) => signedInPage(browser, baseURL, email, password, { acceptDownloads: true })
const thisMonth = new Date().toISOString().slice(0, 7)
/** `Nov 2026` of `2026-11`, as the screens write months. */
const label = (month: string) => new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`))
const monthName = label(thisMonth)

/** The Technician column's names, top to bottom. */
const technicianColumn = async (page: Page) =>
  (await page.getByRole('table', { name: 'Team members' }).locator('tbody tr td:first-child strong').allTextContents()).map((t) => t.trim())

/** The team table's row of a member. */
const memberRow = (page: Page, name: string) => page.getByRole('table', { name: 'Team members' }).getByRole('row').filter({ hasText: name })

let restoreScope: (() => Promise<Response>) | undefined
let patId = ''
let samId = ''
let promotedTo = ''

describe('team compliance and revenue journey', () => {
  it('a manager filters, sorts and exports the team, opens a member, edits the ratio and requests a promotion', async () => {
    patId = (await apiLogIn(baseURL, 'tech.portland@example.com', 'Tech1234!')).id
    samId = (await apiLogIn(baseURL, 'tech.seattle@example.com', 'Tech1234!')).id
    // The admin widens the demo manager's scope from Portland to Portland and Seattle (Users tab, 0004).
    const [admin, morgan] = await Promise.all([apiLogIn(baseURL, 'admin@example.com', 'Admin123!'), apiLogIn(baseURL, 'manager@example.com', 'Manager123!')])
    const scope = await fetch(`${baseURL}/api/users/${morgan.id}/roles`, {
      method: 'PUT',
      headers: { ...admin.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ is_manager: true, manager_scope: { branches: ['Portland', 'Seattle'], departments: [] } }),
    })
    expect(scope.status).toBe(200)
    restoreScope = () =>
      fetch(`${baseURL}/api/users/${morgan.id}/roles`, {
        method: 'PUT',
        headers: { ...admin.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ is_manager: true, manager_scope: { branches: ['Portland'], departments: [] } }),
      })
    const page = await signedIn('manager@example.com', 'Manager123!')
    const errors = watchErrors(page)

    // The dashboard's Team Management card leads managers to the team dashboard.
    await page.getByRole('link', { name: 'Open Team Dashboard' }).click()
    await page.waitForURL('**/manager/dashboard')
    await page.getByRole('heading', { level: 1, name: 'Team Dashboard' }).waitFor()
    expect(await page.title()).toBe('Team Dashboard · Learning Portal')
    const summary = page.getByRole('region', { name: 'Team summary' })
    for (const card of ['Total Team', 'Compliant', 'Avg Progress', 'Expired', 'Expiring Soon']) await summary.getByText(card, { exact: true }).waitFor()
    await memberRow(page, 'Pat Portland').waitFor()
    // The manager watches Portland and Seattle: nobody from another branch shows.
    await memberRow(page, 'Sam Seattle').waitFor()
    expect(await technicianColumn(page)).not.toContain('Avery Anchorage')

    // Sort by Technician both ways; the header says the order.
    const byName = page.getByRole('columnheader', { name: /Technician/ })
    expect(await byName.getAttribute('aria-sort')).toBe('ascending')
    const ascending = await technicianColumn(page)
    expect(ascending.length).toBeGreaterThan(1)
    expect(ascending).toEqual([...ascending].sort((a, b) => a.localeCompare(b)))
    await byName.getByRole('button').click()
    await expect.poll(() => byName.getAttribute('aria-sort')).toBe('descending')
    await expect.poll(() => technicianColumn(page)).toEqual([...ascending].reverse())
    const byProgress = page.getByRole('columnheader', { name: /Progress/ })
    await byProgress.getByRole('button').click()
    await expect.poll(() => byProgress.getAttribute('aria-sort')).toBe('ascending')
    expect(await byName.getAttribute('aria-sort')).toBe('none')

    // Filters: a search nobody matches, then Clear Filters; search and department find Pat.
    await page.getByLabel('Search', { exact: true }).fill('nobody-matches-this')
    await page.getByText('No team members match these filters.').waitFor()
    await page.getByRole('button', { name: 'Clear Filters' }).click()
    await memberRow(page, 'Pat Portland').waitFor()
    expect(await page.getByLabel('Search', { exact: true }).inputValue()).toBe('')
    await page.getByLabel('Branch').selectOption('Portland')
    await page.getByLabel('Department').selectOption('Service')
    await page.getByLabel('Search', { exact: true }).fill('Pat')
    await expect.poll(() => technicianColumn(page)).toEqual(['Pat Portland'])
    await page.getByRole('status').getByText('1 member matches the filters').waitFor()
    const row = memberRow(page, 'Pat Portland')
    await row.getByText('Portland · Service').waitFor()
    expect(await axeSerious(page)).toEqual([])

    // Export the filtered team: a real workbook with Pat and their certifications.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()])
    expect(download.suggestedFilename()).toMatch(/^team-certifications-\d{4}-\d{2}-\d{2}\.xlsx$/)
    await page
      .getByRole('status')
      .getByText(/^Exported team-certifications-/)
      .waitFor()
    const sheets = readXlsx(await readFile((await download.path())!))
    const [teamSheet, ...rest] = [...sheets.values()]
    expect(teamSheet![0]).toEqual(expect.arrayContaining(['Technician', 'Email', 'Branch', 'Department', 'Tier']))
    expect(teamSheet!.slice(1).map((r) => r[0])).toEqual(['Pat Portland'])
    expect(rest.flat().some((r) => r[0] === 'Pat Portland')).toBe(true)

    // Open Pat: Manager Controls, the profile as a manager sees it and the revenue overview.
    await row.getByRole('link', { name: 'View Pat Portland' }).click()
    await page.waitForURL(`**/manager/technician/${patId}`)
    await page.getByRole('heading', { level: 1, name: 'Team Member: Pat Portland' }).waitFor()
    const controls = page.getByRole('region', { name: 'Manager Controls' })
    await page
      .getByRole('region', { name: 'Revenue Overview' })
      .getByRole('img', { name: /^Gross revenue of Pat Portland, last 6 months/ })
      .waitFor()
    await page.getByRole('region', { name: 'Revenue', exact: true }).getByText('Rev/Pay Ratio').waitFor()
    expect(await page.getByRole('button', { name: 'Add Certification' }).count()).toBe(0)
    // The demo's pending request for Pat: no second one can be asked for.
    await controls.getByText(/^Pending: Tier 2 requested by Morgan Manager/).waitFor()
    expect(await controls.getByRole('button', { name: 'Request Tier Promotion' }).count()).toBe(0)

    // The ratio: empty is refused with the §5 message, a number is saved.
    const ratio = controls.getByRole('spinbutton', { name: 'Rev/Pay Ratio' })
    await ratio.fill('')
    await controls.getByRole('button', { name: 'Update Ratio' }).click()
    await controls.getByText('Please enter a rev/pay ratio').waitFor()
    await ratio.fill('33.25')
    await controls.getByRole('button', { name: 'Update Ratio' }).click()
    await page.getByRole('status').getByText('Rev/pay ratio updated to 33.25.').waitFor()
    await expect.poll(() => ratio.inputValue()).toBe('33.25')

    // Back to the team for Sam; a promotion: only Tier 2 or 3 above the current one (learner §4), a justification required.
    await page.getByRole('link', { name: 'Back to Team Dashboard' }).click()
    await page.waitForURL('**/manager/dashboard')
    await page.getByLabel('Search', { exact: true }).fill('Sam Seattle')
    const sam = memberRow(page, 'Sam Seattle')
    // Cells: Technician, Location, Progress, Issues, Overdue (issue 24), Tier.
    const tierBefore = (await sam.getByRole('cell').nth(5).textContent())!.trim()
    await sam.getByRole('link', { name: 'View Sam Seattle' }).click()
    await page.getByRole('heading', { level: 1, name: 'Team Member: Sam Seattle' }).waitFor()
    await controls.getByRole('button', { name: 'Request Tier Promotion' }).click()
    const dialog = page.getByRole('dialog', { name: 'Request Tier Promotion' })
    await dialog.waitFor()
    const offered = (await dialog.getByLabel('New Tier').locator('option').allTextContents()).map((t) => t.trim())
    const all = ['New Hire', 'Tier 1', 'Tier 2', 'Tier 3']
    expect(offered).toEqual(all.slice(Math.max(all.indexOf(tierBefore) + 1, all.indexOf('Tier 2'))))
    promotedTo = offered[0]!
    await dialog.getByRole('button', { name: 'Submit Request' }).click()
    await dialog.getByText('Justification is required').waitFor()
    expect(await focusedControl(page)).toMatch(/^textbox "Justification"/)
    await dialog.getByLabel('Justification').fill('Leads the Seattle electrical crew and trains the new hires.')
    expect(await axeSerious(page)).toEqual([])
    await dialog.getByRole('button', { name: 'Submit Request' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByRole('status').getByText('Tier promotion request submitted successfully').waitFor()
    await controls.getByText(new RegExp(`^Pending: ${promotedTo} requested by Morgan Manager`)).waitFor()
    expect(await controls.getByRole('button', { name: 'Request Tier Promotion' }).count()).toBe(0)
    expect(await axeSerious(page)).toEqual([])
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('an admin approves the promotion from the Certifications tab and the tier changes', async () => {
    const page = await signedIn('admin@example.com', 'Admin123!')
    const errors = watchErrors(page)
    await page.getByRole('tab', { name: 'Certifications' }).click()
    await page.getByRole('tabpanel').getByRole('link', { name: 'Open Team Dashboard' }).click()
    await page.waitForURL('**/manager/dashboard')
    const pending = page.getByRole('region', { name: 'Pending Promotion Requests' })
    // The demo's request for Pat and the manager's for Sam.
    await pending.getByRole('listitem').filter({ hasText: 'Pat Portland' }).waitFor()
    const request = pending.getByRole('listitem').filter({ hasText: 'Sam Seattle' })
    await request.getByText('Leads the Seattle electrical crew and trains the new hires.').waitFor()
    await request.getByText(/Requested by Morgan Manager/).waitFor()
    expect(await axeSerious(page)).toEqual([])

    await request.getByRole('button', { name: 'Approve promotion of Sam Seattle' }).click()
    const dialog = page.getByRole('dialog', { name: 'Approve Promotion of Sam Seattle' })
    await dialog.getByLabel('Note (optional)').fill('Well earned.')
    await dialog.getByRole('button', { name: 'Approve' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByRole('status').getByText(`Promotion approved: Sam Seattle is now ${promotedTo}.`).waitFor()
    await request.waitFor({ state: 'detached' })
    expect(await focusedControl(page)).toBe('heading "Pending Promotion Requests" [level=2]')

    // The table shows the new tier; an admin's View goes to the admin route.
    await page.getByLabel('Search', { exact: true }).fill('Sam Seattle')
    const row = memberRow(page, 'Sam Seattle')
    await expect.poll(async () => (await row.getByRole('cell').nth(5).textContent())?.trim()).toBe(promotedTo)
    expect(await row.getByRole('link', { name: 'View Sam Seattle' }).getAttribute('href')).toBe(`/admin/technician/${samId}`)
    expect(errors).toEqual([])
    await page.context().close()

    // The manager who asked sees the outcome on the member's page.
    const manager = await signedIn('manager@example.com', 'Manager123!')
    await manager.goto(`/manager/technician/${samId}`)
    await manager.getByText(`Last request: ${promotedTo} approved by Alex Admin: Well earned.`).waitFor()
    await manager.getByRole('region', { name: 'Manager Controls' }).getByText(`Current tier: ${promotedTo}`).waitFor()
    await manager.context().close()
  })

  it('an admin enters revenue and sees it in Recent Entries and in the technician’s trend', async () => {
    const page = await signedIn('admin@example.com', 'Admin123!')
    const errors = watchErrors(page)
    await page.getByRole('tab', { name: 'Certifications' }).click()
    await page.getByRole('tabpanel').getByRole('link', { name: 'Open Revenue Entry' }).click()
    await page.waitForURL('**/admin/revenue-entry')
    await page.getByRole('heading', { level: 1, name: 'Revenue Entry' }).waitFor()

    // Admins are not in the technician list; the branch filter narrows it.
    const technician = page.getByLabel('Technician', { exact: true })
    await expect.poll(async () => (await technician.locator('option').allTextContents()).length).toBeGreaterThan(2)
    const everyone = await technician.locator('option').allTextContents()
    expect(everyone.some((o) => o.includes('Alex Admin'))).toBe(false)
    expect(everyone.some((o) => o.includes('Sam Seattle'))).toBe(true)
    await page.getByLabel('Filter by Branch').selectOption('Portland')
    await expect.poll(async () => (await technician.locator('option').allTextContents()).some((o) => o.includes('Sam Seattle'))).toBe(false)
    // The e-mail and employee id beside the name tell two technicians of the same name apart.
    await technician.selectOption({ label: 'Pat Portland (tech.portland@example.com · ID E1001) · Portland' })

    // Required fields; a month before 2025 needs no pay. It is new: saved, and the message clears after 3 s.
    await page.getByRole('button', { name: 'Save Revenue' }).click()
    await page.getByText('Please fill in all required fields').waitFor()
    await page.getByText('Required for months from January 2025 on; earlier months may be saved without it.').waitFor()
    await page.getByRole('textbox', { name: 'Month' }).fill('2024-06')
    await page.getByRole('spinbutton', { name: 'Gross Revenue' }).fill('5000')
    expect(await axeSerious(page)).toEqual([])
    await page.getByRole('button', { name: 'Save Revenue' }).click()
    const saved = page.getByRole('status').getByText('Revenue data saved successfully!')
    await saved.waitFor()
    await saved.waitFor({ state: 'detached', timeout: 6_000 })
    const recent = page.getByRole('table', { name: 'Recent Entries' })
    const first = recent.getByRole('row').nth(1)
    await first.getByText('Pat Portland').waitFor()
    for (const cell of ['Jun 2024', '$5,000.00', 'Not entered', 'No pay data']) await first.getByRole('cell', { name: cell }).waitFor()

    // This month (the demo recorded it): pay is required now, the ratio shows live; the month is
    // recorded already, so saving asks first (decision 0039): cancelled, nothing changes; replaced, it says so.
    await page.getByRole('textbox', { name: 'Month' }).fill(thisMonth)
    await page.getByRole('spinbutton', { name: 'Gross Revenue' }).fill('15000')
    await page.getByRole('button', { name: 'Save Revenue' }).click()
    await page.getByText('Pay amount is required from January 2025 on').waitFor()
    await page.getByRole('spinbutton', { name: /^Pay Amount/ }).fill('400')
    await page.getByText('Rev/Pay Ratio: 37.50').waitFor()
    await page.getByRole('button', { name: 'Save Revenue' }).click()
    const replace = page.getByRole('dialog', { name: 'Replace Revenue Entry?' })
    await replace
      .getByText(
        new RegExp(
          `^Pat Portland already has revenue for ${monthName}: gross \\$[\\d,]+\\.\\d\\d, pay \\$[\\d,]+\\.\\d\\d\\. Replace it with gross \\$15,000\\.00, pay \\$400\\.00\\?$`,
        ),
      )
      .waitFor()
    expect(await axeSerious(page)).toEqual([])
    await replace.getByRole('button', { name: 'Cancel' }).click()
    await replace.waitFor({ state: 'detached' })
    expect(await recent.getByRole('row').filter({ hasText: 'Pat Portland' }).filter({ hasText: '$15,000.00' }).count()).toBe(0)
    await page.getByRole('button', { name: 'Save Revenue' }).click()
    await replace.getByRole('button', { name: 'Replace Entry' }).click()
    await replace.waitFor({ state: 'detached' })
    await page.getByRole('status').getByText('Revenue data saved successfully!').waitFor()
    await page.getByRole('status').getByText('Revenue data for this month was updated').waitFor()
    for (const cell of [monthName, '$15,000.00', '$400.00', '37.50']) await recent.getByRole('row').nth(1).getByRole('cell', { name: cell }).waitFor()
    expect(await recent.getByRole('row').filter({ hasText: 'Pat Portland' }).filter({ hasText: monthName }).count()).toBe(1)
    await page
      .getByRole('region', { name: 'Revenue Trend: Pat Portland' })
      .getByRole('img', { name: new RegExp(`${monthName}: \\$15,000\\.00, ratio 37\\.50`) })
      .waitFor()
    expect(await axeSerious(page)).toEqual([])

    // The member detail's trend shows the month too.
    await page.goto(`/manager/technician/${patId}`)
    await page
      .getByRole('region', { name: 'Revenue Overview' })
      .getByRole('img', { name: new RegExp(`${monthName}: \\$15,000\\.00, ratio 37\\.50`) })
      .waitFor()
    await page.getByText(/^Pat Portland is number \d+ on this month's leaderboard\.$/).waitFor()

    // The leaderboard by quarter and by year: fetched when chosen, Pat's standing and span with it.
    const overview = page.getByRole('region', { name: 'Revenue Overview' })
    const year = thisMonth.slice(0, 4)
    const quarterStart = Math.floor((Number(thisMonth.slice(5, 7)) - 1) / 3) * 3 + 1
    const quarterSpan = [quarterStart, quarterStart + 2].map((m) => label(`${year}-${String(m).padStart(2, '0')}`)).join(' to ')
    for (const [tab, noun, title] of [
      ['Quarterly', 'quarter', `Leaderboard: This Quarter (${quarterSpan})`],
      ['Yearly', 'year', `Leaderboard: This Year (${label(`${year}-01`)} to ${label(`${year}-12`)})`],
    ] as const) {
      await overview.getByRole('tab', { name: tab }).click()
      await overview.getByRole('tabpanel', { name: tab }).getByRole('heading', { name: title }).waitFor()
      await overview.getByText(new RegExp(`^Pat Portland is (number \\d+ on this ${noun}'s leaderboard|not in this ${noun}'s top 5)\\.$`)).waitFor()
      expect(await overview.getByRole('tab', { name: tab }).getAttribute('aria-selected')).toBe('true')
      expect(await overview.getByRole('table', { name: title }).getByRole('row').count()).toBeGreaterThan(1)
    }
    expect(await axeSerious(page)).toEqual([])
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('a technician without the manager role is sent home from the team pages and refused by the API', async () => {
    const page = await signedIn('tech.seattle@example.com', 'Tech1234!')
    await page.goto('/manager/dashboard')
    await page.waitForURL('**/user-dashboard')
    expect(await page.getByRole('link', { name: 'Open Team Dashboard' }).count()).toBe(0)
    const seattle = await apiLogIn(baseURL, 'tech.seattle@example.com', 'Tech1234!')
    expect((await fetch(`${baseURL}/api/manager/team`, { headers: seattle.auth })).status).toBe(403)
    await page.context().close()
  })
})
