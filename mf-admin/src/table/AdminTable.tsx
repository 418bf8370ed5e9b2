import { Button, SortHeader as KitSortHeader, TextField } from '@portal/ui-kit'
import { useState, type ReactNode } from 'react'
import { nextSort, tableSummary, tableView, type TableColumns, type TableState } from './table-view.ts'

/** Search, sort and paging of one admin table; the view is recomputed from the rows each render. */
export function useAdminTable<T, K extends string>(rows: readonly T[], columns: TableColumns<T, K>) {
  const [state, setState] = useState<TableState<K>>({ search: '', sort: null, page: 1 })
  const view = tableView(rows, columns, state)
  return {
    state,
    view,
    // A new search or order starts again at page 1.
    setSearch: (search: string) => setState((s) => ({ ...s, search, page: 1 })),
    sortBy: (column: K) => setState((s) => ({ ...s, sort: nextSort(s.sort, column), page: 1 })),
    setPage: (page: number) => setState((s) => ({ ...s, page })),
  }
}
export type AdminTable<T, K extends string> = ReturnType<typeof useAdminTable<T, K>>
/** What the search field and the pager need of a table, whatever its rows. */
type TableControls = Pick<AdminTable<unknown, string>, 'view' | 'setSearch' | 'setPage'> & { state: { search: string } }

/** The search field and, read politely after each change, what the table now shows. */
export const TableSearch = ({ table, label, placeholder, noun }: { table: TableControls; label: string; placeholder: string; noun: { one: string; many: string } }) => (
  <div className="pk-row pk-items-end pk-between">
    <div className="pk-w-360 pk-min-w200">
      <TextField label={label} type="search" placeholder={placeholder} value={table.state.search} onChange={(e) => table.setSearch(e.target.value)} />
    </div>
    <p role="status" className="pk-muted pk-m0 pk-fs-14">
      {tableSummary(table.view, noun, table.state.search)}
    </p>
  </div>
)

/** The kit's sortable column header, bound to one column of an admin table. */
export const SortHeader = <K extends string>({ table, column, children }: { table: { state: TableState<K>; sortBy: (column: K) => void }; column: K; children: ReactNode }) => {
  const sort = table.state.sort?.column === column ? table.state.sort.direction : undefined
  return (
    <KitSortHeader sort={sort} onSort={() => table.sortBy(column)}>
      {children}
    </KitSortHeader>
  )
}

/** Previous / Next with the page number; hidden when everything fits on one page. */
export const Pager = ({ table, label }: { table: TableControls; label: string }) => {
  const { page, pages } = table.view
  if (pages <= 1) return null
  return (
    <nav className="pk-row pk-justify-end" aria-label={`${label} pages`}>
      {/* aria-disabled, not disabled: the button pressed to reach the last page keeps focus there. */}
      <Button size="small" variant="secondary" aria-disabled={page <= 1 || undefined} onClick={() => page > 1 && table.setPage(page - 1)}>
        Previous Page
      </Button>
      <span aria-current="page">
        Page {page} of {pages}
      </span>
      <Button size="small" variant="secondary" aria-disabled={page >= pages || undefined} onClick={() => page < pages && table.setPage(page + 1)}>
        Next Page
      </Button>
    </nav>
  )
}
