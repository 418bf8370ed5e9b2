import { describe, expect, it } from 'vitest'
import { adminCards, compliance, myCertificationsLine, trackingFigures } from './cards.ts'

const summary = {
  total: 4,
  valid: 3,
  expiring_soon: 1,
  expired: 1,
  required_total: 2,
  required_met: 1,
  current_tier: 1 as const,
  next_tier_progress: { tier_level: 2 as const, required_total: 3, required_met: 1, percent: 33 },
}

describe('dashboard cards', () => {
  it('gives Certification Tracking its figures, flagging what needs attention in words and colour', () => {
    expect(trackingFigures(summary)).toEqual([
      { label: 'Certifications', value: '4' },
      { label: 'Valid', value: '3' },
      { label: 'Expiring Soon', value: '1', tone: 'yellow' },
      { label: 'Expired', value: '1', tone: 'red' },
      { label: 'Required for Tier 1', value: '1 of 2', tone: 'yellow' },
    ])
    expect(trackingFigures({ ...summary, required_total: 0, required_met: 0, expired: 0 }).slice(3)).toEqual([
      { label: 'Expired', value: '0', tone: undefined },
      { label: 'Required for Tier 1', value: 'None', tone: undefined },
    ])
  })

  it('sums up My Certifications with the tier and the way to the next', () => {
    expect(myCertificationsLine(summary)).toBe('Tier 1 · 4 certifications · 33% of the way to Tier 2')
    expect(myCertificationsLine({ ...summary, total: 1, current_tier: 3, next_tier_progress: null })).toBe('Tier 3 (the highest tier) · 1 certification')
  })

  it('computes compliance as admin §9 says: rounded, 100 without technicians, coloured at 90 and 75', () => {
    expect(compliance(0, 0)).toEqual({ percent: 100, tone: 'green' })
    expect(compliance(2, 3)).toEqual({ percent: 67, tone: 'red' })
    expect(compliance(3, 4)).toEqual({ percent: 75, tone: 'yellow' })
    expect(compliance(9, 10)).toEqual({ percent: 90, tone: 'green' })
    expect(compliance(57, 200)).toEqual({ percent: 29, tone: 'red' })
  })

  it('gives the admin tab its four cards, each with the link to its screen', () => {
    const cards = adminCards({ types_total: 15, types_active: 14, technicians: 5, requirements_met: 4, no_expired: 3, expired: 2, expiring_soon: 3, as_of: '2026-11-28' })
    expect(cards.map((c) => [c.title, c.action.to])).toEqual([
      ['Team Management', '/manager/dashboard'],
      ['Certification Admin', '/admin/certifications'],
      ['Notification Settings', '/admin/certification-notifications'],
      ['Revenue Entry', '/admin/revenue-entry'],
    ])
    // The two measures, each named for what it counts (issue 23), never one "Compliant" for both.
    expect(cards[0]!.figures.map((f) => [f.label, f.value, 'tone' in f ? f.tone : undefined])).toEqual([
      ['Technicians', '5', undefined],
      ['Requirements met', '4 of 5 (80%)', 'yellow'],
    ])
    expect(cards[2]!.figures.map((f) => [f.label, f.value])).toEqual([
      ['No expired certifications', '3 of 5 (60%)'],
      ['Expiring Soon', '3'],
      ['Expired', '2'],
    ])
    expect(
      cards
        .flatMap((c) => c.figures)
        .filter((f) => f.label !== 'Expiring Soon' && f.label !== 'Expired' && f.label !== 'Active Types' && f.label !== 'All Types')
        .every((f) => f.help),
    ).toBe(true)
    expect(adminCards(undefined).every((c) => c.figures.length === 0)).toBe(true)
  })
})
