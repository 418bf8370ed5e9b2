import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { apiLogIn, focusedControl, launchBrowser, signedInPage, watchErrors } from './browser.ts'

// The certification screens (mf-certifications) as people use them: an admin adds a type and a
// tier requirement; a technician adds a certification, uploads, views, downloads, replaces and
// deletes a proof and pauses notifications (and resumes them); another technician cannot open that profile.
const baseURL = inject('baseURL')
let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

const signedIn = (email: string, password: string) => signedInPage(browser, baseURL, email, password, { acceptDownloads: true })
const apiLogin = (email: string, password: string) => apiLogIn(baseURL, email, password)

const stamp = Date.now().toString(36).toUpperCase()
const typeName = `Scaffold Safety ${stamp}`
const typeCode = `SCAF-${stamp}`
const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n')
// A 1×1 PNG.
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')

describe('certifications journey', () => {
  it('an admin opens Certification Management from the Certifications tab, adds a type and makes it a tier requirement', async () => {
    const page = await signedIn('admin@example.com', 'Admin123!')
    const errors = watchErrors(page)
    await page.getByRole('tab', { name: 'Certifications' }).click()
    const panel = page.getByRole('tabpanel')
    for (const card of ['Team Management', 'Certification Admin', 'Notification Settings', 'Revenue Entry']) await panel.getByRole('heading', { name: card }).waitFor()
    await expect(panel.getByRole('link', { name: 'Open Notification Settings' }).getAttribute('href')).resolves.toBe('/admin/certification-notifications')
    await expect(panel.getByRole('link', { name: 'Open Revenue Entry' }).getAttribute('href')).resolves.toBe('/admin/revenue-entry')
    await panel.getByRole('link', { name: 'Manage Certifications' }).click()

    await page.waitForURL('**/admin/certifications')
    await page.getByRole('heading', { level: 1, name: 'Certification Management' }).waitFor()
    expect(await page.title()).toBe('Certification Management · Learning Portal')
    expect(await focusedControl(page)).toBe('heading "Certification Management" [level=1]')

    // Department tabs by keyboard: All is open; Home goes to Service, arrows move on.
    const tabs = page.getByRole('tablist', { name: 'Departments' })
    await tabs.getByRole('tab', { name: 'All' }).focus()
    await page.keyboard.press('Home')
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('ArrowRight')
    expect(await focusedControl(page)).toBe('tab "Construction" [selected]')
    await page
      .getByRole('tabpanel')
      .getByRole('button', { name: /^Tier 1 / })
      .waitFor()

    // Tier sections fold and unfold.
    const tier3 = page.getByRole('button', { name: /^Tier 3 / })
    await tier3.click()
    expect(await tier3.getAttribute('aria-expanded')).toBe('false')
    await tier3.click()
    expect(await tier3.getAttribute('aria-expanded')).toBe('true')

    // Create a type: the dialog opens on Name and closes back on Add Certification.
    await page.getByRole('button', { name: 'Add Certification' }).click()
    const dialog = page.getByRole('dialog', { name: 'Add Certification' })
    await dialog.waitFor()
    expect(await focusedControl(page)).toBe('textbox "Name"')
    await dialog.getByRole('button', { name: 'Create Certification' }).click()
    await dialog.getByText('Certification name is required').waitFor()
    await dialog.getByLabel('Name').fill(typeName)
    await dialog.getByLabel('Code').fill(typeCode)
    expect(await dialog.getByLabel('Department').inputValue()).toBe('Construction')
    await dialog.getByLabel('Validity').selectOption({ label: '2 years' })
    expect(await dialog.getByLabel('Training Link').getAttribute('type')).toBe('url')
    await dialog.getByLabel('Training Link').fill('https://training.example/scaffold')
    await dialog.getByRole('button', { name: 'Create Certification' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByRole('status').getByText(`Certification ${typeName} created.`).waitFor()
    expect(await focusedControl(page)).toBe('button "Add Certification"')
    const row = page.getByRole('row').filter({ hasText: typeCode })
    await row.getByRole('cell', { name: '2 years' }).waitFor()

    // Make it a required New Hire (tier 0) certification.
    await page.getByLabel('Certification to add to Tier 0 · New Hire').selectOption({ label: `${typeName} (${typeCode})` })
    await page.getByRole('button', { name: 'Add Requirement' }).first().click()
    await page.getByRole('status').getByText(`${typeName} added to Tier 0 · New Hire as required.`).waitFor()
    const requiredBox = page.getByRole('checkbox', { name: `Required for Tier 0 · New Hire: ${typeName}` })
    expect(await requiredBox.isChecked()).toBe(true)
    await page.getByRole('button', { name: `Remove ${typeName} from Tier 0 · New Hire` }).waitFor()

    // The admin view of a technician's profile.
    const anchorage = await apiLogin('tech.anchorage@example.com', 'Tech1234!')
    await page.goto(`/admin/technician/${anchorage.id}`)
    await page.getByRole('heading', { level: 2, name: 'Avery Anchorage' }).waitFor()
    expect(await page.title()).toBe('Technician Profile: Avery Anchorage · Learning Portal')
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('a technician adds a certification, uploads, views, downloads, replaces and deletes a proof, deletes a certification and pauses notifications, then resumes them', async () => {
    const page = await signedIn('tech.anchorage@example.com', 'Tech1234!')
    const errors = watchErrors(page)
    const tracking = page.getByRole('region', { name: 'Certification Tracking' })
    await tracking.getByText('Expiring Soon').waitFor()
    await page.getByRole('link', { name: 'View My Certifications' }).click()

    await page.waitForURL('**/technician/profile')
    await page.getByRole('heading', { level: 1, name: 'My Technician Profile' }).waitFor()
    expect(await page.title()).toBe('My Technician Profile · Learning Portal')
    expect(await focusedControl(page)).toBe('heading "My Technician Profile" [level=1]')
    await page.getByRole('heading', { name: 'Avery Anchorage' }).waitFor()
    // The demo's six months of revenue fill the four cards (issue 11).
    const revenue = page.getByRole('region', { name: 'Revenue' })
    for (const card of ['Monthly Revenue', 'Monthly Pay', 'Rev/Pay Ratio', 'Yearly Revenue YTD']) await revenue.getByText(card, { exact: true }).waitFor()
    await revenue
      .getByText(/^\$\d{1,3}(,\d{3})*\.\d{2}$/)
      .first()
      .waitFor()
    expect(await revenue.getByText('No revenue recorded').count()).toBe(0)

    // Statuses and badges in words.
    const card = (name: string) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) })
    const cpr = card('First Aid / CPR / AED')
    await cpr.getByText('Expired', { exact: true }).waitFor()
    await cpr.getByText(/^Expired \d+ days ago$/).waitFor()
    // Each badge says why, as a tooltip and to screen readers (issue 23).
    expect(await cpr.getByText('Expired', { exact: true }).getAttribute('title')).toMatch(/^Expired \d+ days ago: expiry \w{3} \d{1,2}, \d{4}$/)
    await card('Forklift Operator')
      .getByText(/^Critical: expires in \d+ days?$/)
      .waitFor()
    const osha = card('OSHA 10-Hour Construction Safety')
    await osha.getByText('Not Uploaded', { exact: true }).waitFor()
    const upcoming = page.getByRole('region', { name: 'Upcoming Expirations' })
    await upcoming.getByText('Forklift Operator').waitFor()

    // Add the admin's new type: the hint names its typical validity; focus comes back to Add.
    await page.getByRole('button', { name: 'Add Certification' }).click()
    const add = page.getByRole('dialog', { name: 'Add Certification' })
    await add.waitFor()
    expect(await focusedControl(page)).toBe('combobox "Certification"')
    await add.getByRole('button', { name: 'Add Certification' }).click()
    await add.getByText('Please select a certification').waitFor()
    await add.getByLabel('Certification', { exact: true }).selectOption({ label: `${typeName} (${typeCode}) · New Hire` })
    await add.getByText('Typical validity: 2 years').waitFor()
    await add.getByLabel('Certification Number').fill(`SC-${stamp}`)
    await add.getByLabel('Obtained Date').fill('2026-10-01')
    // Before saving, the dialog says what the server will store, and why.
    await add.getByText('Expires Oct 1, 2028: obtained date + 24 months', { exact: true }).waitFor()
    await add.getByRole('button', { name: 'Add Certification' }).click()
    await add.waitFor({ state: 'hidden' })
    await page
      .getByRole('status')
      .getByText(/Certification added successfully!/)
      .waitFor()
    expect(await focusedControl(page)).toBe('button "Add Certification"')
    const added = card(`${typeName} (${typeCode})`)
    await added.getByText('Not Uploaded', { exact: true }).waitFor()
    await added.getByText('Oct 1, 2028').waitFor()

    // Upload a proof for OSHA 10: a wrong type is refused on the spot, a PDF goes up.
    await osha.getByRole('button', { name: 'Upload' }).click()
    const upload = page.getByRole('dialog', { name: 'Upload Proof: OSHA 10-Hour Construction Safety' })
    await upload.getByLabel('Proof File').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') })
    await upload.getByText('Please select a PDF, JPEG, or PNG file.').waitFor()
    await upload.getByLabel('Proof File').setInputFiles({ name: 'osha-card.pdf', mimeType: 'application/pdf', buffer: pdf })
    await upload.getByRole('button', { name: 'Upload Proof' }).click()
    await upload.waitFor({ state: 'hidden' })
    await page.getByRole('status').getByText('Certification uploaded successfully! OSHA 10-Hour Construction Safety: osha-card.pdf.').waitFor()
    await osha.getByText('Uploaded', { exact: true }).waitFor()
    expect(await focusedControl(page)).toMatch(/^button "Replace"/)

    // View opens it in the page; Download saves it under its own name.
    const view = osha.getByRole('button', { name: 'View' })
    await view.click()
    await osha.locator('iframe[title="Proof of OSHA 10-Hour Construction Safety: osha-card.pdf"]').waitFor()
    expect(await view.getAttribute('aria-expanded')).toBe('true')
    const [download] = await Promise.all([page.waitForEvent('download'), osha.getByRole('button', { name: 'Download' }).click()])
    expect(download.suggestedFilename()).toBe('osha-card.pdf')

    // Replace with a PNG: the open view closes, the new one shows as an image.
    await osha.getByRole('button', { name: 'Replace' }).click()
    const replace = page.getByRole('dialog', { name: 'Replace Proof: OSHA 10-Hour Construction Safety' })
    await replace.getByLabel('Proof File').setInputFiles({ name: 'osha-card.png', mimeType: 'image/png', buffer: png })
    await replace.getByRole('button', { name: 'Replace Proof' }).click()
    await replace.waitFor({ state: 'hidden' })
    await page.getByRole('status').getByText('Proof of OSHA 10-Hour Construction Safety replaced with osha-card.png.').waitFor()
    await osha.getByText('osha-card.png', { exact: false }).first().waitFor()
    await osha.getByRole('button', { name: 'View' }).click()
    await osha.getByRole('img', { name: 'Proof of OSHA 10-Hour Construction Safety: osha-card.png' }).waitFor()
    // The replaced proof is kept in the card's history (issue 23: history, not overwrite).
    const history = osha.getByRole('button', { name: 'History (1 earlier period)' })
    expect(await history.getAttribute('aria-expanded')).toBe('false')
    await history.click()
    expect(await history.getAttribute('aria-expanded')).toBe('true')
    await osha.getByText(/^Proof replaced on \w{3} \d{1,2}, \d{4} by Avery Anchorage$/).waitFor()
    await osha.getByText('osha-card.pdf, 1 KB').waitFor()
    await history.click()

    // Delete the proof after confirming; focus goes to the card's Upload.
    await osha.getByRole('button', { name: 'Delete Proof' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete Proof?' })
    await confirm.getByRole('button', { name: 'Delete Proof' }).click()
    await confirm.waitFor({ state: 'hidden' })
    await page.getByRole('status').getByText('Proof of OSHA 10-Hour Construction Safety deleted.').waitFor()
    await osha.getByText('Not Uploaded', { exact: true }).waitFor()
    expect(await focusedControl(page)).toMatch(/^button "Upload"/)

    // Delete the certification added above, after confirming; focus stays on a card's Delete.
    await added.getByRole('button', { name: 'Delete', exact: true }).click()
    const confirmDelete = page.getByRole('dialog', { name: 'Delete Certification?' })
    await confirmDelete.getByText(/Its history, this period and its proof included, is kept for the audit trail\./).waitFor()
    await confirmDelete.getByRole('button', { name: 'Delete Certification' }).click()
    await confirmDelete.waitFor({ state: 'hidden' })
    await page.getByRole('status').getByText(`${typeName} deleted. Its history is kept for the audit trail.`).waitFor()
    // It leaves its tier for Deleted Certifications, its history kept.
    const deleted = page.getByRole('region', { name: /^Deleted Certifications/ })
    await deleted.getByRole('heading', { name: `${typeName} (${typeCode})` }).waitFor()
    expect(await added.count()).toBe(1)
    expect(await focusedControl(page)).toMatch(/^button "Delete"/)

    // Pause notifications for 30 days.
    const toggle = page.getByRole('switch', { name: 'Expiration notifications' })
    expect(await toggle.getAttribute('aria-checked')).toBe('true')
    await toggle.click()
    await page
      .getByRole('status')
      .getByText(/^Notifications paused until \w{3} \d{1,2}, \d{4}\.$/)
      .waitFor()
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false')
    await page.getByText(/^Paused until /).waitFor()
    // Used again, it resumes: journeys share the portal, and the notification journey reminds
    // this technician.
    await toggle.click()
    await page.getByRole('status').getByText('Notifications resumed.').waitFor()
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true')
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('a second technician cannot open the first one’s profile: the route sends them home and the API refuses', async () => {
    const anchorage = await apiLogin('tech.anchorage@example.com', 'Tech1234!')
    const page = await signedIn('tech.tricities@example.com', 'Tech1234!')
    await page.goto(`/admin/technician/${anchorage.id}`)
    await page.waitForURL('**/user-dashboard')
    const tricities = await apiLogin('tech.tricities@example.com', 'Tech1234!')
    const res = await fetch(`${baseURL}/api/technician/profile/${anchorage.id}`, { headers: tricities.auth })
    expect(res.status).toBe(403)
    await page.context().close()
  })
})
