import { describe, expect, it } from 'vitest'
import { formatDate, formatSize, longMonthLabel, monthLabel, relativeDays } from './format.ts'

describe('formats', () => {
  it('shows calendar dates as the same day wherever the browser is', () => {
    expect(formatDate('2026-11-25')).toBe('Nov 25, 2026')
    expect(formatDate('2026-12-25T10:00:00.000Z')).toBe('Dec 25, 2026')
    expect(formatDate(null)).toBe('—')
    expect(formatDate(null, 'Not set')).toBe('Not set')
  })

  it('says how far a date is in words', () => {
    expect([5, 1, 0, -1, -3].map(relativeDays)).toEqual(['in 5 days', 'in 1 day', 'today', '1 day ago', '3 days ago'])
  })

  it('shows months as the short month and year', () => {
    expect(['2026-11', '2025-01'].map(monthLabel)).toEqual(['Nov 2026', 'Jan 2025'])
    expect(['2026-02-28', '2025-12-31'].map(longMonthLabel)).toEqual(['February 2026', 'December 2025'])
  })

  it('shows file sizes', () => {
    expect(formatSize(1_500_000)).toBe('1.4 MB')
    expect(formatSize(820 * 1024)).toBe('820 KB')
    expect(formatSize(10)).toBe('1 KB')
  })
})
