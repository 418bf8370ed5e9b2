import {
  IsoMonth,
  meetsRequirements,
  progressColour,
  promotionTiers,
  TEAM,
  tierLabel,
  type RevenueRecord,
  type TeamMemberRow,
  type TeamSort,
  type TierLevel,
} from '@portal/contracts'
import { formatMonth } from '@portal/ui-kit'
import type { Tone } from '../shared/index.ts'

/** The table's order: a column and a direction, as the server sorts. */
export interface TeamOrder {
  sort: TeamSort
  order: 'asc' | 'desc'
}

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
