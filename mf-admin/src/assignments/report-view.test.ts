import { describe, expect, it } from 'vitest'
import { NO_COUNTS } from './fixtures.test-support.ts'
import { countBars, pageOf, workbookName } from './report-view.ts'

describe('assignment report view', () => {
  it('scales the bars to the largest count, keeping a small count visible and none for 0', () => {
    const bars = countBars({ ...NO_COUNTS, overdue: 200, open: 1 }, 100)
    expect(bars.map((b) => [b.label, b.count, b.length])).toEqual([
      ['Overdue', 200, 100],
      ['Due soon', 0, 0],
      ['Open', 1, 2],
      ['Not due yet', 0, 0],
      ['Completed on time', 0, 0],
      ['Completed late', 0, 0],
      ['Exempt', 0, 0],
    ])
    expect(countBars(NO_COUNTS, 100).every((b) => b.length === 0)).toBe(true)
  })

  it('counts pages of 50 from the offset', () => {
    expect(pageOf(0, 0)).toEqual({ page: 1, pages: 1 })
    expect(pageOf(50, 101)).toEqual({ page: 2, pages: 3 })
  })

  it('names the workbook by the item and the day', () => {
    expect(workbookName('Lockout/Tagout — Annual', '2026-11-25')).toBe('assignment-report-lockout-tagout-annual-2026-11-25.xlsx')
    expect(workbookName('???', '2026-11-25')).toBe('assignment-report-rule-2026-11-25.xlsx')
  })
})
