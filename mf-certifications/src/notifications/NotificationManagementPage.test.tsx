// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render as renderInto, screen, within } from '@testing-library/react'
import type { ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { notificationKeys } from './data/apiHooks.ts'
import { ComplianceOverview } from './ComplianceOverview.tsx'
import { ConfigDialog } from './ConfigDialog.tsx'
import { ConfigsTab } from './ConfigsTab.tsx'
import { ExpiredTab } from './ExpiredTab.tsx'
import { LogsTab } from './LogsTab.tsx'
import { ManualActions } from './ManualActions.tsx'
import { NotificationManagementView } from './NotificationManagementPage.tsx'
import { config, dashboard, log } from './test-fixtures.ts'
import { Notice } from '../shared/Notice.tsx'

const noop = () => undefined
const render = (node: ReactNode, seed?: (c: QueryClient) => void) => {
  const client = new QueryClient()
  seed?.(client)
  return renderToStaticMarkup(<QueryClientProvider client={client}>{node}</QueryClientProvider>)
}
/** Renders into the test's document, for queries by role and text. */
const renderDom = (node: ReactNode, seed?: (c: QueryClient) => void) => {
  // Seeded data stays fresh: a test reads what it put there, with no request behind it.
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } })
  seed?.(client)
  return renderInto(<QueryClientProvider client={client}>{node}</QueryClientProvider>)
}

