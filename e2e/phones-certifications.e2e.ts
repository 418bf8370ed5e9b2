import type { Locator, Page } from 'playwright-core'
import { describe, expect, inject, it } from 'vitest'
import { axeSerious, logIn, openPage, overflowing, PHONE, suiteBrowser } from './browser.ts'

// Issue 30 items 1 and 8: the certification screens read well on a 390 px phone (nothing wider than
// the screen, every column of a row in view), and the compliance forecast uses its width with labels
// that do not overlap.
const baseURL = inject('baseURL')
const browser = suiteBrowser()

const noSerious = async (page: Page, where: string) => expect(await axeSerious(page), where).toEqual([])

const fitsTheScreen = async (page: Page, where: string) => expect(await overflowing(page), where).toEqual({ scrollWidth: PHONE.width, width: PHONE.width, wide: [] })

/** The box of an element is in view across (not cut at either edge) and shows all of its text. */
const inViewAcross = async (el: Locator, what: string) => {
  await el.scrollIntoViewIfNeeded()
  const box = (await el.boundingBox())!
  expect(box.x, what).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width, what).toBeLessThanOrEqual(PHONE.width)
  expect(await el.evaluate((e) => e.scrollWidth <= e.clientWidth + 1), `${what} shows all its text`).toBe(true)
}

/** The label a stacked table's cell shows before its value (its column's name, drawn by the stylesheet). */
const shownLabel = (cell: Locator) => cell.evaluate((el) => getComputedStyle(el, '::before').content)

/** Every cell of a table's first row (its title, each labelled figure, its actions) is in view across. */
const firstRowInView = async (table: Locator, name: string) => {
  const row = table.locator('tbody tr').first()
  for (const cell of await row.locator('th, td').all()) {
    const label = (await cell.getAttribute('data-label')) ?? (await cell.textContent())?.trim().slice(0, 30)
    await inViewAcross(cell, `${label} in ${name}`)
  }
}

