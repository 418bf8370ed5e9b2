import { describe, expect, it } from 'vitest'
import { byNumber, byText, nextSort, tableSummary, tableView, type TableColumns } from './table-view.ts'

interface Row {
  name: string
  n: number
}
const columns: TableColumns<Row, 'name' | 'n'> = {
  searchText: (r) => r.name,
  compare: { name: byText((r) => r.name), n: byNumber((r) => r.n) },
}
const rows: Row[] = Array.from({ length: 30 }, (_, i) => ({ name: `Exam ${i + 1}`, n: (i * 7) % 30 }))

describe('admin table view', () => {
  it('shows one page in the server order, a page past the end shows the last', () => {
    const first = tableView(rows, columns, { search: '', sort: null, page: 1 }, 25)
    expect(first).toMatchObject({ matching: 30, total: 30, page: 1, pages: 2, from: 1, to: 25 })
    expect(first.rows[0]!.name).toBe('Exam 1')
    expect(tableView(rows, columns, { search: '', sort: null, page: 9 }, 25)).toMatchObject({ page: 2, from: 26, to: 30 })
  })

  it('searches case-insensitively over every page', () => {
    const view = tableView(rows, columns, { search: ' exam 2', sort: null, page: 1 }, 25)
    expect(view.rows.map((r) => r.name)).toEqual(['Exam 2', ...Array.from({ length: 10 }, (_, i) => `Exam ${20 + i}`)])
    expect(view.matching).toBe(11)
  })

  it('sorts names as a person does (Exam 2 before Exam 10), either way', () => {
    const up = tableView(rows, columns, { search: '', sort: { column: 'name', direction: 'ascending' }, page: 1 }, 5)
    expect(up.rows.map((r) => r.name)).toEqual(['Exam 1', 'Exam 2', 'Exam 3', 'Exam 4', 'Exam 5'])
    const down = tableView(rows, columns, { search: '', sort: { column: 'n', direction: 'descending' }, page: 1 }, 2)
    expect(down.rows.map((r) => r.n)).toEqual([29, 28])
  })

  it('cycles a column ascending, descending, then back to the server order', () => {
    expect(nextSort(null, 'name')).toEqual({ column: 'name', direction: 'ascending' })
    expect(nextSort({ column: 'name', direction: 'ascending' }, 'name')).toEqual({ column: 'name', direction: 'descending' })
    expect(nextSort({ column: 'name', direction: 'descending' }, 'name')).toBeNull()
    expect(nextSort({ column: 'n', direction: 'descending' }, 'name')).toEqual({ column: 'name', direction: 'ascending' })
  })

  it('puts empty values last when sorting text', () => {
    const cmp = byText<{ b: string | null }>((r) => r.b)
    expect([{ b: null }, { b: 'Seattle' }, { b: 'Anchorage' }].sort(cmp).map((r) => r.b)).toEqual(['Anchorage', 'Seattle', null])
  })

  it('says what is shown', () => {
    const noun = { one: 'exam', many: 'exams' }
    expect(tableSummary(tableView(rows, columns, { search: '', sort: null, page: 2 }, 25), noun, '')).toBe('Showing 26–30 of 30 exams')
    expect(tableSummary(tableView(rows.slice(0, 3), columns, { search: '', sort: null, page: 1 }, 25), noun, '')).toBe('Showing 3 exams')
    expect(tableSummary(tableView(rows, columns, { search: '7', sort: null, page: 1 }, 25), noun, '7')).toBe('Showing 3 exams matching “7”')
    expect(tableSummary(tableView(rows, columns, { search: 'zz', sort: null, page: 1 }, 25), noun, 'zz')).toBe('No exams match “zz”')
    expect(tableSummary(tableView(rows, columns, { search: 'exam', sort: null, page: 1 }, 25), noun, 'exam')).toBe('Showing 1–25 of 30 exams matching “exam”')
    expect(tableSummary(tableView(rows.slice(0, 1), columns, { search: '', sort: null, page: 1 }, 25), noun, '')).toBe('Showing 1 exam')
  })
})
