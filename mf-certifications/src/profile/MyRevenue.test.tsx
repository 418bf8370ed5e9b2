// @vitest-environment happy-dom
import type { MyLeaderboardResponse, RevenueTrendResponse } from '@portal/contracts'
import { screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { answerApi, bodyRows, json, profile, renderWithClient, TODAY } from '../test/index.ts'
import MyRevenue from './MyRevenue.tsx'
import { ProfileBody } from './ProfileBody.tsx'

const none = { recorded: false, gross_revenue: 0, pay_amount: null, rev_pay_ratio: null }
const trend: RevenueTrendResponse = {
  from: '2026-06',
  to: '2026-11',
  months: [
    { month: '2026-06', ...none },
    { month: '2026-07', recorded: true, gross_revenue: 9000.5, pay_amount: 300, rev_pay_ratio: 30 },
    { month: '2026-08', ...none },
    { month: '2026-09', recorded: true, gross_revenue: 4000, pay_amount: null, rev_pay_ratio: null },
    { month: '2026-10', ...none },
    { month: '2026-11', recorded: true, gross_revenue: 12000, pay_amount: 400, rev_pay_ratio: 30 },
  ],
}
/** A technician's month: the top 5 by rank and name only, and their own place (7th of 8) and figures. */
const technicianBoard: MyLeaderboardResponse = {
  period: 'monthly',
  from: '2026-11',
  to: '2026-11',
  ranked: 8,
  rows: [1, 2, 3, 4, 5].map((rank) => ({ rank, name: `Top ${rank}`, is_you: false, gross_revenue: null, rev_pay_ratio: null })),
  you: { rank: 7, gross_revenue: 12000, pay_amount: 400, rev_pay_ratio: 30 },
  amounts_withheld: true,
}
const NOTE = 'Amounts of other technicians are shown to their managers and admins only.'
const answers = (board: MyLeaderboardResponse = technicianBoard) => ({
  'GET /api/revenue/me/trend': () => json(trend),
  'GET /api/revenue/leaderboard/me': () => json(board),
})

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('my revenue on my own profile', () => {
  it('loads with one’s own profile only, after the profile', async () => {
    const edge = answerApi(answers())
    const { unmount } = renderWithClient(<ProfileBody profile={profile()} isOwn={false} today={TODAY} />)
    expect(screen.queryByRole('region', { name: 'My Revenue Trend' })).toBeNull()
    expect(edge.calls).toEqual([])
    unmount()
    renderWithClient(<ProfileBody profile={profile()} isOwn today={TODAY} />)
    // Right after the revenue cards, before the expirations.
    const trendRegion = await screen.findByRole('region', { name: 'My Revenue Trend' })
    const regions = screen.getAllByRole('region').map((r) => r.getAttribute('aria-labelledby') && document.getElementById(r.getAttribute('aria-labelledby')!)?.textContent)
    expect(regions.slice(regions.indexOf('Revenue'), regions.indexOf('Revenue') + 4)).toEqual(['Revenue', 'My Revenue Trend', 'Leaderboard', 'Upcoming Expirations'])
    await within(trendRegion).findByRole('table', { name: 'Month by Month' })
    expect(edge.calls.sort()).toEqual(['GET /api/revenue/leaderboard/me?period=monthly', 'GET /api/revenue/me/trend'])
  })

  it('draws the 6 months and lists them month by month, months without revenue said so', async () => {
    answerApi(answers())
    renderWithClient(<MyRevenue name="Pat Portland" />)
    const region = screen.getByRole('region', { name: 'My Revenue Trend' })
    const table = await within(region).findByRole('table', { name: 'Month by Month' })
    expect(bodyRows(table)).toEqual([
      ['Jun 2026', 'No revenue recorded'],
      ['Jul 2026', '$9,000.50', '$300.00', '30.00'],
      ['Aug 2026', 'No revenue recorded'],
      ['Sep 2026', '$4,000.00', 'Not entered', 'No pay data'],
      ['Oct 2026', 'No revenue recorded'],
      ['Nov 2026', '$12,000.00', '$400.00', '30.00'],
    ])
    // The drawing says the same in words; its bars are the recorded months.
    const chart = within(region).getByRole('img')
    expect(chart.getAttribute('aria-label')).toBe(
      'Your gross revenue, last 6 months. Jun 2026: no revenue recorded; Jul 2026: $9,000.50, ratio 30.00; Aug 2026: no revenue recorded; Sep 2026: $4,000.00; Oct 2026: no revenue recorded; Nov 2026: $12,000.00, ratio 30.00',
    )
    expect(chart.querySelectorAll('rect')).toHaveLength(3)
  })

  it('shows a technician the top 5 by rank and name, their own place and figures, and why the other amounts are not shown', async () => {
    answerApi(answers())
    renderWithClient(<MyRevenue name="Pat Portland" />)
    const region = screen.getByRole('region', { name: 'Leaderboard' })
    const table = await within(region).findByRole('table', { name: 'Leaderboard: This Month (Nov 2026)' })
    expect(bodyRows(table)).toEqual([
      ['1', 'Top 1', 'Not shown', 'Not shown'],
      ['2', 'Top 2', 'Not shown', 'Not shown'],
      ['3', 'Top 3', 'Not shown', 'Not shown'],
      ['4', 'Top 4', 'Not shown', 'Not shown'],
      ['5', 'Top 5', 'Not shown', 'Not shown'],
      ['7', 'Pat Portland (you)', '$12,000.00', '30.00'],
    ])
    const mine = within(table).getByRole('row', { current: true })
    expect(within(mine).getAllByRole('cell')[1]!.textContent).toBe('Pat Portland (you)')
    expect(within(region).getByText('You are number 7 of 8 this month (Nov 2026): gross revenue $12,000.00, pay $400.00, rev/pay ratio 30.00.')).toBeTruthy()
    expect(within(region).getByText(NOTE)).toBeTruthy()
  })

  it('shows a manager or admin the amounts the service sends, without the note; in the top 5 the own row is not repeated', async () => {
    const board: MyLeaderboardResponse = {
      ...technicianBoard,
      rows: [
        { rank: 1, name: 'Top 1', is_you: false, gross_revenue: 9000, rev_pay_ratio: 90 },
        { rank: 2, name: 'Top 2', is_you: true, gross_revenue: 8000, rev_pay_ratio: 20 },
      ],
      ranked: 2,
      you: { rank: 2, gross_revenue: 8000, pay_amount: 400, rev_pay_ratio: 20 },
      amounts_withheld: false,
    }
    answerApi(answers(board))
    renderWithClient(<MyRevenue name="Pat Portland" />)
    const table = await screen.findByRole('table', { name: 'Leaderboard: This Month (Nov 2026)' })
    expect(bodyRows(table)).toEqual([
      ['1', 'Top 1', '$9,000.00', '90.00'],
      ['2', 'Pat Portland (you)', '$8,000.00', '20.00'],
    ])
    expect(screen.getByText(/^You are number 2 of 2 this month \(Nov 2026\), in the top 5:/)).toBeTruthy()
    expect(screen.queryByText(NOTE)).toBeNull()
  })

  it('asks for the quarter or year when its tab is chosen, and says when one has no revenue then', async () => {
    const quarter: MyLeaderboardResponse = { period: 'quarterly', from: '2026-10', to: '2026-12', ranked: 0, rows: [], you: null, amounts_withheld: false }
    const edge = answerApi({
      'GET /api/revenue/me/trend': () => json(trend),
      'GET /api/revenue/leaderboard/me': () => json(edge.calls.at(-1)!.includes('period=quarterly') ? quarter : technicianBoard),
    })
    renderWithClient(<MyRevenue name="Pat Portland" />)
    await screen.findByRole('table', { name: 'Leaderboard: This Month (Nov 2026)' })
    await userEvent.click(screen.getByRole('tab', { name: 'Quarterly' }))
    await screen.findByText('You have no revenue recorded this quarter (Oct 2026 to Dec 2026).')
    expect(screen.getByText('No revenue is recorded for this period yet.')).toBeTruthy()
    expect(edge.calls).toContain('GET /api/revenue/leaderboard/me?period=quarterly')
  })

  it('says when the figures could not be loaded, with Try Again', async () => {
    answerApi({ 'GET /api/revenue/me/trend': () => json({ message: 'Server busy' }, 503), 'GET /api/revenue/leaderboard/me': () => json(technicianBoard) })
    renderWithClient(<MyRevenue name="Pat Portland" />)
    const region = screen.getByRole('region', { name: 'My Revenue Trend' })
    await waitFor(() => expect(within(region).getByRole('alert').textContent).toBeTruthy())
    expect(within(region).getByRole('button', { name: 'Try Again' })).toBeTruthy()
  })
})
