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
    expect(compliance({ technicians: 0, compliant: 0 })).toEqual({ percent: 100, tone: 'green' })
    expect(compliance({ technicians: 3, compliant: 2 })).toEqual({ percent: 67, tone: 'red' })
    expect(compliance({ technicians: 4, compliant: 3 })).toEqual({ percent: 75, tone: 'yellow' })
    expect(compliance({ technicians: 10, compliant: 9 })).toEqual({ percent: 90, tone: 'green' })
  })

  it('gives the admin tab its four cards, each with the link to its screen', () => {
    const cards = adminCards({ types_total: 15, types_active: 14, technicians: 5, compliant: 4, expired: 2, expiring_soon: 3 })
    expect(cards.map((c) => [c.title, c.action.to])).toEqual([
      ['Team Management', '/manager/dashboard'],
      ['Certification Admin', '/admin/certifications'],
      ['Notification Settings', '/admin/certification-notifications'],
      ['Revenue Entry', '/admin/revenue-entry'],
    ])
    expect(cards[0]!.figures).toEqual([
      { label: 'Technicians', value: '5' },
      { label: 'Compliant', value: '80%', tone: 'yellow' },
    ])
    expect(cards[2]!.figures.map((f) => f.value)).toEqual(['3', '2'])
    expect(adminCards(undefined).every((c) => c.figures.length === 0)).toBe(true)
  })
})
