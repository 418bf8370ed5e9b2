// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render as renderInto, screen, within } from '@testing-library/react'
import type { ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { LeaderboardResponse, LeaderboardRow } from '@portal/contracts'
import { memberDetail, promotionRequest, teamRow, TODAY, USER_ID } from '../test/fixtures.ts'
import { PromotionItem } from './PendingPromotions.tsx'
import { SummaryCards, TeamTable } from './TeamDashboardPage.tsx'
import { TeamMemberBody } from './TeamMemberPage.tsx'
import { ManagerControls, parseRatio } from './ManagerControls.tsx'
import { LeaderboardState, memberStanding } from './RevenueOverview.tsx'

const render = (node: ReactNode) => renderToStaticMarkup(<QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>)
const renderDom = (node: ReactNode) => renderInto(<QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } })}>{node}</QueryClientProvider>)
const noop = () => undefined

describe('team dashboard', () => {
  it('shows the five summary cards', () => {
    const html = render(<SummaryCards summary={{ total_team: 12, compliant: 7, avg_progress: 83, expired: 2, expiring_soon: 0 }} />)
    for (const label of ['Total Team', 'Compliant', 'Avg Progress', 'Expired', 'Expiring Soon']) expect(html).toContain(`<dt>${label}</dt>`)
    expect(html).toContain('83%')
    expect(html).toContain('ct-tone--red">2</span>')
  })

  it('lists members with sortable headers, coloured progress and issues, tier and a View link to the right route', () => {
    const rows = [teamRow(), teamRow({ id: '2c1f7a0e-6b3d-4c8e-9f21-5a4b3c2d1e0f', name: 'Sam Seattle', completion_percentage: 60, expired_certifications: 1, tier: { current_tier: 2 } })]
    renderDom(<TeamTable rows={rows} order={{ sort: 'progress', order: 'desc' }} onSort={noop} viewPath={(id) => `/admin/technician/${id}`} navigate={noop} />)
    const headers = screen.getAllByRole('columnheader')
    for (const h of ['Technician', 'Location', 'Progress', 'Issues', 'Tier']) {
      const header = headers.find((c) => c.textContent?.startsWith(h))
      expect(within(header!).getByRole('button', { name: new RegExp(`^${h}`) })).toBeTruthy()
      expect(header!.getAttribute('aria-sort')).toBe(h === 'Progress' ? 'descending' : 'none')
    }
    expect(screen.getByText('100% Compliant').className).toContain('ct-tone--green')
    expect(screen.getByText('60%').className).toContain('ct-tone--orange')
    expect(screen.getByText('1 expired').className).toContain('ct-tone--red')
    expect(screen.getAllByText('Portland · Service').length).toBeGreaterThan(0)
    expect(screen.getByRole('cell', { name: 'Tier 2' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'View Sam Seattle' }).getAttribute('href')).toBe('/admin/technician/2c1f7a0e-6b3d-4c8e-9f21-5a4b3c2d1e0f')
  })

  it('gives an admin a pending request with Approve and Deny', () => {
    const html = render(<PromotionItem request={promotionRequest()} onDecide={noop} />)
    expect(html).toContain('Tier 1 to <strong>Tier 2</strong>')
    expect(html).toContain('Leads the Portland service crew.')
    expect(html).toContain('Requested by Morgan Manager on Nov 20, 2026')
    expect(html).toContain('>Approve</button>')
    expect(html).toContain('>Deny</button>')
  })
})

