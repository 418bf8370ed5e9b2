import {
  BRANCHES,
  DEPARTMENTS,
  departmentsOf,
  IsoMonth,
  meetsRequirements,
  progressColour,
  promotionTiers,
  TEAM,
  TeamSort,
  tierLabel,
  type RevenueRecord,
  type TeamMemberRow,
  type TierLevel,
} from '@portal/contracts'
import { formatMonth } from '@portal/ui-kit'
import type { Tone } from '../shared/index.ts'

/** The table's order: a column and a direction, as the server sorts. */
export interface TeamOrder {
  sort: TeamSort
  order: 'asc' | 'desc'
}

/** The dashboard's filters as typed and chosen ("" is every branch, department; `overdue` only members with an overdue assignment). */
export interface TeamFilters {
  search: string
  branch: string
  department: string
  overdue: boolean
}
export const NO_FILTERS: TeamFilters = { search: '', branch: '', department: '', overdue: false }
export const DEFAULT_ORDER: TeamOrder = { sort: 'name', order: 'asc' }

/**
 * The filters and order a page address carries (`?search=&branch=&department=&overdue=true&sort=&order=`),
 * so a reload or Back shows the same list; what is missing or not one of the choices is the default.
 */
export function teamStateFromSearch(search: string): { filters: TeamFilters; order: TeamOrder } {
  const q = new URLSearchParams(search)
  const oneOf = <T extends string>(value: string | null, choices: readonly T[]): T | '' => (value !== null && (choices as readonly string[]).includes(value) ? (value as T) : '')
  const sort = TeamSort.safeParse(q.get('sort'))
  const branch = oneOf(q.get('branch'), BRANCHES)
  return {
    filters: {
      search: (q.get('search') ?? '').slice(0, 200),
      branch,
      // A department of another branch is dropped, as choosing that branch on the screen drops it.
      department: oneOf(q.get('department'), branch ? departmentsOf(branch) : DEPARTMENTS),
      overdue: q.get('overdue') === 'true',
    },
    order: { sort: sort.success ? sort.data : DEFAULT_ORDER.sort, order: q.get('order') === 'desc' ? 'desc' : 'asc' },
  }
}

/** The address's query of the filters and order, defaults left out ("" when all are defaults). */
export function teamSearch(filters: TeamFilters, order: TeamOrder): string {
  const q = new URLSearchParams()
  if (filters.search.trim()) q.set('search', filters.search.trim())
  if (filters.branch) q.set('branch', filters.branch)
  if (filters.department) q.set('department', filters.department)
  if (filters.overdue) q.set('overdue', 'true')
  if (order.sort !== DEFAULT_ORDER.sort || order.order !== DEFAULT_ORDER.order) {
    q.set('sort', order.sort)
    q.set('order', order.order)
  }
  const s = q.toString()
  return s ? `?${s}` : ''
}

/** The Overdue card in words: "4 people, 7 assignments" (issue 24); "None" when nobody is overdue. */
export function overdueSummaryText(members: number, assignments: number): string {
  if (members === 0) return 'None'
  return `${members} ${members === 1 ? 'person' : 'people'}, ${assignments} ${assignments === 1 ? 'assignment' : 'assignments'}`
}

/** The Overdue cell of a member: their overdue assignments in words, or "None". */
export const overdueCellText = (count: number): string => (count === 0 ? 'None' : `${count} ${count === 1 ? 'assignment' : 'assignments'}`)

/** A header pressed: the same column turns round, another starts ascending. */
export const nextOrder = (current: TeamOrder, column: TeamSort): TeamOrder =>
  current.sort === column ? { sort: column, order: current.order === 'asc' ? 'desc' : 'asc' } : { sort: column, order: 'asc' }

/** aria-sort of a column header. */
export const ariaSort = (current: TeamOrder, column: TeamSort): 'ascending' | 'descending' | 'none' =>
  current.sort !== column ? 'none' : current.order === 'asc' ? 'ascending' : 'descending'

/** Branch and department of a row, "Not set" for what is missing. */
export const locationText = (row: Pick<TeamMemberRow, 'branch' | 'department'>): string => `${row.branch ?? 'Branch not set'} · ${row.department ?? 'Department not set'}`

/** The Issues cell: expired and expiring-soon counts in words, red when anything expired, yellow when only expiring. */
export function issuesView(row: Pick<TeamMemberRow, 'expired_certifications' | 'expiring_soon'>): { text: string; tone: Tone | null } {
  const parts: string[] = []
  if (row.expired_certifications > 0) parts.push(`${row.expired_certifications} expired`)
  if (row.expiring_soon > 0) parts.push(`${row.expiring_soon} expiring soon`)
  if (parts.length === 0) return { text: 'None', tone: null }
  return { text: parts.join(', '), tone: row.expired_certifications > 0 ? 'red' : 'yellow' }
}

/** The Progress cell: percentage, its colour (learner §9) and whether the member is compliant. */
export const progressView = (percent: number) => ({
  text: `${percent}%`,
  tone: progressColour(percent),
  compliant: meetsRequirements(percent),
})

/** Tiers a promotion may offer: 2 if current<2, 3 if current<3, as the server enforces (learner §4). */
export const tiersAbove = (current: TierLevel): { value: string; label: string }[] => promotionTiers(current).map((t) => ({ value: String(t), label: tierLabel(t) }))

/** The `count` months ending with `lastMonth` (`YYYY-MM`), oldest first. */
export function monthsEnding(lastMonth: string, count: number = TEAM.trendMonths): string[] {
  IsoMonth.parse(lastMonth)
  const [y, m] = lastMonth.split('-').map(Number) as [number, number]
  return Array.from({ length: count }, (_, i) => {
    const d = new Date(Date.UTC(y, m - 1 - (count - 1 - i), 1))
    return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`
  })
}

/** One month of the trend chart: its record's figures, or nothing recorded. */
export interface TrendPoint {
  month: string
  label: string
  revenue: number | null
  ratio: number | null
}

/** The six months of the trend up to `lastMonth`, each with its record when there is one. */
export function trendPoints(records: readonly Pick<RevenueRecord, 'month' | 'gross_revenue' | 'rev_pay_ratio'>[], lastMonth: string): TrendPoint[] {
  const byMonth = new Map(records.map((r) => [r.month, r]))
  return monthsEnding(lastMonth).map((month) => {
    const r = byMonth.get(month)
    return { month, label: formatMonth(month), revenue: r ? r.gross_revenue : null, ratio: r ? r.rev_pay_ratio : null }
  })
}

/** A round top for the chart's scale: 1, 2, 2.5 or 5 times a power of ten, at least `max`. */
export function niceMax(max: number): number {
  if (max <= 0) return 1000
  const power = 10 ** Math.floor(Math.log10(max))
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= max) return step * power
  return 10 * power
}
