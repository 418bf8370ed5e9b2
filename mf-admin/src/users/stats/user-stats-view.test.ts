import { describe, expect, it } from 'vitest'
import { courseProgressBadge, formatPercent, scoreBadge } from './user-stats-view.ts'

describe('user stats view', () => {
  it('badges course history: Completed when completedAt is set, else percent above 0, else Not Started (§4)', () => {
    expect(courseProgressBadge({ progress: 40, completedAt: '2026-01-01T00:00:00Z' })).toEqual({ label: 'Completed', tone: 'green' })
    expect(courseProgressBadge({ progress: 42.6, completedAt: null })).toEqual({ label: '43% Complete', tone: 'blue' })
    expect(courseProgressBadge({ progress: 0, completedAt: null })).toEqual({ label: 'Not Started', tone: 'grey' })
  })

  it('colours exam scores 70+ green, 60+ yellow, else red (§9)', () => {
    expect(scoreBadge(70).tone).toBe('green')
    expect(scoreBadge(69.9).tone).toBe('yellow')
    expect(scoreBadge(60).tone).toBe('yellow')
    expect(scoreBadge(59).tone).toBe('red')
    expect(formatPercent(72.46)).toBe('72.5%')
  })
})
