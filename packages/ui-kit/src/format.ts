import { formatUsd } from '@portal/contracts'

/**
 * The portal's one way to write dates and money (English, as the whole UI is). Calendar dates
 * (`YYYY-MM-DD`) are days, not instants: they are read in UTC so no time zone moves them a day.
 */
const DATE = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' })
const DATE_TIME = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' })
const MONTH = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' })
const LONG_MONTH = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' })
const COMPACT_USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 1 })

const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/

/** A calendar date (`YYYY-MM-DD`) or the UTC day of an instant as "Nov 25, 2026"; `empty` when there is none. */
export const formatDate = (value: string | null | undefined, empty = '—'): string => {
  if (!value) return empty
  const date = new Date(CALENDAR_DATE.test(value) ? `${value}T00:00:00Z` : value)
  return Number.isNaN(date.getTime()) ? value : DATE.format(date)
}

/** An instant as "Nov 25, 2026, 3:04 PM" on the viewer's clock; `empty` when there is none. */
export const formatDateTime = (value: string | null | undefined, empty = '—'): string => {
  if (!value) return empty
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? value : DATE_TIME.format(date)
}

/** A month (`2026-11`) as "Nov 2026". */
export const formatMonth = (month: string): string => MONTH.format(new Date(`${month.slice(0, 7)}-01T00:00:00Z`))

/** The month of a calendar date (`2026-02-28`) as "February 2026". */
export const formatLongMonth = (date: string): string => LONG_MONTH.format(new Date(`${date.slice(0, 7)}-01T00:00:00Z`))

/** Dollars as "$1,234.50" (the contracts' rule, which e-mails and reports use too). */
export const formatMoney = formatUsd

/** Dollars in a chart's axis as "$9K". */
export const formatCompactMoney = (amount: number): string => COMPACT_USD.format(amount)

/** How far an assignment's due date is, from its whole days left (issue 24): "3 days overdue", "due today", "due in 5 days". */
export const dueInWords = (daysLeft: number): string => {
  const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`
  if (daysLeft < 0) return `${days(-daysLeft)} overdue`
  return daysLeft === 0 ? 'due today' : `due in ${days(daysLeft)}`
}

/** A file's size as people read it: "812 bytes", "3.4 KB", "1.50 MB" (a small file is not "0.00 MB"); the one way every screen writes it. */
export const formatFileSize = (bytes: number): string => {
  if (bytes < 1024) return `${bytes} byte${bytes === 1 ? '' : 's'}`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`
}
