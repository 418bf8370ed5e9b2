const DATE = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' })

/** A calendar date (`YYYY-MM-DD`) or an instant as "Nov 25, 2026"; `empty` when there is none. */
export const formatDate = (value: string | null | undefined, empty = '—'): string => {
  if (!value) return empty
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value)
  return Number.isNaN(date.getTime()) ? value : DATE.format(date)
}

/** "in 5 days", "today", "3 days ago": how far an expiration date is. */
export const relativeDays = (days: number): string => {
  if (days === 0) return 'today'
  const n = Math.abs(days)
  const unit = n === 1 ? 'day' : 'days'
  return days > 0 ? `in ${n} ${unit}` : `${n} ${unit} ago`
}

/** Bytes as "1.4 MB" / "820 KB". */
export const formatSize = (bytes: number): string =>
  bytes >= 1_048_576 ? `${(bytes / 1_048_576).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`

const MONTH = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' })
/** A month (`2026-11`) as "Nov 2026". */
export const monthLabel = (month: string): string => MONTH.format(new Date(`${month}-01T00:00:00Z`))

const LONG_MONTH = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' })
/** The month of a calendar date (`2026-02-28`) as "February 2026". */
export const longMonthLabel = (date: string): string => LONG_MONTH.format(new Date(`${date.slice(0, 7)}-01T00:00:00Z`))
