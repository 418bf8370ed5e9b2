import { describe, expect, inject, it } from 'vitest'
import { axeSerious, descriptionOf, focusedControl, logIn, openPage, overflowing, PHONE, suiteBrowser, tabTo, watchErrors } from './browser.ts'

// Issue 30 items 1 and 2 on Revenue Entry: a form saved with errors marks each field and sends
// focus to the first, by keyboard alone; on a phone the page is as wide as the screen and Recent
// Entries shows its amounts whole, in a scrolling box the keyboard reaches.
const baseURL = inject('baseURL')
const browser = suiteBrowser()

/** Revenue Entry as the demo admin, with its technicians loaded. */
const openRevenueEntry = async (viewport?: { width: number; height: number }) => {
  const page = await openPage(browser(), baseURL, viewport)
  const errors = watchErrors(page)
  await logIn(page, 'admin@example.com', 'Admin123!')
  await page.waitForURL('**/admin-dashboard')
  await page.goto('/admin/revenue-entry')
  await page.getByRole('heading', { level: 1, name: 'Revenue Entry' }).waitFor()
  const technician = page.getByRole('combobox', { name: 'Technician' })
  await expect.poll(async () => (await technician.locator('option').allTextContents()).length).toBeGreaterThan(2)
  return { page, errors, technician }
}

describe('certification forms say what is wrong where it is wrong', () => {
  it('Revenue Entry saved empty by keyboard: every required field marked, focus on the first, its message read', async () => {
    const { page, errors, technician } = await openRevenueEntry()
    // The page heading has focus on arrival; from there, Tab to Save and press Enter.
    expect(await focusedControl(page)).toBe('heading "Revenue Entry" [level=1]')
    const save = page.getByRole('button', { name: 'Save Revenue' })
    await tabTo(page, save, { max: 40 })
    await page.keyboard.press('Enter')

    await expect.poll(() => technician.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await focusedControl(page)).toMatch(/^combobox "Technician"/)
    expect(await technician.getAttribute('aria-invalid')).toBe('true')
    expect(await descriptionOf(technician)).toBe('Select a technician')
    const month = page.getByLabel('Month', { exact: true })
    const gross = page.getByRole('spinbutton', { name: 'Gross Revenue' })
    expect(await month.getAttribute('aria-invalid')).toBe('true')
    expect(await descriptionOf(month)).toBe('Enter a month')
    expect(await gross.getAttribute('aria-invalid')).toBe('true')
    expect(await descriptionOf(gross)).toBe('Enter the gross revenue')
    await page.getByRole('alert').getByText('Please fill in all required fields').waitFor()

    // The technician chosen by keyboard (each option names the e-mail beside the name), Tab on to Save:
    // focus goes to the next field still wrong.
    await technician.focus()
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => technician.getAttribute('aria-invalid')).toBe(null)
    expect(await technician.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.textContent)).toMatch(/^.+ \(\S+@\S+.*\)/)
    await tabTo(page, save, { max: 40 })
    await page.keyboard.press('Enter')
    await expect.poll(() => month.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await descriptionOf(month)).toBe('Enter a month')
    expect(await axeSerious(page)).toEqual([])
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('Revenue Entry on a phone: as wide as the screen, amounts whole, Recent Entries scrolled by keyboard, no serious axe finding', async () => {
    const { page, errors } = await openRevenueEntry(PHONE)
    const table = page.getByRole('table', { name: 'Recent Entries' })
    await table.getByRole('row').nth(1).waitFor()
    expect(await overflowing(page)).toEqual({ scrollWidth: 390, width: 390, wide: [] })
    expect(await axeSerious(page)).toEqual([])

    // Each amount on one line, none under a pinned column.
    const first = table.getByRole('row').nth(1)
    const cells = first.getByRole('cell')
    for (const i of [2, 3, 5]) {
      const lines = await cells.nth(i).evaluate((cell) => {
        const range = document.createRange()
        range.selectNodeContents(cell)
        return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size
      })
      expect(lines, `cell ${i} of the first row`).toBe(1)
    }
    expect(await cells.last().evaluate((c) => getComputedStyle(c).position)).toBe('static')

    // The table scrolls in a named box the keyboard reaches; arrows bring Pay and Ratio into view.
    const scroller = page.getByRole('region', { name: 'Recent Entries (scrolls sideways)' })
    expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
    await page.getByRole('button', { name: 'Save Revenue' }).focus()
    await tabTo(page, scroller, { max: 10 })
    const ratioCell = cells.nth(4)
    for (let i = 0; i < 20 && (await ratioCell.boundingBox())!.x + (await ratioCell.boundingBox())!.width > 390; i++) await page.keyboard.press('ArrowRight')
    const box = (await ratioCell.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(390)

    // The error state on a phone: still as wide as the screen, still nothing serious.
    await page.getByRole('button', { name: 'Save Revenue' }).click()
    await page.getByRole('alert').getByText('Please fill in all required fields').waitFor()
    expect(await overflowing(page)).toEqual({ scrollWidth: 390, width: 390, wide: [] })
    expect(await axeSerious(page)).toEqual([])
    expect(errors).toEqual([])
    await page.context().close()
  })
})
