import { describe, expect, it } from 'vitest'
import { formatSize, relativeDays } from './format.ts'

describe('formats', () => {
  it('says how far a date is in words', () => {
    expect([5, 1, 0, -1, -3].map(relativeDays)).toEqual(['in 5 days', 'in 1 day', 'today', '1 day ago', '3 days ago'])
  })

  it('shows file sizes', () => {
    expect(formatSize(1_500_000)).toBe('1.4 MB')
    expect(formatSize(820 * 1024)).toBe('820 KB')
    expect(formatSize(10)).toBe('1 KB')
  })
})
