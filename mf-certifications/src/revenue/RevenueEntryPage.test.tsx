import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { revenueRecord } from '../test/fixtures.ts'
import { RecentEntriesTable } from './RevenueEntryPage.tsx'

const render = (node: ReactNode) => renderToStaticMarkup(<QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>)

describe('revenue entry', () => {
  it('lists recent entries with money in USD and the ratio coloured', () => {
    const html = render(<RecentEntriesTable entries={[revenueRecord('2026-10', 12000, 400), revenueRecord('2024-06', 5000, null)]} />)
    for (const h of ['Technician', 'Month', 'Gross Revenue', 'Pay Amount', 'Rev/Pay Ratio', 'Entered']) expect(html).toContain(`<th scope="col">${h}</th>`)
    expect(html).toContain('$12,000.00')
    expect(html).toContain('ct-tone--yellow">30.00')
    expect(html).toContain('Not entered')
    expect(html).toContain('Oct 2026')
  })
})