describe('team member detail', () => {
  it('puts Manager Controls before the profile and a drawn trend with the leaderboard after it', () => {
    const html = render(<TeamMemberBody detail={memberDetail()} today={TODAY} />)
    const order = ['Manager Controls', 'Pat Portland</h2>', 'Revenue Overview'].map((t) => html.indexOf(t))
    expect(order).toEqual([...order].sort((a, b) => a - b))
    expect(order[0]).toBeGreaterThan(-1)
    expect(html).toContain('value="32.50"')
    for (const b of ['Update Ratio', 'Request Tier Promotion', 'Send Reminder', 'Generate Report']) expect(html).toContain(`>${b}</button>`)
    expect(html).toMatch(/<svg[^>]*role="img"[^>]*aria-label="Gross revenue of Pat Portland, last 6 months\. Jun 2026: no revenue recorded; Jul 2026: no revenue recorded; Aug 2026: \$9,000.00, ratio 30.00/)
    expect(html.match(/<rect /g)).toHaveLength(3)
    expect(html).toContain('Pat Portland is number 2 on this month')
    expect(html).toMatch(/<tr class="ct-mine" aria-current="true"><td>2<\/td><td>Pat Portland<\/td><td>\$8,000.00<\/td><td><span class="ct-badge ct-tone--red">20.00/)
    expect(html).not.toContain('>Add Certification</button>')
  })

  it('switches the leaderboard by period: Monthly first, from the detail', () => {
    const html = render(<TeamMemberBody detail={memberDetail()} today={TODAY} />)
    expect(html).toContain('<div role="tablist" aria-label="Leaderboard period" class="pk-tabs">')
    expect(html).toMatch(/role="tab" id="ct-leaderboard-monthly" class="pk-tab" aria-selected="true"[^>]*>Monthly<\/button>/)
    for (const t of ['Quarterly', 'Yearly']) expect(html).toMatch(new RegExp(`role="tab" id="ct-leaderboard-${t.toLowerCase()}" class="pk-tab" aria-selected="false"[^>]*>${t}</button>`))
    expect(html).toMatch(/role="tabpanel" id="ct-leaderboard-monthly-panel" aria-labelledby="ct-leaderboard-monthly"/)
    expect(html).toContain('Leaderboard: This Month (Nov 2026)')
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
      render(<LeaderboardState name="Pat Portland" userId={USER_ID} board={board} error={error} onRetry={noop} />)
    const html = state(quarter)
    expect(html).toContain('Pat Portland is number 3 on this quarter&#x27;s leaderboard.')
    expect(html).toContain('Leaderboard: This Quarter (Oct 2026 to Dec 2026)')
    expect(html).toMatch(/<tr class="ct-mine" aria-current="true"><td>3<\/td><td>Pat Portland<\/td>/)

    const fullYear: LeaderboardResponse = { period: 'yearly', from: '2026-01', to: '2026-12', rows: [1, 2, 3, 4, 5].map((n) => row(n)) }
    expect(state(fullYear)).toContain('Pat Portland is not in this year&#x27;s top 5.')
    expect(state(fullYear)).not.toContain('ct-mine')
    expect(memberStanding('Pat Portland', USER_ID, { ...fullYear, rows: fullYear.rows.slice(0, 2) })).toBe('Pat Portland has no revenue recorded this year.')
    expect(memberStanding('Pat Portland', USER_ID, { ...fullYear, period: 'monthly' }, 7)).toBe("Pat Portland is number 7 on this month's leaderboard.")

    expect(state(undefined)).toContain('role="status" aria-live="polite" class="pk-spinner"><span>Loading leaderboard...</span>')
    const failed = state(undefined, new Error('network'))
    expect(failed).toContain('Failed to load revenue data')
    expect(failed).toContain('>Try Again</button>')
  })

  it('shows a pending request instead of the promotion button, and nothing to promote at Tier 3', () => {
    const pending = render(<ManagerControls detail={memberDetail({ promotion_requests: [promotionRequest()] })} announce={noop} />)
    expect(pending).toContain('Pending: Tier 2 requested by Morgan Manager on Nov 20, 2026.')
    expect(pending).not.toContain('>Request Tier Promotion</button>')
    const top = memberDetail()
    top.profile.tier.current_tier = 3
    expect(render(<ManagerControls detail={top} announce={noop} />)).toContain('Tier 3 is the highest tier.')
  })

  it('checks the ratio typed', () => {
    expect(parseRatio(' ')).toEqual({ error: 'Please enter a rev/pay ratio' })
    expect(parseRatio('31.255')).toHaveProperty('error')
    expect(parseRatio('31.25')).toEqual({ ratio: 31.25 })
  })
})
