// @vitest-environment happy-dom
import { render, screen, within } from '@testing-library/react'
import { userEvent } from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { DataTable, SortHeader, TableHead } from './DataTable.tsx'

describe('data table', () => {
  it('is a table named by its heading, with column headers', () => {
    render(
      <>
        <h2 id="t">Recent entries</h2>
        <DataTable labelledBy="t">
          <TableHead columns={['Month', 'Gross']} />
          <tbody>
            <tr>
              <td>Nov 2026</td>
              <td>$9,000.00</td>
            </tr>
          </tbody>
        </DataTable>
      </>,
    )
    const table = screen.getByRole('table', { name: 'Recent entries' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Month', 'Gross'])
    expect(within(table).getByRole('cell', { name: '$9,000.00' })).toBeTruthy()
  })

  it('makes its scrolling box a named, focusable region when asked', () => {
    render(
      <DataTable region="Audit trail">
        <tbody>
          <tr>
            <td>x</td>
          </tr>
        </tbody>
      </DataTable>,
    )
    expect(screen.getByRole('region', { name: 'Audit trail' }).tabIndex).toBe(0)
  })

  it('sorts by a column header: aria-sort tells the order and the button asks for a new one', async () => {
    const onSort = vi.fn()
    render(
      <table>
        <thead>
          <tr>
            <SortHeader sort="descending" onSort={onSort}>
              Progress
            </SortHeader>
            <SortHeader sort={undefined} onSort={() => undefined}>
              Name
            </SortHeader>
          </tr>
        </thead>
      </table>,
    )
    const [progress, name] = screen.getAllByRole('columnheader')
    expect(progress?.getAttribute('aria-sort')).toBe('descending')
    expect(name?.getAttribute('aria-sort')).toBe('none')
    await userEvent.click(screen.getByRole('button', { name: /Progress/ }))
    expect(onSort).toHaveBeenCalledTimes(1)
  })
})