describe('the certification screens on a 390 px phone', () => {
  it('shows Certification Management, its Testing tab and the Add Certification dialog as wide as the screen, each type with its code and figures', async () => {
    const page = await openPage(browser(), baseURL, PHONE)
    await logIn(page, 'admin@example.com', 'Admin123!')
    await page.waitForURL('**/admin-dashboard')
    await page.goto('/admin/certifications')
    const types = page.getByRole('table', { name: 'Tier 0 · New Hire certifications' })
    await types.waitFor()
    await fitsTheScreen(page, 'Certification Management')
    await firstRowInView(types, 'the Tier 0 types')
    // The code is shown in full beside its label, not cut to its first letters.
    const code = types.locator('tbody tr').first().locator('td[data-label="Code"]')
    expect(await shownLabel(code)).toContain('"Code"')
    expect((await code.innerText()).trim()).toMatch(/^\S{3,}$/)
    await noSerious(page, 'Certification Management on a phone')

    await page.getByRole('tab', { name: 'Testing' }).click()
    await expect.poll(() => page.getByRole('tab', { name: 'Testing' }).getAttribute('aria-selected')).toBe('true')
    await page.getByRole('combobox', { name: 'Certification to add to Tier 0 · New Hire' }).waitFor()
    await fitsTheScreen(page, 'the Testing tab')
    const testing = page.getByRole('table', { name: /certifications$/ })
    if ((await testing.count()) > 0) await firstRowInView(testing.first(), 'the Testing tab')
    await noSerious(page, 'the Testing tab on a phone')

    await page.getByRole('button', { name: 'Add Certification' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add Certification' })
    await dialog.getByRole('combobox', { name: 'Course or exam to add' }).waitFor()
    await fitsTheScreen(page, 'the Add Certification dialog')
    for (const [i, control] of (await dialog.getByRole('combobox').all()).entries()) await inViewAcross(control, `select ${i + 1} of the dialog`)
    await noSerious(page, 'the Add Certification dialog on a phone')
    await page.context().close()
  })

  it("shows a manager each member's progress, issues and tier, and sorts by them", async () => {
    const page = await openPage(browser(), baseURL, PHONE)
    await logIn(page, 'manager@example.com', 'Manager123!')
    await page.waitForURL(/dashboard$/)
    await page.goto('/manager/dashboard')
    const team = page.getByRole('table', { name: 'Team members' })
    await team.locator('tbody tr').first().waitFor()
    await fitsTheScreen(page, 'the team dashboard')
    await firstRowInView(team, 'the team')
    const first = team.locator('tbody tr').first()
    for (const column of ['Progress', 'Issues', 'Tier']) {
      const cell = first.locator(`td[data-label="${column}"]`)
      expect(await cell.isVisible(), column).toBe(true)
      // The figure says which it is: its column's name is shown beside it.
      expect(await shownLabel(cell), column).toContain(`"${column}"`)
    }
    // Each sortable column is a button in view that sorts the team from the keyboard, focus staying on it.
    for (const column of ['Progress', 'Issues', 'Tier']) {
      const header = team.getByRole('columnheader', { name: new RegExp(column) })
      const button = header.getByRole('button')
      await inViewAcross(button, `Sort by ${column}`)
      await button.focus()
      await page.keyboard.press('Enter')
      await expect.poll(() => header.getAttribute('aria-sort')).toBe('ascending')
      expect(await button.evaluate((el) => el === document.activeElement), `${column} keeps focus`).toBe(true)
    }
    await noSerious(page, 'the team dashboard on a phone')
    await page.context().close()
  })

  it('shows Certification Notification Management as wide as the screen, the chart scrolling in a named box the keyboard reaches', async () => {
    const page = await openPage(browser(), baseURL, PHONE)
    await logIn(page, 'admin@example.com', 'Admin123!')
    await page.waitForURL('**/admin-dashboard')
    await page.goto('/admin/certification-notifications')
    await page.getByRole('img', { name: /Compliance by branch/ }).waitFor()
    await page.getByRole('table', { name: 'Email configurations' }).waitFor()
    await fitsTheScreen(page, 'notification management')
    for (const name of ['Compliance by branch', 'Compliance forecast by branch', 'Email configurations']) await firstRowInView(page.getByRole('table', { name }), name)
    const chart = page.getByRole('group', { name: /^Forecast chart/ })
    if (await chart.evaluate((el) => el.scrollWidth > el.clientWidth)) {
      expect(await chart.getAttribute('tabindex')).toBe('0')
      expect(await chart.getAttribute('aria-label')).toBe('Forecast chart, scrolls sideways')
    }
    await noSerious(page, 'notification management on a phone')
    // The log is empty on a fresh portal (the demo runs no check by itself); the demo has expired certifications.
    const panel = page.getByRole('tabpanel')
    for (const [tab, shown] of [
      ['Notification Logs', panel.getByRole('table', { name: 'Notification log' }).or(panel.getByText('No notifications have been logged yet.'))],
      ['Expired Certifications', panel.getByRole('table', { name: 'Expired certifications' })],
    ] as const) {
      await page.getByRole('tab', { name: tab }).click()
      await shown.first().waitFor()
      await fitsTheScreen(page, tab)
      await noSerious(page, `${tab} on a phone`)
    }
    await page.context().close()
  })
})

describe('the compliance forecast on a desktop', () => {
  it('draws the chart across its whole box, none of its labels overlapping', async () => {
    const page = await openPage(browser(), baseURL, { width: 1280, height: 900 })
    await logIn(page, 'admin@example.com', 'Admin123!')
    await page.waitForURL('**/admin-dashboard')
    await page.goto('/admin/certification-notifications')
    const chart = page.getByRole('img', { name: /Compliance by branch/ })
    await chart.waitFor()
    const box = page.getByRole('group', { name: /^Forecast chart/ })
    const [chartWidth, boxWidth] = await Promise.all([chart.boundingBox().then((b) => b!.width), box.evaluate((el) => el.clientWidth)])
    expect(chartWidth).toBeGreaterThan(600)
    expect(Math.abs(chartWidth - boxWidth)).toBeLessThanOrEqual(1)
    // Not a scroller on a wide screen, so not a stop of the Tab key either.
    expect(await box.getAttribute('tabindex')).toBeNull()
    const overlaps = await chart.evaluate((svg) => {
      const boxes = [...svg.querySelectorAll('text')].map((t) => ({ text: t.textContent, r: t.getBoundingClientRect() }))
      const found: string[] = []
      for (const [i, a] of boxes.entries())
        for (const b of boxes.slice(i + 1)) if (a.r.left < b.r.right && b.r.left < a.r.right && a.r.top < b.r.bottom && b.r.top < a.r.bottom) found.push(`${a.text} / ${b.text}`)
      return { count: boxes.length, found }
    })
    expect(overlaps.count).toBeGreaterThan(10)
    expect(overlaps.found).toEqual([])
    await page.context().close()
  })
})
