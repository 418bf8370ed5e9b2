// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { bodyRows, figure, renderWithClient as renderDom } from '../test/index.ts'
import { notificationKeys } from './data/apiHooks.ts'
import { ComplianceOverview } from './ComplianceOverview.tsx'
import { ConfigDialog } from './ConfigDialog.tsx'
import { ConfigsTab } from './ConfigsTab.tsx'
import { ExpiredTab } from './ExpiredTab.tsx'
import { LogsTab } from './LogsTab.tsx'
import { ManualActions } from './ManualActions.tsx'
import { NotificationManagementView } from './NotificationManagementPage.tsx'
import { config, dashboard, log } from './test-fixtures.ts'
import { Notice } from '../shared/index.ts'

const noop = () => undefined
/** The visible words of every button, in order. */
const buttonTexts = () => screen.getAllByRole('button').map((b) => b.textContent)
/** A branch's row of the compliance table: its cells as text, and the tone of its compliance badge. */
const branchRow = (table: HTMLElement, branch: string) => {
  const row = within(table).getByRole('rowheader', { name: branch }).closest('tr')!
  const badge = within(row).getAllByRole('cell')[0]!.firstElementChild!
  return { cells: [...row.children].map((c) => c.textContent), badge: badge.className }
}

// Whatever is not in the cache stays loading: no request leaves the test.
beforeEach(() => {
  vi.stubGlobal('fetch', () => new Promise(() => undefined))
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('Certification Notification Management', () => {
  it('opens with its title, the way back, the overview, manual actions and the three tabs', () => {
    renderDom(<NotificationManagementView navigate={noop} />, (c) => c.setQueryData(notificationKeys.dashboard(), dashboard))
    // The title takes focus when asked to (not by Tab).
    expect(screen.getByRole('heading', { level: 1, name: 'Certification Notification Management' }).tabIndex).toBe(-1)
    expect(screen.getByRole('link', { name: 'Back to Admin Dashboard' }).getAttribute('href')).toBe('/admin-dashboard')
    expect(screen.getByRole('heading', { level: 2, name: 'Compliance Overview' })).toBeTruthy()
    expect(screen.getByRole('heading', { level: 2, name: 'Manual Actions' })).toBeTruthy()
    const tabs = screen.getByRole('tablist', { name: 'Notification settings' })
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['Email Configurations', 'Notification Logs', 'Expired Certifications'])
    expect(within(tabs).getByRole('tab', { selected: true }).textContent).toBe('Email Configurations')
  })

  it('shows organisation and branch compliance in the spec’s colours, 100% for a branch without technicians', () => {
    renderDom(<ComplianceOverview compliance={dashboard.compliance} />)
    const overview = screen.getByRole('region', { name: 'Compliance Overview' })
    const org = figure(overview, 'Organisation Compliance')
    expect(org.textContent).toBe('80% 8 of 10')
    expect(within(overview).getByRole('definition', { description: /^Compliance: technicians with no expired certification, out of all technicians\./ })).toBe(org)
    expect(within(org).getByText('80%').className).toBe('ct-badge ct-tone--yellow')
    expect(within(org).getByText('8 of 10').className).toBe('ct-figure-of')
    const table = within(overview).getByRole('table', { name: 'Compliance by branch' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Branch', 'Compliance', 'Technicians', 'No expired certifications', 'Requirements met', 'Expired Certifications', 'Expiring Within 30 Days'])
    // The percent in words; its colour (the spec's bands) on the badge.
    for (const [branch, percent, tone] of [
      ['Portland', '100%', 'green'],
      ['Seattle', '75%', 'yellow'],
      ['Anchorage', '0%', 'red'],
      ['Tri-Cities', '100%', 'green'],
    ] as const) {
      const row = branchRow(table, branch)
      expect(row.cells.slice(0, 2)).toEqual([branch, percent])
      expect(row.badge).toBe(`ct-badge ct-tone--${tone}`)
    }
  })

  it('gives technicians without a branch their own row, so the rows add up to the organisation (issue 23)', () => {
    const org = { technicians: 3, compliant: 2, non_compliant: 1, expired_certifications: 1, expiring_30_days: 0, percentage: 67, requirements_met: 1 }
    renderDom(
      <ComplianceOverview
        compliance={{
          organisation: org,
          branches: [
            { branch: 'Portland', ...org, technicians: 2, compliant: 2, non_compliant: 0, expired_certifications: 0, percentage: 100 },
            { branch: null, ...org, technicians: 1, compliant: 0, non_compliant: 1, percentage: 0, requirements_met: 0 },
          ],
        }}
      />,
    )
    const row = branchRow(screen.getByRole('table', { name: 'Compliance by branch' }), 'No branch')
    expect(row.cells.slice(0, 5)).toEqual(['No branch', '0%', '1', '0', '0'])
    expect(row.badge).toBe('ct-badge ct-tone--red')
  })

  it('offers the daily check and the weekly report as buttons', () => {
    renderDom(<ManualActions announce={noop} />)
    expect(screen.getByRole('button', { name: 'Run Daily Check' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Send Weekly Report' })).toBeTruthy()
  })

  it('shows a run’s success as the spec’s message alone, the run’s figures on a line of their own', () => {
    const { unmount } = renderDom(
      <Notice notice={{ text: 'Daily notification check triggered successfully', detail: '3 notices sent, 0 withheld (notifications paused).', id: 1 }} />,
    )
    const status = screen.getByRole('status')
    expect([...status.querySelectorAll('p')].map((p) => p.textContent)).toEqual([
      'Daily notification check triggered successfully',
      '3 notices sent, 0 withheld (notifications paused).',
    ])
    expect(status.firstElementChild?.className).toBe('pk-alert pk-alert--success')
    unmount()
    renderDom(<Notice notice={{ text: 'Configuration updated successfully!', id: 2 }} />)
    expect(screen.getByRole('status').textContent).toBe('Configuration updated successfully!')
  })

  it('lists the configurations with their recipients, an active switch and a labelled Edit', () => {
    const rows = [config(1, { manager_email: 'boss@example.com', additional_email_1: 'a@example.com', is_active: true }), config(2, { department: 'Testing' })]
    renderDom(<ConfigsTab announce={noop} />, (c) => c.setQueryData(notificationKeys.configs(), rows))
    const table = screen.getByRole('table', { name: 'Email configurations' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Branch', 'Department', 'Manager Email', 'Operations Manager Email', 'Additional Emails', 'Active', 'Actions'])
    expect(screen.getByRole('switch', { name: 'Active: Portland · Service', checked: true })).toBeTruthy()
    expect(screen.getByRole('switch', { name: 'Active: Portland · Testing', checked: false })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Edit Portland · Service' })).toBeTruthy()
    expect(screen.getByRole('cell', { name: 'boss@example.com' })).toBeTruthy()
    expect(screen.getByRole('cell', { name: 'a@example.com' })).toBeTruthy()
  })

  it('edits a configuration with the form of admin §2: four e-mail inputs, Active Configuration, Save Changes and Cancel', () => {
    renderDom(<ConfigDialog config={config(1, { manager_email: 'boss@example.com', is_active: true })} onSaved={noop} onClose={noop} />)
    const dialog = screen.getByRole('dialog', { name: 'Edit Configuration: Portland · Service' })
    const emails = [
      'Manager Email (7-day escalation)',
      'Operations Manager Email (expired escalation)',
      'Additional Email 1 (expired notifications)',
      'Additional Email 2 (expired notifications)',
    ].map((l) => within(dialog).getByRole('textbox', { name: l }) as HTMLInputElement)
    expect(emails.map((e) => e.type)).toEqual(['email', 'email', 'email', 'email'])
    expect(dialog.querySelectorAll('input[type="email"]')).toHaveLength(4)
    expect(emails[0]!.value).toBe('boss@example.com')
    expect(within(dialog).getByRole('checkbox', { name: 'Active Configuration', checked: true })).toBeTruthy()
    expect(within(dialog).getByRole('button', { name: 'Save Changes' })).toBeTruthy()
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeTruthy()
  })

  it('shows the first 20 of 50 log entries with type, recipients, status and an acknowledgement', () => {
    const logs = Array.from({ length: 50 }, (_, i) =>
      log(
        i + 1,
        i === 0
          ? { notification_type: 'manager_escalation', acknowledged_at: '2026-11-25T09:00:00.000Z', recipient_emails: ['boss@example.com'] }
          : i === 1
            ? { status: 'failed', error: 'SMTP down' }
            : {},
      ),
    )
    renderDom(<LogsTab />, (c) => c.setQueryData(notificationKeys.logs(), logs))
    expect(screen.getByText('Showing the latest 20 of 50 fetched entries.')).toBeTruthy()
    const table = screen.getByRole('table', { name: 'Notification log' })
    expect(within(table).getAllByRole('row')).toHaveLength(21)
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Sent', 'Technician', 'Branch', 'Certification', 'Type', 'Recipients', 'Status'])
    const rows = bodyRows(table)
    expect(rows[0]![4]).toBe('Manager escalation (7-day)')
    expect(rows[0]![6]).toContain('Acknowledged Nov 25, 2026')
    expect(rows[1]![6]).toContain('SMTP down')
    expect(within(table).getByText('Failed').className).toBe('ct-badge ct-tone--red')
    expect(within(table).getByRole('cell', { name: 'Tech 20 (Service)' })).toBeTruthy()
    expect(table.textContent).not.toContain('Tech 21')
  })

  it('says when it shows the first expired certifications of more, and offers all of them', () => {
    const { unmount } = renderDom(<ExpiredTab expired={dashboard.expired} total={4369} onShowAll={noop} announce={noop} />)
    expect(screen.getByText('Showing the 2 longest expired of 4369 expired certifications; the branch filter looks at these.')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Show All 4369' })).toBeTruthy()
    unmount()
    renderDom(<ExpiredTab expired={dashboard.expired} total={2} onShowAll={noop} announce={noop} />)
    expect(screen.queryByRole('button', { name: /Show All/ })).toBeNull()
    expect(document.body.textContent).not.toContain('Show All')
  })

  it('lists expired certifications with a branch filter, selection for the bulk reminder and a reminder per row', () => {
    renderDom(<ExpiredTab expired={dashboard.expired} announce={noop} />)
    const branch = screen.getByRole('combobox', { name: 'Branch' }) as HTMLSelectElement
    expect(branch.value).toBe('')
    expect(within(branch).getByRole('option', { selected: true }).textContent).toBe('All Branches')
    const table = screen.getByRole('table', { name: 'Expired certifications' })
    expect(within(table).getByRole('checkbox', { name: 'Select all expired certifications' })).toBeTruthy()
    expect(within(table).getByRole('checkbox', { name: 'Select Tech 1 (tech1@example.com): First Aid (FA)' })).toBeTruthy()
    expect(within(table).getByRole('button', { name: 'Send reminder to Tech 2 (tech2@example.com): First Aid (FA)' })).toBeTruthy()
    expect(buttonTexts()).toContain('Send Reminders to Selected (0)')
    expect(within(table).getByText('Notifications paused')).toBeTruthy()
    // Most overdue first.
    const order = bodyRows(table).map((r) => r.join(' '))
    expect(order.findIndex((r) => r.includes('Tech 2'))).toBeLessThan(order.findIndex((r) => r.includes('Tech 1')))
    expect(table.textContent).toContain('(40 days ago)')
  })
})
