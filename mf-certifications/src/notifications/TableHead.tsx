import type { ReactNode } from 'react'

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
