// @vitest-environment happy-dom
import { COMPLIANCE_MEASURES, type User } from '@portal/contracts'
import { screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { figure, renderWithClient as render, USER_ID } from '../test/index.ts'
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
const summary = {
  total: 2,
  valid: 1,
  expiring_soon: 1,
  expired: 1,
  required_total: 1,
  required_met: 1,
  current_tier: 0 as const,
  next_tier_progress: { tier_level: 1 as const, required_total: 2, required_met: 1, percent: 50 },
}

/** The link of a card, as shown (a link drawn as a button). */
const linkIn = (card: HTMLElement, name: string) => {
  const link = within(card).getByRole('link', { name })
  expect(link.className).toBe('pk-btn')
  return link.getAttribute('href')
}

// Whatever is not in the cache stays loading: no request leaves the test.
beforeEach(() => {
  vi.stubGlobal('fetch', () => new Promise(() => undefined))
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('user dashboard certification cards', () => {
  it('shows the figures, the progress to the next tier and the link to the profile', () => {
    render(<DashboardCardsView user={user()} navigate={noop} />, (c) => c.setQueryData(dashboardKeys.summary(USER_ID), summary))
    const tracking = screen.getByRole('region', { name: 'Certification Tracking' })
    const expiring = figure(tracking, 'Expiring Soon')
    expect(expiring.textContent).toBe('1')
    expect(within(expiring).getByText('1').className).toBe('ct-badge ct-tone--yellow')
    expect(within(tracking).getByRole('progressbar', { name: 'Progress to Tier 1' }).getAttribute('aria-valuenow')).toBe('50')
    const mine = screen.getByRole('region', { name: 'My Certifications' })
    expect(linkIn(mine, 'View My Certifications')).toBe('/technician/profile')
    expect(screen.queryByText('Team Management')).toBeNull()
  })

  it('adds Team Management for admins and managers, not for technicians', () => {
    for (const roles of [{ is_admin: true }, { is_manager: true }]) {
      const { unmount } = render(<DashboardCardsView user={user(roles)} navigate={noop} />, (c) => c.setQueryData(dashboardKeys.summary(USER_ID), summary))
      expect(linkIn(screen.getByRole('region', { name: 'Team Management' }), 'Open Team Dashboard')).toBe('/manager/dashboard')
      unmount()
    }
    render(<DashboardCardsView user={user()} navigate={noop} />, (c) => c.setQueryData(dashboardKeys.summary(USER_ID), summary))
    expect(screen.queryByRole('link', { name: 'Open Team Dashboard' })).toBeNull()
    expect(screen.queryByText('Open Team Dashboard')).toBeNull()
  })

  it('waits for branch and department before certification features (learner §2)', () => {
    const { container } = render(<DashboardCardsView user={user({ department: null })} navigate={noop} />)
    expect(screen.getAllByText(LOCKED_TEXT)).toHaveLength(2)
    expect(container.querySelector('a[href="/technician/profile"]')).toBeNull()
    expect(screen.queryByRole('link')).toBeNull()
  })
})

describe('admin Certifications tab', () => {
  it('shows the four cards of admin §2 with their figures, each opening its screen', () => {
    render(<AdminCertificationsTabView navigate={noop} />, (c) =>
      c.setQueryData(dashboardKeys.overview(), {
        types_total: 15,
        types_active: 14,
        technicians: 5,
        requirements_met: 5,
        no_expired: 5,
        expired: 0,
        expiring_soon: 2,
        as_of: '2026-11-28',
      }),
    )
    const card = (name: string) => screen.getByRole('heading', { level: 3, name }).closest('li')!
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Team Management', 'Certification Admin', 'Notification Settings', 'Revenue Entry'])
    expect(linkIn(card('Certification Admin'), 'Manage Certifications')).toBe('/admin/certifications')
    expect(linkIn(card('Revenue Entry'), 'Open Revenue Entry')).toBe('/admin/revenue-entry')
    expect(linkIn(card('Notification Settings'), 'Open Notification Settings')).toBe('/admin/certification-notifications')
    const met = figure(card('Team Management'), 'Requirements met')
    expect(within(card('Team Management')).getByRole('definition', { description: COMPLIANCE_MEASURES.requirementsMet.help })).toBe(met)
    expect(within(met).getByText('5 of 5 (100%)').className).toBe('ct-badge ct-tone--green')
    expect(screen.getAllByRole('term').map((t) => t.textContent)).toContain('No expired certifications')
  })
})
