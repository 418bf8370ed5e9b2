// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { bodyRows, renderWithClient, revenueRecord } from '../test/index.ts'
import { RecentEntriesTable } from './RevenueEntryPage.tsx'

describe('revenue entry', () => {
  it('lists recent entries with money in USD and the ratio coloured', () => {
    renderWithClient(
      <>
        <h2 id="recent-title">Recent Entries</h2>
        <RecentEntriesTable entries={[revenueRecord('2026-10', 12000, 400), revenueRecord('2024-06', 5000, null)]} />
      </>,
    )
    const table = screen.getByRole('table', { name: 'Recent Entries' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Technician', 'Month', 'Gross Revenue', 'Pay Amount', 'Rev/Pay Ratio', 'Entered'])
    const [october, june] = bodyRows(table)
    expect(october!.slice(1, 5)).toEqual(['Oct 2026', '$12,000.00', '$400.00', '30.00'])
    expect(june![3]).toBe('Not entered')
    // The ratio's colour grades it; nothing but the badge's tone conveys it.
    expect(within(table).getByText('30.00').className).toContain('ct-tone--yellow')
  })
})
