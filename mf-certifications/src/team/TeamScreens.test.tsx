// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { LeaderboardResponse, LeaderboardRow } from '@portal/contracts'
import { figure, renderWithClient as renderDom, memberDetail, promotionRequest, teamRow, TODAY, USER_ID } from '../test/index.ts'
import { PromotionItem } from './PendingPromotions.tsx'
import { SummaryCards, TeamTable } from './TeamDashboardPage.tsx'
import { TeamMemberBody } from './TeamMemberPage.tsx'
import { ManagerControls, parseRatio } from './ManagerControls.tsx'
import { LeaderboardState, memberStanding } from './RevenueOverview.tsx'

const noop = () => undefined
/** The visible words of every button, in order. */
const buttonTexts = () => screen.getAllByRole('button').map((b) => b.textContent)
/** The member's row of a leaderboard: marked current (and highlighted), its cells as text. */
const mineIn = (table: HTMLElement) => {
  const row = within(table).getByRole('row', { current: true })
  expect(row.className).toBe('ct-mine')
  return within(row).getAllByRole('cell')
}

// Whatever is not in the cache stays loading: no request leaves the test.
beforeEach(() => {
  vi.stubGlobal('fetch', () => new Promise(() => undefined))
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('team dashboard', () => {
  it('shows the summary cards: the five of learner §2 and Overdue (people and their assignments in words)', () => {
    const { rerender } = renderDom(
      <SummaryCards summary={{ total_team: 12, compliant: 7, avg_progress: 83, expired: 2, expiring_soon: 0, overdue_members: 4, overdue_assignments: 7 }} />,
    )
    const cards = screen.getByRole('region', { name: 'Team summary' })
    expect(
      within(cards)
        .getAllByRole('term')
        .map((t) => t.textContent),
    ).toEqual(['Total Team', 'Compliant', 'Avg Progress', 'Expired', 'Expiring Soon', 'Overdue'])
    expect(figure(cards, 'Avg Progress').textContent).toBe('83%')
    const expired = figure(cards, 'Expired')
    expect(expired.textContent).toBe('2')
    expect(within(expired).getByText('2').className).toContain('ct-tone--red')
    const overdue = figure(cards, 'Overdue')
    expect(overdue.textContent).toBe('4 people, 7 assignments')
    expect(within(overdue).getByText('4 people, 7 assignments').className).toContain('ct-tone--red')
    rerender(<SummaryCards summary={{ total_team: 12, compliant: 7, avg_progress: 83, expired: 0, expiring_soon: 0, overdue_members: 1, overdue_assignments: 1 }} />)
    expect(figure(screen.getByRole('region', { name: 'Team summary' }), 'Overdue').textContent).toBe('1 person, 1 assignment')
    rerender(<SummaryCards summary={{ total_team: 12, compliant: 7, avg_progress: 83, expired: 0, expiring_soon: 0, overdue_members: 0, overdue_assignments: 0 }} />)
    expect(figure(screen.getByRole('region', { name: 'Team summary' }), 'Overdue').textContent).toBe('0')
  })

  it('lists members with sortable headers, coloured progress and issues, tier and a View link to the right route', () => {
    const rows = [
      teamRow(),
      teamRow({
        id: '2c1f7a0e-6b3d-4c8e-9f21-5a4b3c2d1e0f',
        name: 'Sam Seattle',
        completion_percentage: 60,
        expired_certifications: 1,
        tier: { current_tier: 2 },
        overdue_assignments: 2,
      }),
    ]
    renderDom(<TeamTable rows={rows} order={{ sort: 'progress', order: 'desc' }} onSort={noop} viewPath={(id) => `/admin/technician/${id}`} navigate={noop} />)
    const headers = screen.getAllByRole('columnheader')
    expect(headers.map((h) => h.textContent!.replace(/[▲▼↕]/, ''))).toEqual(['Technician', 'Location', 'Progress', 'Issues', 'Overdue', 'Tier', 'Actions'])
    for (const h of ['Technician', 'Location', 'Progress', 'Issues', 'Overdue', 'Tier']) {
      const header = headers.find((c) => c.textContent?.startsWith(h))
      expect(within(header!).getByRole('button', { name: new RegExp(`^${h}`) })).toBeTruthy()
      expect(header!.getAttribute('aria-sort')).toBe(h === 'Progress' ? 'descending' : 'none')
    }
    expect(screen.getByText('100% Compliant').className).toContain('ct-tone--green')
    expect(screen.getByText('60%').className).toContain('ct-tone--orange')
    expect(screen.getByText('1 expired').className).toContain('ct-tone--red')
    // Overdue assignments in words, red when there are any.
    expect(screen.getByText('2 assignments').className).toContain('ct-tone--red')
    expect(
      within(screen.getByRole('row', { name: /^Pat Portland/ }))
        .getAllByText('None')
        .map((c) => c.className),
    ).toEqual(['pk-muted', 'pk-muted'])
    expect(screen.getAllByText('Portland · Service').length).toBeGreaterThan(0)
    expect(screen.getByRole('cell', { name: 'Tier 2' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'View Sam Seattle' }).getAttribute('href')).toBe('/admin/technician/2c1f7a0e-6b3d-4c8e-9f21-5a4b3c2d1e0f')
  })

  it('gives an admin a pending request with Approve and Deny', () => {
    renderDom(<PromotionItem request={promotionRequest()} onDecide={noop} />)
    const item = screen.getByRole('listitem')
    // The tier asked for stands out.
    const to = within(item).getByText('Tier 2')
    expect(to.tagName).toBe('STRONG')
    expect(to.parentElement!.textContent).toMatch(/^Tier 1 to Tier 2/)
    expect(within(item).getByText('Leads the Portland service crew.')).toBeTruthy()
    expect(within(item).getByText('Requested by Morgan Manager on Nov 20, 2026')).toBeTruthy()
    const name = within(item).getByRole('heading', { level: 3 }).textContent
    expect(within(item).getByRole('button', { name: `Approve promotion of ${name}` }).textContent).toBe('Approve')
    expect(within(item).getByRole('button', { name: `Deny promotion of ${name}` }).textContent).toBe('Deny')
  })
})

describe('team member detail', () => {
  it('puts Manager Controls before the profile and a drawn trend with the leaderboard after it', () => {
    const { container } = renderDom(<TeamMemberBody detail={memberDetail()} today={TODAY} />)
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)
    const order = ['Manager Controls', 'Pat Portland', 'Revenue Overview'].map((t) => headings.indexOf(t))
    expect(order.every((i) => i > -1)).toBe(true)
    expect(order).toEqual([...order].sort((a, b) => a - b))
    expect((screen.getByRole('spinbutton', { name: 'Rev/Pay Ratio' }) as HTMLInputElement).value).toBe('32.50')
    for (const b of ['Update Ratio', 'Request Tier Promotion', 'Send Reminder', 'Generate Report']) expect(buttonTexts()).toContain(b)
    const trend = screen.getByRole('img', {
      name: /^Gross revenue of Pat Portland, last 6 months\. Jun 2026: no revenue recorded; Jul 2026: no revenue recorded; Aug 2026: \$9,000\.00, ratio 30\.00/,
    })
    expect(trend.tagName.toLowerCase()).toBe('svg')
    // The months with revenue are drawn as bars.
    expect(container.querySelectorAll('rect')).toHaveLength(3)
    expect(trend.querySelectorAll('rect')).toHaveLength(3)
    expect(screen.getByText(/^Pat Portland is number 2 on this month/)).toBeTruthy()
    const mine = mineIn(screen.getByRole('table', { name: /^Leaderboard: This Month/ }))
    expect(mine.map((c) => c.textContent).slice(0, 3)).toEqual(['2', 'Pat Portland', '$8,000.00'])
    expect(mine[3]!.textContent).toMatch(/^20\.00/)
    expect(within(mine[3]!).getByText(/^20\.00/).className).toBe('ct-badge ct-tone--red')
    expect(buttonTexts()).not.toContain('Add Certification')
  })

  it('switches the leaderboard by period: Monthly first, from the detail', () => {
    renderDom(<TeamMemberBody detail={memberDetail()} today={TODAY} />)
    const list = screen.getByRole('tablist', { name: 'Leaderboard period' })
    expect(list.className).toBe('pk-tabs')
    const monthly = within(list).getByRole('tab', { name: 'Monthly', selected: true })
    expect([monthly.id, monthly.className]).toEqual(['ct-leaderboard-monthly', 'pk-tab'])
    for (const t of ['Quarterly', 'Yearly']) {
      const tab = within(list).getByRole('tab', { name: t, selected: false })
      expect([tab.id, tab.className]).toEqual([`ct-leaderboard-${t.toLowerCase()}`, 'pk-tab'])
    }
    const panel = screen.getByRole('tabpanel', { name: 'Monthly' })
    expect(panel.id).toBe('ct-leaderboard-monthly-panel')
    expect(within(panel).getByRole('heading', { level: 3, name: 'Leaderboard: This Month (Nov 2026)' })).toBeTruthy()
  })

  it('says where the member stands on a quarter or year, highlights their row, and shows loading and failure', () => {
    const row = (n: number, over: Partial<LeaderboardRow> = {}): LeaderboardRow => ({
      rank: n,
      user_id: `00000000-0000-4000-8000-00000000000${n}`,
      name: `Tech ${n}`,
      gross_revenue: 50000 - n * 1000,
      rev_pay_ratio: 30,
      ...over,
    })
    const quarter: LeaderboardResponse = { period: 'quarterly', from: '2026-10', to: '2026-12', rows: [row(1), row(2), row(3, { user_id: USER_ID, name: 'Pat Portland' })] }
    const state = (board: LeaderboardResponse | undefined, error: unknown = null) =>
      renderDom(<LeaderboardState name="Pat Portland" userId={USER_ID} board={board} error={error} onRetry={noop} />)
    const first = state(quarter)
    expect(screen.getByText("Pat Portland is number 3 on this quarter's leaderboard.")).toBeTruthy()
    const board = screen.getByRole('table', { name: 'Leaderboard: This Quarter (Oct 2026 to Dec 2026)' })
    expect(
      mineIn(board)
        .map((c) => c.textContent)
        .slice(0, 2),
    ).toEqual(['3', 'Pat Portland'])
    first.unmount()

    const fullYear: LeaderboardResponse = { period: 'yearly', from: '2026-01', to: '2026-12', rows: [1, 2, 3, 4, 5].map((n) => row(n)) }
    const year = state(fullYear)
    expect(screen.getByText("Pat Portland is not in this year's top 5.")).toBeTruthy()
    expect(within(screen.getByRole('table')).queryByRole('row', { current: true })).toBeNull()
    expect(year.container.querySelector('.ct-mine')).toBeNull()
    year.unmount()
    expect(memberStanding('Pat Portland', USER_ID, { ...fullYear, rows: fullYear.rows.slice(0, 2) })).toBe('Pat Portland has no revenue recorded this year.')
    expect(memberStanding('Pat Portland', USER_ID, { ...fullYear, period: 'monthly' }, 7)).toBe("Pat Portland is number 7 on this month's leaderboard.")

    const loading = state(undefined)
    const spinner = screen.getByRole('status')
    expect([spinner.getAttribute('aria-live'), spinner.className, spinner.textContent]).toEqual(['polite', 'pk-spinner', 'Loading leaderboard...'])
    loading.unmount()
    const failed = state(undefined, new Error('network'))
    expect(failed.container.textContent).toContain('Failed to load revenue data')
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeTruthy()
  })

  it('shows a pending request instead of the promotion button, and nothing to promote at Tier 3', () => {
    const pending = renderDom(<ManagerControls detail={memberDetail({ promotion_requests: [promotionRequest()] })} announce={noop} />)
    expect(pending.container.textContent).toContain('Pending: Tier 2 requested by Morgan Manager on Nov 20, 2026.')
    expect(buttonTexts()).not.toContain('Request Tier Promotion')
    pending.unmount()
    const top = memberDetail()
    top.profile.tier.current_tier = 3
    const { container } = renderDom(<ManagerControls detail={top} announce={noop} />)
    expect(container.textContent).toContain('Tier 3 is the highest tier.')
  })

  it('checks the ratio typed', () => {
    expect(parseRatio(' ')).toEqual({ error: 'Please enter a rev/pay ratio' })
    expect(parseRatio('31.255')).toHaveProperty('error')
    expect(parseRatio('31.25')).toEqual({ ratio: 31.25 })
  })
})
