import { describe, expect, it } from 'vitest'
import { NotificationConfigInput, StatsQuery } from './cert-notifications.ts'
import { certificationStatus, complianceColour, compliancePercentage, expirationBadge, inRecertificationWindow, isExpired, noticeBand, renewedExpiration } from './cert-rules.ts'

describe('certification notification rules', () => {
  it('puts days left into the 30/14/7/expired bands, expired only once the date has passed (admin §9 "expired below 0")', () => {
    expect([45, 31, 30, 15, 14, 8, 7, 1, 0, -1, -3].map(noticeBand)).toEqual([null, null, 30, 30, 14, 14, 7, 7, 7, 0, 0])
  })

  it('calls a certification expired in its notice band exactly when its badge and status do', () => {
    for (const days of [-2, -1, 0, 1]) {
      const date = new Date(Date.UTC(2026, 10, 25) + days * 86_400_000).toISOString().slice(0, 10)
      const expired = isExpired(days)
      expect([days, noticeBand(days) === 0]).toEqual([days, expired])
      expect([days, expirationBadge(days) === 'expired']).toEqual([days, expired])
      expect([
        days,
        certificationStatus({ expiration_date: date, verified_at: null, file_name: null, certification: { upload_required: false } }, '2026-11-25') === 'Expired',
      ]).toEqual([days, expired])
    }
    expect([-1, 0].map(isExpired)).toEqual([true, false])
  })

  it('colours and rounds compliance as admin §9 says', () => {
    expect(compliancePercentage(0, 0)).toBe(100)
    expect(compliancePercentage(2, 3)).toBe(67)
    expect([90, 89, 75, 74].map(complianceColour)).toEqual(['green', 'yellow', 'yellow', 'red'])
  })

  it('turns blank e-mails into null, keeps absent ones absent and refuses bad ones', () => {
    expect(NotificationConfigInput.parse({ manager_email: ' ', operations_manager_email: 'Ops@Example.com' })).toEqual({
      manager_email: null,
      operations_manager_email: 'ops@example.com',
    })
    const bad = NotificationConfigInput.safeParse({ additional_email_1: 'not-an-email' })
    expect(bad.success).toBe(false)
    expect(bad.error?.issues[0]?.message).toBe('Please enter a valid email address')
  })

  it('renews from the old expiry inside the 60-day window only', () => {
    expect(renewedExpiration('2026-03-01', '2026-01-15', 12)).toBe('2027-03-01')
    expect(renewedExpiration('2026-03-01', '2025-12-01', 12)).toBe('2026-12-01')
    expect(renewedExpiration('2026-03-01', '2026-03-10', 12)).toBe('2027-03-10')
    expect(renewedExpiration('2026-03-01', '2026-01-15', null)).toBeNull()
  })

  it('opens the window 60 days before the old expiry and closes it after the expiry day', () => {
    // 2026-03-01 minus 60 days is 2025-12-31.
    expect(['2025-12-30', '2025-12-31', '2026-02-28', '2026-03-01', '2026-03-02'].map((d) => inRecertificationWindow('2026-03-01', d))).toEqual([false, true, true, true, false])
    expect(renewedExpiration('2026-03-01', '2025-12-31', 12)).toBe('2027-03-01')
    expect(renewedExpiration('2026-03-01', '2025-12-30', 12)).toBe('2026-12-30')
  })

  it('refuses a stats range that runs backwards', () => {
    expect(StatsQuery.safeParse({ start_date: '2026-02-01', end_date: '2026-01-01' }).success).toBe(false)
  })
})
