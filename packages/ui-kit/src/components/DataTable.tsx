import type { ReactNode } from 'react'

export type SortDirection = 'ascending' | 'descending'

/**
 * A column header whose button sorts by it; aria-sort tells screen readers the order, the arrow
 * shows it (▲ ascending, ▼ descending, ↕ not sorted by this column).
 */
export const SortHeader = ({ sort, onSort, children }: { sort: SortDirection | 'none' | undefined; onSort: () => void; children: ReactNode }) => (
  <th scope="col" aria-sort={sort ?? 'none'}>
    <button type="button" className="pk-sort" onClick={onSort}>
      {children}
      <span aria-hidden="true" className="pk-sort__arrow">
        {sort === 'ascending' ? '▲' : sort === 'descending' ? '▼' : '↕'}
      </span>
    </button>
  </th>
)

/** A table's column headers, in order (a header may be a control, e.g. a select-all checkbox). */
export const TableHead = ({ columns }: { columns: readonly ReactNode[] }) => (
  <thead>
    <tr>
      {columns.map((c, i) => (
        <th key={typeof c === 'string' ? c : i} scope="col">
          {c}
        </th>
      ))}
    </tr>
  </thead>
)

export interface DataTableProps {
  children: ReactNode
  /** Names the table by the id of a heading. */
  labelledBy?: string
  /** Makes the scrolling box a named, focusable region (keyboard users can scroll it). */
  region?: string
  /** Extra classes of the table (e.g. a denser variant) and of the scrolling box. */
  className?: string
  wrapClassName?: string
}

/**
 * A data table in its scrolling box: wider than a phone it scrolls sideways while its last column
 * (the row's actions) stays in view at the right edge (the `pk-table-wrap` rules of the kit's stylesheet).
 */
export const DataTable = ({ children, labelledBy, region, className, wrapClassName }: DataTableProps) => (
  <div className={wrapClassName ? `pk-table-wrap ${wrapClassName}` : 'pk-table-wrap'} {...(region ? { role: 'region', 'aria-label': region, tabIndex: 0 } : {})}>
    <table className={className ? `pk-table ${className}` : 'pk-table'} aria-labelledby={labelledBy}>
      {children}
    </table>
  </div>
)
