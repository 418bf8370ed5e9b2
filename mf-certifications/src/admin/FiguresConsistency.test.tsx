// @vitest-environment happy-dom
import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ConsistencyReport } from '@portal/contracts'
import { bodyRows } from '../test/index.ts'
import { FiguresConsistencyView, consistencyHeadline } from './FiguresConsistency.tsx'

const noop = () => undefined
const report = (over: Partial<ConsistencyReport> = {}): ConsistencyReport => ({
  consistent: true,
  as_of: '2026-11-27',
  checked_at: '2026-11-28T08:30:00.000Z',
  technicians: 8,
  difference_count: 0,
  differences: [],
  ...over,
})

describe('the compliance figures check on Certification Management (issue 23)', () => {
  it('says "All figures consistent" with what was checked', () => {
    render(<FiguresConsistencyView report={report()} checking={false} onCheck={noop} />)
    const section = screen.getByRole('region', { name: 'Compliance Figures' })
    // The headline says it in words; its green badge says the same to the eye.
    const headline = within(section).getByText('All figures consistent')
    expect(headline.className).toBe('ct-badge ct-tone--green')
    expect(headline.parentElement!.textContent).toBe(
      'All figures consistent 8 technicians checked against the team dashboard, the admin overview and notification management, as of Nov 27, 2026.',
    )
    expect(within(section).getByRole('button', { name: 'Check Again' })).toBeTruthy()
  })

  it('lists each figure that differs, with the screen, the row, what it shows and what the records say', () => {
    const differences = [
      { surface: 'Team member figures', key: 'Pat Portland (u-1)', field: 'met_count', shown: 3, expected: 2 },
      { surface: 'Certification Notification Management', key: 'No branch', field: 'technicians', shown: null, expected: 1 },
    ]
    render(<FiguresConsistencyView report={report({ consistent: false, difference_count: 250, differences })} checking={false} onCheck={noop} />)
    expect(consistencyHeadline(report({ consistent: false, difference_count: 1 }))).toBe('1 figure differs from the certification records')
    expect(screen.getByRole('alert').textContent).toContain('250 figures differ from the certification records.')
    const table = screen.getByRole('table', { name: 'Figures that differ from the certification records' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Screen', 'Row', 'Figure', 'Shown', 'From the records'])
    expect(within(table).getByRole('rowheader', { name: 'Pat Portland (u-1)' })).toBeTruthy()
    expect(bodyRows(table)).toEqual([
      ['Team member figures', 'Pat Portland (u-1)', 'met count', '3', '2'],
      ['Certification Notification Management', 'No branch', 'technicians', 'missing', '1'],
    ])
    expect(screen.getByText('The first 2 of 250 are listed.')).toBeTruthy()
  })

  it('shows progress while the first check runs', () => {
    render(<FiguresConsistencyView report={undefined} checking onCheck={noop} />)
    expect(screen.getByRole('status').textContent).toContain('Checking figures...')
  })
})
