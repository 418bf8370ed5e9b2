/** What an admin table shows: rows matching the search, in the chosen order, one page of them. */
export interface TableState<K extends string> {
  search: string
  /** The sorted column, or null for the server's order (newest first). */
  sort: { column: K; direction: 'ascending' | 'descending' } | null
  page: number
}

export interface TableColumns<T, K extends string> {
  /** The text a search looks in (case-insensitive), e.g. name and e-mail. */
  searchText: (row: T) => string
  /** How each sortable column compares two rows (ascending). */
  compare: Record<K, (a: T, b: T) => number>
}

export const PAGE_SIZE = 25

export interface TableView<T> {
  rows: T[]
  /** Rows matching the search, over every page. */
  matching: number
  total: number
  page: number
  pages: number
  /** 1-based positions of the first and last row shown (0 when none). */
  from: number
  to: number
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true })

/** Compares texts as a person sorts them (case and accents ignored, "Exam 2" before "Exam 10"); empty last. */
export const byText =
  <T>(text: (row: T) => string | null | undefined) =>
  (a: T, b: T) => {
    const x = text(a) ?? ''
    const y = text(b) ?? ''
    if (!x || !y) return x ? -1 : y ? 1 : 0
    return collator.compare(x, y)
  }

export const byNumber =
  <T>(value: (row: T) => number) =>
  (a: T, b: T) =>
    value(a) - value(b)

/** The page of rows the table shows; a page past the end shows the last one. */
export function tableView<T, K extends string>(rows: readonly T[], columns: TableColumns<T, K>, state: TableState<K>, pageSize = PAGE_SIZE): TableView<T> {
  const q = state.search.trim().toLowerCase()
  const matching = q ? rows.filter((r) => columns.searchText(r).toLowerCase().includes(q)) : [...rows]
  if (state.sort) {
    const cmp = columns.compare[state.sort.column]
    const sign = state.sort.direction === 'ascending' ? 1 : -1
    // Stable: rows that compare equal keep the server's order.
    matching.sort((a, b) => sign * cmp(a, b))
  }
  const pages = Math.max(1, Math.ceil(matching.length / pageSize))
  const page = Math.min(Math.max(1, state.page), pages)
  const start = (page - 1) * pageSize
  const shown = matching.slice(start, start + pageSize)
  return { rows: shown, matching: matching.length, total: rows.length, page, pages, from: shown.length ? start + 1 : 0, to: start + shown.length }
}

/** A click on a column's sort button: ascending first, then descending, then the server's order again. */
export const nextSort = <K extends string>(sort: TableState<K>['sort'], column: K): TableState<K>['sort'] =>
  sort?.column !== column ? { column, direction: 'ascending' } : sort.direction === 'ascending' ? { column, direction: 'descending' } : null

/** "Showing 1–25 of 40 exams", "Showing 3 exams matching “ladder”", "No exams match “x”". */
export const tableSummary = (view: TableView<unknown>, noun: { one: string; many: string }, search: string): string => {
  const q = search.trim()
  if (q && view.matching === 0) return `No ${noun.many} match “${q}”`
  const n = q ? view.matching : view.total
  const range = view.pages > 1 ? `${view.from}–${view.to} of ${n}` : `${n}`
  return `Showing ${range} ${n === 1 ? noun.one : noun.many}${q ? ` matching “${q}”` : ''}`
}
