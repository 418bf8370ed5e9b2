// @vitest-environment happy-dom
import type { User } from '@portal/contracts'
import { render, screen, waitFor, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { answerApi, bodyRows, json, renderWithClient, revenueRecord } from '../test/index.ts'
import RevenueEntry, { RecentEntriesTable } from './RevenueEntryPage.tsx'

const person = (id: number, name: string, email: string, over: Partial<User> = {}): User => ({
  id: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
  name,
  email,
  is_admin: false,
  is_manager: false,
  manager_scope: { branches: [], departments: [] },
  branch: 'Seattle',
  department: 'Service',
  user_group: null,
  employee_id: null,
  hire_date: null,
  email_verified: true,
  created_at: '2026-01-01T00:00:00.000Z',
  ...over,
})

const technicians = [
  person(1, 'Sue Seattle', 'sue.seattle@example.com', { employee_id: 'E-2001' }),
  person(2, 'Sue Seattle', 'sue.s@example.com'),
  person(3, 'Pat Portland', 'tech.portland@example.com', { branch: 'Portland' }),
  person(4, 'Alex Admin', 'admin@example.com', { is_admin: true }),
]

const renderPage = () => {
  answerApi({ 'GET /api/users': () => json(technicians), 'GET /api/revenue/recent-entries': () => json({ entries: [revenueRecord('2026-10', 12000, 400)] }) })
  return render(<RevenueEntry user={technicians[3]!} onUserUpdated={() => undefined} navigate={() => undefined} params={{}} locationState={null} />)
}

afterEach(() => {
  vi.unstubAllGlobals()
})

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
    // Wider than a phone it scrolls in a box the keyboard reaches and a screen reader names.
    const scroller = screen.getByRole('region', { name: 'Recent Entries (scrolls sideways)' })
    expect(scroller.tabIndex).toBe(0)
    expect(scroller.contains(table)).toBe(true)
  })

  it('tells two technicians of the same name apart by e-mail and employee id, and finds them by either', async () => {
    renderPage()
    const picker = screen.getByRole('combobox', { name: 'Technician' })
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(4))
    expect(
      within(picker)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'Select a technician (3)',
      'Pat Portland (tech.portland@example.com) · Portland',
      'Sue Seattle (sue.seattle@example.com · ID E-2001) · Seattle',
      'Sue Seattle (sue.s@example.com) · Seattle',
    ])
    const search = screen.getByRole('searchbox', { name: 'Search Technicians' })
    await userEvent.type(search, 'e-2001')
    expect(
      within(picker)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Select a technician (1)', 'Sue Seattle (sue.seattle@example.com · ID E-2001) · Seattle'])
    await userEvent.clear(search)
    await userEvent.type(search, 'sue.s@')
    expect(
      within(picker)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Select a technician (1)', 'Sue Seattle (sue.s@example.com) · Seattle'])
  })

  it('saved empty, marks every required field with its message and moves focus to the first', async () => {
    renderPage()
    const picker = screen.getByRole('combobox', { name: 'Technician' })
    await waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(4))
    // The pay hint speaks of the rule as it stands.
    expect(
      screen.getByRole('spinbutton', { name: 'Pay Amount (optional)', description: 'Required for months from January 2025 on; earlier months may be saved without it.' }),
    ).toBeTruthy()

    await userEvent.click(screen.getByRole('button', { name: 'Save Revenue' }))
    expect(screen.getByRole('alert').textContent).toBe('Please fill in all required fields')
    const technician = screen.getByRole('combobox', { name: 'Technician', description: 'Select a technician' })
    const month = screen.getByLabelText('Month')
    const gross = screen.getByRole('spinbutton', { name: 'Gross Revenue', description: 'Enter the gross revenue' })
    for (const field of [technician, month, gross]) expect(field.getAttribute('aria-invalid')).toBe('true')
    expect(document.getElementById(month.getAttribute('aria-describedby')!)!.textContent).toBe('Enter a month')
    await waitFor(() => expect(document.activeElement).toBe(technician))

    // Mended one by one, each field loses its mark; a month of 2025 on then wants pay, on the pay field.
    await userEvent.selectOptions(technician, 'Pat Portland (tech.portland@example.com) · Portland')
    expect(technician.getAttribute('aria-invalid')).toBeNull()
    await userEvent.type(month, '2026-10')
    await userEvent.type(gross, '5000')
    await userEvent.click(screen.getByRole('button', { name: 'Save Revenue' }))
    expect(screen.queryByRole('alert')).toBeNull()
    const pay = screen.getByRole('spinbutton', { name: 'Pay Amount', description: /^Pay amount is required from January 2025 on/ })
    expect(pay.getAttribute('aria-invalid')).toBe('true')
    await waitFor(() => expect(document.activeElement).toBe(pay))
  })
})
