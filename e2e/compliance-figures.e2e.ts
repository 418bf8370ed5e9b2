import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { axeSerious, launchBrowser, signedInPage, watchErrors } from './browser.ts'

// Issue 23 as an admin sees it: the Admin Dashboard's Certifications card, the team dashboard,
// Certification Notification Management and Certification Management's figures check say the same
// numbers for the same people, each measure named for what it counts, and the branch rows add up
// to the headline (the demo's new hire has no branch: a "No branch" row).
const baseURL = inject('baseURL')
let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

/** "4 of 6 (67%)" → [4, 6, 67]. */
const parseMeasure = (text: string) => {
  const m = /^(\d+) of (\d+) \((\d+)%\)$/.exec(text.trim())
  expect(m, text).not.toBeNull()
  return m!.slice(1).map(Number) as [number, number, number]
}

/** The value of a figure in a `dl` by its label (the first `dd` after its `dt`). */
const figure = async (page: Page, scope: ReturnType<Page['getByRole']>, label: string) =>
  (
    await scope
      .locator('dt', { hasText: new RegExp(`^${label}$`) })
      .locator('xpath=following-sibling::dd[1]')
      .innerText()
  ).trim()

describe('compliance figures journey', () => {
  it('every screen counts the same technicians and names its measure', async () => {
    const page = await signedInPage(browser, baseURL, 'admin@example.com', 'Admin123!')
    const errors = watchErrors(page)

    // The Admin Dashboard's Certifications tab: both measures, each with what it counts.
    await page.getByRole('tab', { name: 'Certifications' }).click()
    const team = page
      .getByRole('tabpanel')
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Team Management' }) })
    await team.getByText('Requirements met', { exact: true }).waitFor()
    const technicians = Number(await figure(page, team, 'Technicians'))
    const [met, metOf] = parseMeasure(await figure(page, team, 'Requirements met'))
    expect(metOf).toBe(technicians)
    await team.getByText(/^Technicians who hold every certification their tier and department require/).waitFor()
    const notices = page
      .getByRole('tabpanel')
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Notification Settings' }) })
    const [noExpired, noExpiredOf, noExpiredPercent] = parseMeasure(await figure(page, notices, 'No expired certifications'))
    expect(noExpiredOf).toBe(technicians)
    expect(await axeSerious(page)).toEqual([])

    // The team dashboard (an admin's team is every technician): Compliant is "Requirements met".
    await team.getByRole('link', { name: 'Open Team Dashboard' }).click()
    await page.waitForURL('**/manager/dashboard')
    const summary = page.getByRole('region', { name: 'Team summary' })
    await summary.getByText('Total Team', { exact: true }).waitFor()
    expect(Number(await figure(page, summary, 'Total Team'))).toBe(technicians)
    expect(Number(await figure(page, summary, 'Compliant'))).toBe(met)
    await summary.getByText(/^Requirements met: Technicians who hold every certification/).waitFor()

    // Certification Notification Management: the headline is "No expired certifications", and the
    // branch rows (a "No branch" row for the new hire) add up to it.
    await page.goto(`${baseURL}/admin/certification-notifications`)
    const overview = page.getByRole('region', { name: 'Compliance Overview' })
    await overview.getByText('Organisation Compliance').waitFor()
    expect((await figure(page, overview, 'Organisation Compliance')).replace(/\s+/g, ' ')).toBe(`${noExpiredPercent}% ${noExpired} of ${technicians}`)
    expect(Number(await figure(page, overview, 'Technicians'))).toBe(technicians)
    expect(Number(await figure(page, overview, 'Requirements met'))).toBe(met)
    const table = overview.getByRole('table', { name: 'Compliance by branch' })
    await table.getByRole('rowheader', { name: 'No branch' }).waitFor()
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')))
    // Columns after the branch: Compliance, Technicians, No expired certifications, Requirements met, ...
    const sum = (i: number) => rows.reduce((n, r) => n + Number(r[i]), 0)
    expect([sum(1), sum(2), sum(3)]).toEqual([technicians, noExpired, met])

    // Certification Management's check finds every figure consistent.
    await page.goto(`${baseURL}/admin/certifications`)
    const check = page.getByRole('region', { name: 'Compliance Figures' })
    await check.getByText('All figures consistent', { exact: true }).waitFor({ timeout: 20_000 })
    await check.getByText(new RegExp(`^${technicians} technicians? checked against the team dashboard`)).waitFor()
    expect(await axeSerious(page)).toEqual([])
    expect(errors).toEqual([])
  })
})
