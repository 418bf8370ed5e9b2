import { describe, expect, it } from 'vitest'
import {
  ariaSort,
  issuesView,
  locationText,
  monthsEnding,
  nextOrder,
  niceMax,
  NO_FILTERS,
  overdueCellText,
  overdueSummaryText,
  progressView,
  teamSearch,
  teamStateFromSearch,
  tiersAbove,
  trendPoints,
} from './team-view.ts'

describe('team view', () => {
  it('turns a sorted column round and starts another ascending', () => {
    expect(nextOrder({ sort: 'name', order: 'asc' }, 'name')).toEqual({ sort: 'name', order: 'desc' })
    expect(nextOrder({ sort: 'name', order: 'desc' }, 'progress')).toEqual({ sort: 'progress', order: 'asc' })
    expect(ariaSort({ sort: 'tier', order: 'desc' }, 'tier')).toBe('descending')
    expect(ariaSort({ sort: 'tier', order: 'desc' }, 'name')).toBe('none')
  })

  it('keeps the filters and order in the address, defaults left out, and reads back only what the screen offers', () => {
    const filters = { search: ' Pat ', branch: 'Portland', department: 'Service', overdue: true }
    const search = teamSearch(filters, { sort: 'overdue', order: 'desc' })
    expect(search).toBe('?search=Pat&branch=Portland&department=Service&overdue=true&sort=overdue&order=desc')
    expect(teamStateFromSearch(search)).toEqual({ filters: { ...filters, search: 'Pat' }, order: { sort: 'overdue', order: 'desc' } })
    expect(teamSearch(NO_FILTERS, { sort: 'name', order: 'asc' })).toBe('')
    expect(teamStateFromSearch('')).toEqual({ filters: NO_FILTERS, order: { sort: 'name', order: 'asc' } })
    // Unknown values are the defaults; a department of another branch is dropped.
    expect(teamStateFromSearch('?branch=Atlantis&department=Nowhere&overdue=yes&sort=salary&order=up')).toEqual({ filters: NO_FILTERS, order: { sort: 'name', order: 'asc' } })
    expect(teamStateFromSearch('?branch=Portland&department=Nowhere').filters).toMatchObject({ branch: 'Portland', department: '' })
  })

  it('says overdue assignments in words', () => {
    expect([overdueSummaryText(4, 7), overdueSummaryText(1, 1), overdueSummaryText(0, 0)]).toEqual(['4 people, 7 assignments', '1 person, 1 assignment', 'None'])
    expect([0, 1, 3].map(overdueCellText)).toEqual(['None', '1 assignment', '3 assignments'])
  })

  it('colours progress by the bands of learner §9 and calls 100% compliant', () => {
    expect([100, 80, 60, 10].map((p) => progressView(p).tone)).toEqual(['green', 'yellow', 'orange', 'red'])
    expect(progressView(100).compliant).toBe(true)
    expect(progressView(99).compliant).toBe(false)
  })

  it('says the issues in words, red once anything expired', () => {
    expect(issuesView({ expired_certifications: 0, expiring_soon: 0 })).toEqual({ text: 'None', tone: null })
    expect(issuesView({ expired_certifications: 0, expiring_soon: 2 })).toEqual({ text: '2 expiring soon', tone: 'yellow' })
    expect(issuesView({ expired_certifications: 1, expiring_soon: 2 })).toEqual({ text: '1 expired, 2 expiring soon', tone: 'red' })
    expect(locationText({ branch: 'Seattle', department: null })).toBe('Seattle · Department not set')
  })

  it('offers only Tier 2 and Tier 3 above the current one, never Tier 1', () => {
    expect(tiersAbove(0).map((t) => t.label)).toEqual(['Tier 2', 'Tier 3'])
    expect(tiersAbove(2).map((t) => t.label)).toEqual(['Tier 3'])
    expect(tiersAbove(1).map((t) => t.value)).toEqual(['2', '3'])
    expect(tiersAbove(3)).toEqual([])
  })

  it('lays the trend over the last six months across a year end, gaps left empty', () => {
    expect(monthsEnding('2026-02')).toEqual(['2025-09', '2025-10', '2025-11', '2025-12', '2026-01', '2026-02'])
    const points = trendPoints([{ month: '2026-01', gross_revenue: 5000, rev_pay_ratio: 31 }], '2026-02')
    expect(points[4]).toEqual({ month: '2026-01', label: 'Jan 2026', revenue: 5000, ratio: 31 })
    expect(points.filter((p) => p.revenue === null)).toHaveLength(5)
  })

  it('rounds the chart scale up to a readable top', () => {
    expect([0, 830, 12000, 19000, 24000, 41000].map(niceMax)).toEqual([1000, 1000, 20000, 20000, 25000, 50000])
  })
})
