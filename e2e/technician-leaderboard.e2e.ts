import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser, Locator } from 'playwright-core'
import { MyLeaderboardResponse, RevenueTrendResponse } from '@portal/contracts'
import { apiLogIn, axeSerious, launchBrowser, signedInPage, watchErrors } from './browser.ts'

// A technician's own revenue on their profile (learner §1, issue 30 item 6): their 6-month trend
// and the company's leaderboard with their place; other people's amounts stay with their managers
// and admins, in the browser and in what the API sends.
const baseURL = inject('baseURL')
let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

const thisMonth = new Date().toISOString().slice(0, 7)
/** `Nov 2026` of `2026-11`, as the screens write months. */
const label = (month: string) => new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`))
const NOTE = 'Amounts of other technicians are shown to their managers and admins only.'
const MONEY = /^\$\d{1,3}(,\d{3})*\.\d{2}$/

/** The cells of a table's body rows, as text. */
const bodyRows = (table: Locator) => table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => (c.textContent ?? '').trim())))

const getJson = async (path: string, auth: { authorization: string }) => {
  const res = await fetch(`${baseURL}${path}`, { headers: auth })
  expect(res.status, path).toBe(200)
  const text = await res.text()
  return { text, body: JSON.parse(text) as unknown }
}

describe('a technician’s revenue trend and leaderboard', () => {
  it('Avery sees their 6 months and the top 5 by name, their own place and figures, and no one else’s amounts', async () => {
    const page = await signedInPage(browser, baseURL, 'tech.anchorage@example.com', 'Tech1234!')
    const errors = watchErrors(page)
    await page.getByRole('link', { name: 'View My Certifications' }).click()
    await page.waitForURL('**/technician/profile')

    // The trend: drawn, and month by month up to this one (the demo records all six).
    const trend = page.getByRole('region', { name: 'My Revenue Trend' })
    const months = trend.getByRole('table', { name: 'Month by Month' })
    await months.waitFor()
    const rows = await bodyRows(months)
    expect(rows).toHaveLength(6)
    expect(rows.at(-1)![0]).toBe(label(thisMonth))
    for (const r of rows) expect(r[1], r.join(' | ')).toMatch(MONEY)
    expect(await trend.getByRole('img').getAttribute('aria-label')).toMatch(/^Your gross revenue, last 6 months\. /)

    // The leaderboard of this month: ranks and names; amounts only in Avery's own row.
    const board = page.getByRole('region', { name: 'Leaderboard' })
    const table = board.getByRole('table', { name: `Leaderboard: This Month (${label(thisMonth)})` })
    await table.waitFor()
    const ranked = await bodyRows(table)
    expect(ranked.length).toBeGreaterThan(1)
    const mine = ranked.filter((r) => r[1] === 'Avery Anchorage (you)')
    expect(mine).toHaveLength(1)
    expect(mine[0]![2]).toMatch(MONEY)
    for (const r of ranked.filter((row) => row !== mine[0])) expect(r.slice(2), r.join(' | ')).toEqual(['Not shown', 'Not shown'])
    expect(ranked.slice(0, 5).map((r) => Number(r[0]))).toEqual([...ranked.slice(0, 5).map((r) => Number(r[0]))].sort((a, b) => a - b))
    expect(await table.locator('tbody tr[aria-current="true"]').textContent()).toContain('Avery Anchorage (you)')
    await board.getByText(new RegExp(`^You are number ${mine[0]![0]} of \\d+ this month \\(${label(thisMonth)}\\)`)).waitFor()
    await board.getByText(NOTE).waitFor()
    expect(await axeSerious(page)).toEqual([])

    // The quarter, when asked for.
    await board.getByRole('tab', { name: 'Quarterly' }).click()
    await board.getByRole('table', { name: /^Leaderboard: This Quarter \(/ }).waitFor()
    expect(await board.getByRole('tab', { name: 'Quarterly' }).getAttribute('aria-selected')).toBe('true')

    // On a phone the section reads without sideways scrolling of the page.
    await page.setViewportSize({ width: 390, height: 844 })
    await board.getByRole('table', { name: /^Leaderboard: This Quarter \(/ }).waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    // Every figure in view: the tables become cards that fit, nothing scrolls sideways inside them.
    for (const t of [months, board.getByRole('table')]) expect(await t.evaluate((el) => el.parentElement!.scrollWidth <= el.parentElement!.clientWidth)).toBe(true)
    expect(await axeSerious(page)).toEqual([])
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('the API sends a technician their own trend and place, no one else’s amounts or ids; a manager their scope’s amounts, an admin all', async () => {
    // One after another: sign-ins at once are told the password hashing is busy (429, decision 0042).
    const avery = await apiLogIn(baseURL, 'tech.anchorage@example.com', 'Tech1234!')
    const pat = await apiLogIn(baseURL, 'tech.portland@example.com', 'Tech1234!')
    const sam = await apiLogIn(baseURL, 'tech.seattle@example.com', 'Tech1234!')
    const morgan = await apiLogIn(baseURL, 'manager@example.com', 'Manager123!')
    const admin = await apiLogIn(baseURL, 'admin@example.com', 'Admin123!')
    const trend = RevenueTrendResponse.parse((await getJson('/api/revenue/me/trend', avery.auth)).body)
    expect(trend.to).toBe(thisMonth)
    expect(trend.months.map((m) => m.month)).toHaveLength(6)

    const { text, body } = await getJson('/api/revenue/leaderboard/me?period=monthly', avery.auth)
    const board = MyLeaderboardResponse.parse(body)
    expect(board.you).not.toBeNull()
    expect(board.rows.filter((r) => !r.is_you).every((r) => r.gross_revenue === null && r.rev_pay_ratio === null)).toBe(true)
    for (const other of [pat, sam, morgan]) expect(text).not.toContain(other.id)

    // The demo manager watches Portland: Pat's amounts, not Sam's.
    const managed = MyLeaderboardResponse.parse((await getJson('/api/revenue/leaderboard/me?period=monthly', morgan.auth)).body)
    for (const r of managed.rows) {
      if (r.name === 'Sam Seattle' || r.name === 'Avery Anchorage') expect(r.gross_revenue, r.name).toBeNull()
      if (r.name === 'Pat Portland' || r.is_you) expect(r.gross_revenue, r.name).not.toBeNull()
    }
    const all = MyLeaderboardResponse.parse((await getJson('/api/revenue/leaderboard/me?period=monthly', admin.auth)).body)
    expect(all.rows.length).toBeGreaterThan(0)
    expect(all.rows.every((r) => r.gross_revenue !== null)).toBe(true)
    expect(all.amounts_withheld).toBe(false)
  })
})