describe('Certification Notification Management', () => {
  it('opens with its title, the way back, the overview, manual actions and the three tabs', () => {
    const html = render(<NotificationManagementView navigate={noop} />, (c) => c.setQueryData(notificationKeys.dashboard(), dashboard))
    expect(html).toMatch(/<h1 tabindex="-1"[^>]*>Certification Notification Management<\/h1>/)
    expect(html).toContain('<a href="/admin-dashboard">Back to Admin Dashboard</a>')
    expect(html).toContain('>Compliance Overview</h2>')
    expect(html).toContain('>Manual Actions</h2>')
    expect(html).toMatch(/<div role="tablist" aria-label="Notification settings"/)
    for (const t of ['Email Configurations', 'Notification Logs', 'Expired Certifications']) expect(html).toMatch(new RegExp(`role="tab"[^>]*>${t}</button>`))
    expect(html).toMatch(/aria-selected="true"[^>]*>Email Configurations</)
  })

  it('shows organisation and branch compliance in the spec’s colours, 100% for a branch without technicians', () => {
    const html = render(<ComplianceOverview compliance={dashboard.compliance} />)
    expect(html).toContain('<dt>Organisation Compliance</dt><dd aria-describedby="cn-compliance-help"><span class="ct-badge ct-tone--yellow">80%</span> <span class="ct-figure-of">8 of 10</span>')
    for (const col of ['Branch', 'Compliance', 'Technicians', 'No expired certifications', 'Requirements met', 'Expired Certifications', 'Expiring Within 30 Days'])
      expect(html).toContain(`<th scope="col">${col}</th>`)
    expect(html).toMatch(/<th scope="row"[^>]*>Portland<\/th><td><span class="ct-badge ct-tone--green">100%<\/span>/)
    expect(html).toMatch(/<th scope="row"[^>]*>Seattle<\/th><td><span class="ct-badge ct-tone--yellow">75%<\/span>/)
    expect(html).toMatch(/<th scope="row"[^>]*>Anchorage<\/th><td><span class="ct-badge ct-tone--red">0%<\/span>/)
    expect(html).toMatch(/<th scope="row"[^>]*>Tri-Cities<\/th><td><span class="ct-badge ct-tone--green">100%<\/span>/)
  })

  it('gives technicians without a branch their own row, so the rows add up to the organisation (issue 23)', () => {
    const org = { technicians: 3, compliant: 2, non_compliant: 1, expired_certifications: 1, expiring_30_days: 0, percentage: 67, requirements_met: 1 }
    const html = render(
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
    expect(html).toMatch(/<th scope="row"[^>]*>No branch<\/th><td><span class="ct-badge ct-tone--red">0%<\/span><\/td><td>1<\/td><td>0<\/td><td>0<\/td>/)
  })

  it('offers the daily check and the weekly report as buttons', () => {
    const html = render(<ManualActions announce={noop} />)
    expect(html).toContain('>Run Daily Check</button>')
    expect(html).toContain('>Send Weekly Report</button>')
  })

  it('shows a run’s success as the spec’s message alone, the run’s figures on a line of their own', () => {
    const { unmount } = renderDom(<Notice notice={{ text: 'Daily notification check triggered successfully', detail: '3 notices sent, 0 withheld (notifications paused).', id: 1 }} />)
    const status = screen.getByRole('status')
    expect([...status.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['Daily notification check triggered successfully', '3 notices sent, 0 withheld (notifications paused).'])
    expect(status.firstElementChild?.className).toBe('pk-alert pk-alert--success')
    unmount()
    renderDom(<Notice notice={{ text: 'Configuration updated successfully!', id: 2 }} />)
    expect(screen.getByRole('status').textContent).toBe('Configuration updated successfully!')
  })

  it('lists the configurations with their recipients, an active switch and a labelled Edit', () => {
    const rows = [config(1, { manager_email: 'boss@example.com', additional_email_1: 'a@example.com', is_active: true }), config(2, { department: 'Testing' })]
    renderDom(<ConfigsTab announce={noop} />, (c) => c.setQueryData(notificationKeys.configs(), rows))
    const table = screen.getByRole('table')
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Branch', 'Department', 'Manager Email', 'Operations Manager Email', 'Additional Emails', 'Active', 'Actions'])
    expect(screen.getByRole('switch', { name: 'Active: Portland · Service', checked: true })).toBeTruthy()
    expect(screen.getByRole('switch', { name: 'Active: Portland · Testing', checked: false })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Edit Portland · Service' })).toBeTruthy()
    expect(screen.getByRole('cell', { name: 'boss@example.com' })).toBeTruthy()
    expect(screen.getByRole('cell', { name: 'a@example.com' })).toBeTruthy()
  })

  it('edits a configuration with the form of admin §2: four e-mail inputs, Active Configuration, Save Changes and Cancel', () => {
    const html = render(<ConfigDialog config={config(1, { manager_email: 'boss@example.com', is_active: true })} onSaved={noop} onClose={noop} />)
    expect(html).toContain('>Edit Configuration: Portland · Service</h2>')
    for (const l of ['Manager Email (7-day escalation)', 'Operations Manager Email (expired escalation)', 'Additional Email 1 (expired notifications)', 'Additional Email 2 (expired notifications)'])
      expect(html).toContain(`>${l}</label>`)
    expect(html.match(/type="email"/g)).toHaveLength(4)
    expect(html).toContain('value="boss@example.com"')
    expect(html).toMatch(/<input type="checkbox" checked=""\/>Active Configuration/)
    expect(html).toContain('>Save Changes</button>')
    expect(html).toContain('>Cancel</button>')
  })

  it('shows the first 20 of 50 log entries with type, recipients, status and an acknowledgement', () => {
    const logs = Array.from({ length: 50 }, (_, i) =>
      log(i + 1, i === 0 ? { notification_type: 'manager_escalation', acknowledged_at: '2026-11-25T09:00:00.000Z', recipient_emails: ['boss@example.com'] } : i === 1 ? { status: 'failed', error: 'SMTP down' } : {}),
    )
    const html = render(<LogsTab />, (c) => c.setQueryData(notificationKeys.logs(), logs))
    expect(html).toContain('Showing the latest 20 of 50 fetched entries.')
    expect(html.match(/<tr>/g)).toHaveLength(21)
    for (const col of ['Sent', 'Technician', 'Branch', 'Certification', 'Type', 'Recipients', 'Status']) expect(html).toContain(`<th scope="col">${col}</th>`)
    expect(html).toContain('Manager escalation (7-day)')
    expect(html).toContain('Acknowledged Nov 25, 2026')
    expect(html).toContain('<span class="ct-badge ct-tone--red">Failed</span>')
    expect(html).toContain('SMTP down')
    expect(html).toContain('<td>Tech 20 (Service)</td>')
    expect(html).not.toContain('Tech 21')
  })

  it('says when it shows the first expired certifications of more, and offers all of them', () => {
    const html = render(<ExpiredTab expired={dashboard.expired} total={4369} onShowAll={noop} announce={noop} />)
    expect(html).toContain('Showing the 2 longest expired of 4369 expired certifications; the branch filter looks at these.')
    expect(html).toContain('>Show All 4369</button>')
    expect(render(<ExpiredTab expired={dashboard.expired} total={2} onShowAll={noop} announce={noop} />)).not.toContain('Show All')
  })

  it('lists expired certifications with a branch filter, selection for the bulk reminder and a reminder per row', () => {
    const html = render(<ExpiredTab expired={dashboard.expired} announce={noop} />)
    expect(html).toContain('>Branch</label>')
    expect(html).toContain('<option value="" selected="">All Branches</option>')
    expect(html).toContain('aria-label="Select all expired certifications"')
    expect(html).toContain('aria-label="Select Tech 1: First Aid (FA)"')
    expect(html).toContain('aria-label="Send reminder to Tech 2: First Aid (FA)"')
    expect(html).toContain('>Send Reminders to Selected (0)</button>')
    expect(html).toContain('Notifications paused')
    // Most overdue first.
    expect(html.indexOf('Tech 2')).toBeLessThan(html.indexOf('Tech 1'))
    expect(html).toContain('(40 days ago)')
  })
})
