import { describe, expect, it } from 'vitest'
import { dueInWords, formatCompactMoney, formatDate, formatDateTime, formatFileSize, formatLongMonth, formatMoney, formatMonth } from './format.ts'

describe('formatting', () => {
  it('writes a calendar date as that day, whatever the time zone, and an instant as its UTC day', () => {
    expect(formatDate('2026-11-25')).toBe('Nov 25, 2026')
    expect(formatDate('2026-11-25T23:30:00Z')).toBe('Nov 25, 2026')
    expect(formatDate('2026-12-25T10:00:00.000Z')).toBe('Dec 25, 2026')
  })

  it('writes nothing as a dash (or the caller’s word) and leaves what is not a date as it is', () => {
    expect(formatDate(null)).toBe('—')
    expect(formatDate(undefined, 'Never')).toBe('Never')
    expect(formatDate(null, 'Not set')).toBe('Not set')
    expect(formatDate('soon')).toBe('soon')
    expect(formatDateTime(null)).toBe('—')
  })

  it('writes an instant with its time of day', () => {
    expect(formatDateTime('2026-11-25T15:04:00Z')).toMatch(/^Nov 2[56], 2026, \d{1,2}:04 (AM|PM)$/)
  })

  it('writes months and money', () => {
    expect(['2026-11', '2025-01'].map(formatMonth)).toEqual(['Nov 2026', 'Jan 2025'])
    expect(['2026-02-28', '2025-12-31'].map(formatLongMonth)).toEqual(['February 2026', 'December 2025'])
    expect(formatMoney(1234.5)).toBe('$1,234.50')
    expect(formatCompactMoney(9000)).toBe('$9K')
  })

  it('says how far a due date is in words, one day and several', () => {
    expect([-3, -1, 0, 1, 5].map(dueInWords)).toEqual(['3 days overdue', '1 day overdue', 'due today', 'due in 1 day', 'due in 5 days'])
  })

  it('writes a file size in the unit that reads best', () => {
    expect(formatFileSize(812)).toBe('812 bytes')
    expect(formatFileSize(1)).toBe('1 byte')
    expect(formatFileSize(3_482)).toBe('3.4 KB')
    // A SCORM package of 349.5 KB is that, not "0.34 MB" (issue 30 item 4).
    expect(formatFileSize(357_864)).toBe('349.5 KB')
    expect(formatFileSize(1.5 * 1024 * 1024)).toBe('1.50 MB')
  })
})
