import { ASSIGNMENT_STATE_LABELS, type AssignmentReportRow, type AssignmentStateCounts, type AssignmentStateKind } from '@portal/contracts'
import { formatDate } from '@portal/ui-kit'

/** The report's summary cards and bars, outstanding first. */
export const REPORT_STATES: readonly AssignmentStateKind[] = ['overdue', 'due_soon', 'open', 'not_due_yet', 'completed_on_time', 'completed_late', 'exempt']

/** People per report page. */
export const REPORT_PAGE_SIZE = 50

/** The filters of a report as chosen ('' is any). */
export interface ReportFilter {
  state: AssignmentStateKind | ''
  branch: string
  department: string
  search: string
}
export const NO_REPORT_FILTER: ReportFilter = { state: '', branch: '', department: '', search: '' }

const people = (n: number) => `${n} ${n === 1 ? 'person' : 'people'}`

/** The counts in words, for screen readers: "Overdue: 3 people. Due soon: 1 person. ...". */
export const countsText = (counts: AssignmentStateCounts): string => REPORT_STATES.map((s) => `${ASSIGNMENT_STATE_LABELS[s]}: ${people(counts[s])}`).join('. ') + '.'

/** A bar per state, scaled to the largest count within `width` (a count above 0 keeps a visible sliver). */
export const countBars = (counts: AssignmentStateCounts, width: number): { state: AssignmentStateKind; label: string; count: number; length: number }[] => {
  const max = Math.max(0, ...REPORT_STATES.map((s) => counts[s]))
  return REPORT_STATES.map((s) => ({
    state: s,
    label: ASSIGNMENT_STATE_LABELS[s],
    count: counts[s],
    length: max === 0 || counts[s] === 0 ? 0 : Math.max(2, Math.round((counts[s] / max) * width)),
  }))
}

/** The due date cell: the date, with the next one of a recurring rule after a completion. */
export const dueText = (row: Pick<AssignmentReportRow, 'due_on' | 'next_due_on' | 'completed_on'>): string =>
  row.completed_on !== null && row.next_due_on !== null ? `${formatDate(row.due_on)} (next ${formatDate(row.next_due_on)})` : formatDate(row.due_on)

/** "Page 2 of 5" figures of a server-paged list. */
export const pageOf = (offset: number, total: number, size = REPORT_PAGE_SIZE) => ({ page: Math.floor(offset / size) + 1, pages: Math.max(1, Math.ceil(total / size)) })

/** The downloaded file's name: "assignment-report-lockout-tagout-2026-11-25.xlsx". */
export const workbookName = (itemTitle: string, today: string): string => {
  const slug = itemTitle
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
  return `assignment-report-${slug || 'rule'}-${today}.xlsx`
}
