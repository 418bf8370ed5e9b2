import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { RevenueCards } from './ProfileOverview.tsx'

const render = (node: ReactNode) => renderToStaticMarkup(<QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>)

describe('profile revenue cards', () => {
  it('show the latest month’s revenue, pay and coloured ratio, the year so far and the tier’s pay rate', () => {
    const html = render(
      <RevenueCards data={{ monthly_revenue: 12000, monthly_pay: 400, rev_pay_ratio: 30, yearly_revenue_ytd: 98500.5, month: '2026-10', tier_pay_rate: 30 }} />,
    )
    for (const text of ['Monthly Revenue', '$12,000.00', 'Monthly Pay', '$400.00', 'Yearly Revenue YTD', '$98,500.50', 'Latest month: Oct 2026', 'Pay rate of the current tier: 30'])
      expect(html).toContain(text)
    expect(html).toContain('ct-tone--yellow">30.00')
  })
})
