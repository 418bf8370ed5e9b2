// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { figure, renderWithClient } from '../test/index.ts'
import { RevenueCards } from './ProfileOverview.tsx'

describe('profile revenue cards', () => {
  it('show the latest month’s revenue, pay and coloured ratio, the year so far and the tier’s pay rate', () => {
    renderWithClient(<RevenueCards data={{ monthly_revenue: 12000, monthly_pay: 400, rev_pay_ratio: 30, yearly_revenue_ytd: 98500.5, month: '2026-10', tier_pay_rate: 30 }} />)
    const revenue = screen.getByRole('region', { name: 'Revenue' })
    expect(figure(revenue, 'Monthly Revenue').textContent).toBe('$12,000.00')
    expect(figure(revenue, 'Monthly Pay').textContent).toBe('$400.00')
    expect(figure(revenue, 'Yearly Revenue YTD').textContent).toBe('$98,500.50')
    expect(revenue.textContent).toContain('Latest month: Oct 2026')
    expect(revenue.textContent).toContain('Pay rate of the current tier: 30')
    // The ratio's colour grades it; nothing but the badge's tone conveys it.
    const ratio = figure(revenue, 'Rev/Pay Ratio')
    expect(ratio.textContent).toBe('30.00')
    expect(within(ratio).getByText('30.00').className).toContain('ct-tone--yellow')
  })
})
