import type { User } from '@portal/contracts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { USER_ID } from '../test/fixtures.ts'
import { AdminCertificationsTabView } from './AdminCertificationsTab.tsx'
import { dashboardKeys } from './data/apiHooks.ts'
import { DashboardCardsView, LOCKED_TEXT } from './DashboardCards.tsx'

const noop = () => undefined
const user = (over: Partial<User> = {}): User => ({
  id: USER_ID,
  name: 'Pat',
  email: 'tech.portland@example.com',
  is_admin: false,
  is_manager: false,
  manager_scope: { branches: [], departments: [] },
  branch: 'Portland',
  department: 'Service',
  user_group: null,
  employee_id: null,
  hire_date: null,
  email_verified: true,
  created_at: '2026-01-01T00:00:00.000Z',
  ...over,
})
const render = (node: ReactNode, seed?: (c: QueryClient) => void) => {
  const client = new QueryClient()
  seed?.(client)
  return renderToStaticMarkup(<QueryClientProvider client={client}>{node}</QueryClientProvider>)
}
const summary = { total: 2, valid: 1, expiring_soon: 1, expired: 1, required_total: 1, required_met: 1, current_tier: 0 as const, next_tier_progress: { tier_level: 1 as const, required_total: 2, required_met: 1, percent: 50 } }

describe('user dashboard certification cards', () => {
  it('shows the figures, the progress to the next tier and the link to the profile', () => {
    const html = render(<DashboardCardsView user={user()} navigate={noop} />, (c) => c.setQueryData(dashboardKeys.summary(USER_ID), summary))
    expect(html).toContain('>Certification Tracking</h2>')
    expect(html).toContain('<dt>Expiring Soon</dt><dd><span class="ct-badge ct-tone--yellow">1</span></dd>')
    expect(html).toMatch(/role="progressbar" aria-label="Progress to Tier 1"[^>]*aria-valuenow="50"/)
    expect(html).toContain('>My Certifications</h2>')
    expect(html).toContain('<a href="/technician/profile" class="pk-btn">View My Certifications</a>')
    expect(html).not.toContain('Team Management')
  })

  it('adds Team Management for admins and managers, not for technicians', () => {
    for (const roles of [{ is_admin: true }, { is_manager: true }]) {
      const html = render(<DashboardCardsView user={user(roles)} navigate={noop} />, (c) => c.setQueryData(dashboardKeys.summary(USER_ID), summary))
      expect(html).toContain('<a href="/manager/dashboard" class="pk-btn">Open Team Dashboard</a>')
    }
    const technician = render(<DashboardCardsView user={user()} navigate={noop} />, (c) => c.setQueryData(dashboardKeys.summary(USER_ID), summary))
    expect(technician).not.toContain('Open Team Dashboard')
  })

  it('waits for branch and department before certification features (learner §2)', () => {
    const html = render(<DashboardCardsView user={user({ department: null })} navigate={noop} />)
    expect(html.match(new RegExp(LOCKED_TEXT, 'g'))).toHaveLength(2)
    expect(html).not.toContain('/technician/profile')
  })
})

describe('admin Certifications tab', () => {
  it('shows the four cards of admin §2 with their figures, each opening its screen', () => {
    const html = render(<AdminCertificationsTabView navigate={noop} />, (c) =>
      c.setQueryData(dashboardKeys.overview(), { types_total: 15, types_active: 14, technicians: 5, requirements_met: 5, no_expired: 5, expired: 0, expiring_soon: 2, as_of: '2026-11-28' }),
    )
    for (const t of ['Team Management', 'Certification Admin', 'Notification Settings', 'Revenue Entry']) expect(html).toContain(`>${t}</h3>`)
    expect(html).toContain('<a href="/admin/certifications" class="pk-btn">Manage Certifications</a>')
    expect(html).toContain('<a href="/admin/revenue-entry" class="pk-btn">Open Revenue Entry</a>')
    expect(html).toContain('<a href="/admin/certification-notifications" class="pk-btn">Open Notification Settings</a>')
    expect(html).toContain('<dt>Requirements met</dt><dd aria-describedby="figure-help-requirements-met"><span class="ct-badge ct-tone--green">5 of 5 (100%)</span>')
    expect(html).toContain('<dt>No expired certifications</dt>')
  })
})
