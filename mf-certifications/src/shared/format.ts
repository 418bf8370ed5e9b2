/** "in 5 days", "today", "3 days ago": how far an expiration date is. */
export const relativeDays = (days: number): string => {
  if (days === 0) return 'today'
  const n = Math.abs(days)
  const unit = n === 1 ? 'day' : 'days'
  return days > 0 ? `in ${n} ${unit}` : `${n} ${unit} ago`
}

/** Bytes as "1.4 MB" / "820 KB". */
export const formatSize = (bytes: number): string => (bytes >= 1_048_576 ? `${(bytes / 1_048_576).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`)
