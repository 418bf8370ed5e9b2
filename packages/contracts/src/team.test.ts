import { describe, expect, it } from 'vitest'
import { LeaderboardQuery, ManualRevenueBody, RecentEntriesQuery, TeamQuery, TierPromotionBody } from './team.ts'
import { formatUsd, progressColour, ratioColour } from './team-scales.ts'
import { TierLevel } from './certs.ts'

describe('team and revenue rules', () => {
  it('colours ratios and progress at the thresholds of learner §9', () => {
    expect([35, 34.99, 30, 25, 24.99].map(ratioColour)).toEqual(['green', 'yellow', 'yellow', 'orange', 'red'])
    expect([100, 99, 75, 50, 49].map(progressColour)).toEqual(['green', 'yellow', 'yellow', 'orange', 'red'])
  })
  it('shows USD with two decimals', () => {
    expect(formatUsd(12345.6)).toBe('$12,345.60')
  })
  it('needs a pay amount from January 2025 on, not before', () => {
    const base = { user_id: '0b7c1c56-3f47-4c0f-9d59-8f1d8f1f6a11', gross_revenue: 1000 }
    expect(ManualRevenueBody.safeParse({ ...base, month: '2024-12' }).success).toBe(true)
    expect(ManualRevenueBody.safeParse({ ...base, month: '2025-01' }).error?.issues[0]?.message).toBe('Pay amount is required from January 2025 on')
    expect(ManualRevenueBody.safeParse({ ...base, month: '2025-01', pay_amount: 250 }).success).toBe(true)
    expect(ManualRevenueBody.safeParse({ ...base, month: '2025-13', pay_amount: 1 }).success).toBe(false)
    expect(ManualRevenueBody.safeParse({ ...base, month: '2025-02', gross_revenue: -1, pay_amount: 1 }).success).toBe(false)
    expect(ManualRevenueBody.safeParse({ ...base, month: '2025-02', gross_revenue: 'x', pay_amount: 1 }).success).toBe(false)
  })
  it('reads empty filters as absent and requires a justification for a promotion', () => {
    expect(TeamQuery.parse({ branch: '', department: 'Testing', limit: '20' })).toMatchObject({ branch: undefined, department: 'Testing', limit: 20, sort: 'name' })
    expect(TierPromotionBody.safeParse({ userId: '0b7c1c56-3f47-4c0f-9d59-8f1d8f1f6a11', newTier: 2, justification: '  ' }).error?.issues[0]?.message).toBe(
      'Justification is required',
    )
  })
  it('asks a promotion for Tier 2 or Tier 3 only (learner §4)', () => {
    const body = (newTier: number) => TierPromotionBody.safeParse({ userId: '0b7c1c56-3f47-4c0f-9d59-8f1d8f1f6a11', newTier, justification: 'Ready' })
    expect(body(0).error?.issues[0]?.message).toBe('The new tier must be Tier 2 or Tier 3')
    expect(body(1).error?.issues[0]?.message).toBe('The new tier must be Tier 2 or Tier 3')
    expect([2, 3].map((t) => body(t).success)).toEqual([true, true])
  })
  it('names the parameter and its range when a query is out of bounds', () => {
    const message = (r: { error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message
    expect(message(RecentEntriesQuery.safeParse({ limit: 'abc' }))).toBe('limit must be a whole number from 1 to 100')
    expect(message(RecentEntriesQuery.safeParse({ limit: '1000' }))).toBe('limit must be a whole number from 1 to 100')
    expect(message(RecentEntriesQuery.safeParse({ limit: '2.5' }))).toBe('limit must be a whole number from 1 to 100')
    expect(RecentEntriesQuery.parse({})).toEqual({ limit: 10 })
    expect(message(TeamQuery.safeParse({ limit: '-1' }))).toBe('limit must be a whole number from 1 to 500')
    expect(message(TeamQuery.safeParse({ offset: 'x' }))).toBe('offset must be a whole number from 0 to 1000000')
    expect(message(TeamQuery.safeParse({ search: 'a'.repeat(201) }))).toBe('search may hold at most 200 characters')
    expect(message(LeaderboardQuery.safeParse({ date: 'garbage' }))).toBe('Use a date in the form YYYY-MM-DD or a month YYYY-MM')
    expect(LeaderboardQuery.safeParse({ date: '2026-02' }).success).toBe(true)
  })
  it('says which tiers a promotion and a certification type may name', () => {
    const body = { userId: '00000000-0000-4000-8000-000000000000', justification: 'Ready' }
    for (const newTier of [0, 1, 4, 9, 'two', null])
      expect(TierPromotionBody.safeParse({ ...body, newTier }).error?.issues[0]?.message).toBe('The new tier must be Tier 2 or Tier 3')
    expect(TierPromotionBody.parse({ ...body, newTier: 3 }).newTier).toBe(3)
    expect(TierLevel.safeParse(7).error?.issues[0]?.message).toBe('Tier level must be 0 (New Hire), 1, 2 or 3')
  })
})
