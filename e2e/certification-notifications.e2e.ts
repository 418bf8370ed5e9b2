import { describe, expect, inject, it } from 'vitest'
import type { Page } from 'playwright-core'
import { complianceColour, type CertificationDashboard, type NotificationConfig } from '@portal/contracts'
import { apiLogIn, axeSerious, focusedControl, logIn, openPage, suiteBrowser, waitForMail, watchErrors } from './browser.ts'

// Issue 12, the screen: an admin opens Certification Notification Management from the Notification
// Settings card, reads the compliance overview and forecast, sets up a branch's e-mails, runs the
// daily check and the weekly report, reads the log and reminds technicians with expired
// certifications, one and several at once. The demo data has three expired certifications:
// Pat Portland (NATE), Sam Seattle (NFPA 70E) and Avery Anchorage (First Aid / CPR / AED); the
// journey gives Taylor Tri-Cities, whose notifications are paused, a fourth.
const baseURL = inject('baseURL')
const browser = suiteBrowser()

/** The admin's call to the API, for what a journey needs set up beforehand. */
let adminAuth: Promise<{ authorization: string }> | undefined
async function call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  adminAuth ??= apiLogIn(baseURL, 'admin@example.com', 'Admin123!').then((a) => a.auth)
  const res = await fetch(`${baseURL}/api${path}`, {
    method,
    headers: { ...(await adminAuth), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  expect(res.status, `${method} ${path}`).toBeLessThan(300)
  return (await res.json()) as T
}

/** Gives a technician the certification type `code`, expiring `days` days from today (negative: expired). */
async function addCertification(userId: string, code: string, days: number): Promise<void> {
  const type = (await call<{ certifications: { id: number; code: string }[] }>('GET', '/admin/certifications')).certifications.find((c) => c.code === code)!
  const expiration = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)
  await call('POST', '/technician/certifications/add', {
    certification_id: type.id,
    certification_number: `${code}-E2E`,
    obtained_date: '2020-01-01',
    expiration_date: expiration,
    user_id: userId,
  })
}

/** Runs the daily check from the screen; answers once its success or failure shows (a failure fails with its words). */
async function runDailyCheck(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Run Daily Check' }).click()
  // Admin §8's message exactly, the run's figures on a line of their own.
  const success = page.getByRole('status').getByText('Daily notification check triggered successfully', { exact: true })
  const failure = page.getByRole('region', { name: 'Manual Actions' }).getByRole('alert')
  await success.or(failure).first().waitFor({ timeout: 30_000 })
  expect(await failure.allTextContents()).toEqual([])
  await page
    .getByRole('status')
    .getByText(/^\d+ notices? sent, \d+ withheld \(notifications paused\)\.$/)
    .waitFor()
}

describe('certification notifications journey', () => {
  it('an admin reads compliance, edits a configuration, runs the daily check and the weekly report, reads the log and sends reminders', async () => {
    const page = await openPage(browser(), baseURL)
    const errors = watchErrors(page)
    await logIn(page, 'admin@example.com', 'Admin123!')
    await page.waitForURL('**/admin-dashboard')
    await page.getByRole('tab', { name: 'Certifications' }).click()
    await page.getByRole('tabpanel').getByRole('link', { name: 'Open Notification Settings' }).click()

    await page.waitForURL('**/admin/certification-notifications')
    await page.getByRole('heading', { level: 1, name: 'Certification Notification Management' }).waitFor()
    expect(await page.title()).toBe('Certification Notification Management · Learning Portal')
    expect(await focusedControl(page)).toBe('heading "Certification Notification Management" [level=1]')

    // Compliance: the organisation and each branch, as the server counts them (journeys before
    // this one may have added technicians and certifications), each in the §9 colour of its figure.
    const overview = page.getByRole('region', { name: 'Compliance Overview' })
    await overview.getByText('Organisation Compliance').waitFor()
    const branches = overview.getByRole('table', { name: 'Compliance by branch' })
    const figures = (await call<CertificationDashboard>('GET', '/certification-notifications/dashboard?days=60&include_expired=true')).compliance.branches
    for (const b of ['Portland', 'Seattle', 'Anchorage', 'Tri-Cities']) {
      const row = branches.getByRole('row').filter({ has: page.getByRole('rowheader', { name: b }) })
      const { percentage } = figures.find((f) => f.branch === b)!
      await row.getByText(`${percentage}%`, { exact: true }).waitFor()
      expect(await row.locator(`.ct-tone--${complianceColour(percentage)}`).count(), b).toBe(1)
    }
    // The demo keeps someone out of compliance in Anchorage: a red figure shows.
    expect(figures.find((f) => f.branch === 'Anchorage')!.percentage).toBeLessThan(75)

    // The forecast: a chart and its figures per branch.
    const forecast = page.getByRole('region', { name: 'Compliance Forecast' })
    await forecast.getByRole('img', { name: /^Compliance by branch today and in 30, 60, 90 days/ }).waitFor()
    const forecastTable = forecast.getByRole('table', { name: 'Compliance forecast by branch' })
    for (const col of ['Branch', 'Technicians', 'Today', 'In 30 days', 'In 60 days', 'In 90 days'])
      await forecastTable.getByRole('columnheader', { name: col, exact: true }).waitFor()
    await forecastTable.getByRole('rowheader', { name: 'Portland' }).waitFor()
    expect(await axeSerious(page)).toEqual([])

    // Email Configurations: Anchorage · Construction gets its e-mails and is switched on.
    const tabs = page.getByRole('tablist', { name: 'Notification settings' })
    expect(await tabs.getByRole('tab', { name: 'Email Configurations' }).getAttribute('aria-selected')).toBe('true')
    const configs = page.getByRole('tabpanel').getByRole('table', { name: 'Email configurations' })
    for (const col of ['Branch', 'Department', 'Manager Email', 'Operations Manager Email', 'Additional Emails', 'Active', 'Actions'])
      await configs.getByRole('columnheader', { name: col, exact: true }).waitFor()
    await page.getByRole('button', { name: 'Edit Anchorage · Construction' }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit Configuration: Anchorage · Construction' })
    await dialog.waitFor()
    expect(await focusedControl(page)).toBe('textbox "Manager Email (7-day escalation)"')
    expect(await dialog.getByLabel('Manager Email (7-day escalation)').getAttribute('type')).toBe('email')
    await dialog.getByLabel('Manager Email (7-day escalation)').fill('lead.anchorage')
    await dialog.getByRole('button', { name: 'Save Changes' }).click()
    await dialog.getByText('Please enter a valid email address').waitFor()
    expect(await focusedControl(page)).toBe('textbox "Manager Email (7-day escalation)" [invalid]')
    await dialog.getByLabel('Manager Email (7-day escalation)').fill('lead.anchorage@example.com')
    await dialog.getByLabel('Operations Manager Email (expired escalation)').fill('ops@example.com')
    await dialog.getByLabel('Additional Email 1 (expired notifications)').fill('safety@example.com')
    await dialog.getByRole('checkbox', { name: 'Active Configuration' }).check()
    expect(await axeSerious(page)).toEqual([])
    await dialog.getByRole('button', { name: 'Save Changes' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByRole('status').getByText('Configuration updated successfully!').waitFor()
    expect(await focusedControl(page)).toBe('button "Edit Anchorage · Construction"')
    const row = configs.getByRole('row').filter({ has: page.getByRole('button', { name: 'Edit Anchorage · Construction' }) })
    await row.getByRole('cell', { name: 'lead.anchorage@example.com' }).waitFor()
    await row.getByRole('cell', { name: 'safety@example.com' }).waitFor()
    const active = row.getByRole('switch', { name: 'Active: Anchorage · Construction' })
    expect(await active.getAttribute('aria-checked')).toBe('true')
    // The switch turns it off and on again.
    await active.click()
    await page.getByRole('status').getByText('Anchorage · Construction is now inactive.').waitFor()
    expect(await active.getAttribute('aria-checked')).toBe('false')
    await active.click()
    await page.getByRole('status').getByText('Anchorage · Construction is now active.').waitFor()

    // Manual actions with the alerts of admin §8. Taylor Tri-Cities, whose notifications are paused,
    // now holds an expired certification too: the check logs it as paused and sends no mail.
    await addCertification((await apiLogIn(baseURL, 'tech.tricities@example.com', 'Tech1234!')).id, 'CSP', -3)
    await runDailyCheck(page)
    // Anchorage's operations manager, configured above, hears of Avery's expired certification.
    await waitForMail(baseURL, 'ops@example.com', /Avery Anchorage's First Aid \/ CPR \/ AED \(CPR-AED\) certification/)
    await page.getByRole('button', { name: 'Send Weekly Report' }).click()
    await page.getByRole('status').getByText('Weekly management report triggered successfully', { exact: true }).waitFor({ timeout: 30_000 })
    await page
      .getByRole('status')
      .getByText(/^\d+ reports? sent\.$/)
      .waitFor()

    // Notification Logs: the daily check's notices, Avery's expired one among them.
    await tabs.getByRole('tab', { name: 'Notification Logs' }).click()
    const logs = page.getByRole('tabpanel')
    await logs.getByText(/^Showing the latest \d+ of \d+ fetched entr(y|ies)\.$/).waitFor()
    const table = logs.getByRole('table', { name: 'Notification log' })
    for (const col of ['Sent', 'Technician', 'Branch', 'Certification', 'Type', 'Recipients', 'Status']) await table.getByRole('columnheader', { name: col, exact: true }).waitFor()
    const averyExpired = table.getByRole('row').filter({ hasText: 'Avery Anchorage (Construction)' }).filter({ hasText: 'CPR-AED' })
    await averyExpired.getByRole('cell', { name: 'Expired', exact: true }).waitFor()
    const taylorPaused = table.getByRole('row').filter({ hasText: 'Taylor Tri-Cities (Testing)' }).filter({ hasText: 'CSP' })
    await taylorPaused.getByText('Paused', { exact: true }).waitFor()
    expect(await table.getByRole('row').count()).toBeLessThanOrEqual(21)
    expect(await axeSerious(page)).toEqual([])

    // Expired Certifications: the branch filter, one reminder, then all four at once (the paused technician's fails).
    await tabs.getByRole('tab', { name: 'Expired Certifications' }).click()
    const expired = page.getByRole('tabpanel')
    await expired.getByLabel('Branch').selectOption('Anchorage')
    const expiredTable = expired.getByRole('table', { name: 'Expired certifications in Anchorage' })
    expect(await expiredTable.getByRole('row').count()).toBe(2)
    await expiredTable.getByRole('button', { name: 'Send reminder to Avery Anchorage (tech.anchorage@example.com): First Aid / CPR / AED (CPR-AED)' }).click()
    await page.getByRole('status').getByText('Reminder sent to Avery Anchorage for First Aid / CPR / AED.').waitFor()
    await waitForMail(baseURL, 'tech.anchorage@example.com', /An administrator reminds you that your First Aid \/ CPR \/ AED \(CPR-AED\) certification/)

    await expired.getByLabel('Branch').selectOption({ label: 'All Branches' })
    await expired.getByRole('checkbox', { name: 'Select all expired certifications' }).check()
    await expired.getByRole('button', { name: 'Send Reminders to Selected (4)' }).click()
    await page.getByRole('status').getByText('Reminders sent: 3 succeeded, 1 failed.').waitFor({ timeout: 30_000 })
    await expired
      .getByRole('alert')
      .getByText('Taylor Tri-Cities (tech.tricities@example.com): Certified Safety Professional (CSP): Notifications are paused for this technician')
      .waitFor()
    await expired.getByRole('button', { name: 'Send Reminders to Selected (0)' }).waitFor()
    expect(await axeSerious(page)).toEqual([])

    // The reminders are in the log, sent once svc-notify reports the delivery.
    await tabs.getByRole('tab', { name: 'Notification Logs' }).click()
    const samReminder = page.getByRole('tabpanel').getByRole('row').filter({ hasText: 'Sam Seattle' }).filter({ hasText: 'Manual reminder' }).first()
    await samReminder.waitFor()
    for (let i = 0; i < 40 && (await samReminder.getByText('Sent', { exact: true }).count()) === 0; i++) {
      await page.waitForTimeout(250)
      await page.getByRole('button', { name: 'Refresh Logs' }).click()
    }
    await samReminder.getByText('Sent', { exact: true }).waitFor()
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('a manager acknowledges a 7-day escalation through the e-mailed link and the log shows it', async () => {
    // Sam Seattle holds a certification that expires in 5 days; Seattle · Electricians has a manager.
    const sam = await apiLogIn(baseURL, 'tech.seattle@example.com', 'Tech1234!')
    await addCertification(sam.id, 'CSP', 5)
    const { config } = await call<{ config: NotificationConfig }>('GET', '/certification-notifications/configs/Seattle/Electricians')
    await call('PUT', `/certification-notifications/configs/${config.id}`, { manager_email: 'lead.seattle@example.com', is_active: true })

    const page = await openPage(browser(), baseURL)
    const errors = watchErrors(page)
    await logIn(page, 'admin@example.com', 'Admin123!')
    await page.waitForURL('**/admin-dashboard')
    await page.goto('/admin/certification-notifications')
    await runDailyCheck(page)
    const link = (await waitForMail(baseURL, 'lead.seattle@example.com', /Acknowledge this escalation: (\S+)/))[1]!

    // The manager needs no account: the link opens a page whose button records the acknowledgement once.
    const manager = await openPage(browser(), baseURL)
    await manager.goto(link)
    await manager.getByRole('button', { name: 'Acknowledge' }).click()
    await manager.getByText('Escalation acknowledged. Thank you.').waitFor()
    await manager.goto(link)
    await manager.getByRole('button', { name: 'Acknowledge' }).click()
    await manager.getByText('This escalation has already been acknowledged').waitFor()
    await manager.context().close()

    await page.getByRole('tab', { name: 'Notification Logs' }).click()
    const escalation = page.getByRole('tabpanel').getByRole('row').filter({ hasText: 'Sam Seattle' }).filter({ hasText: 'Manager escalation (7-day)' })
    await page.getByRole('button', { name: 'Refresh Logs' }).click()
    await escalation.getByText(/^Acknowledged /).waitFor()
    await escalation.getByRole('cell', { name: 'lead.seattle@example.com' }).waitFor()
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('a technician cannot open the screen', async () => {
    const page = await openPage(browser(), baseURL)
    await logIn(page, 'tech.seattle@example.com', 'Tech1234!')
    await page.waitForURL('**/user-dashboard')
    await page.goto('/admin/certification-notifications')
    await page.waitForURL('**/user-dashboard')
    await page.context().close()
  })
})
