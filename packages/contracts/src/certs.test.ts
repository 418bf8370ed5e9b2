import { describe, expect, it } from 'vitest'
import { AddCertificationBody, CertificationTypeInput, UploadCertificationFields, nextTier, promotionTiers, validityLabel } from './certs.ts'
import { certificationStatus, computeExpiration, daysUntil, expirationBadge, requirementMet } from './cert-rules.ts'

const cert = (over: Partial<Parameters<typeof certificationStatus>[0]> = {}, uploadRequired = true) => ({
  expiration_date: null,
  verified_at: null,
  file_name: null,
  certification: { upload_required: uploadRequired },
  ...over,
})

describe('certification rules', () => {
  it('counts days between calendar dates, negative once passed', () => {
    expect(daysUntil('2026-12-05', '2026-11-25')).toBe(10)
    expect(daysUntil('2026-11-24', '2026-11-25')).toBe(-1)
    expect(daysUntil('2027-03-30', '2026-03-30')).toBe(365)
  })

  it('adds validity months, clamping to the end of a shorter month; lifetime has no expiration', () => {
    expect(computeExpiration('2026-01-31', 1)).toBe('2026-02-28')
    expect(computeExpiration('2024-02-29', 12)).toBe('2025-02-28')
    expect(computeExpiration('2026-11-25', 24)).toBe('2028-11-25')
    expect(computeExpiration('2026-11-25', null)).toBeNull()
  })

  it('gives the expiration badge of learner §4 at each threshold', () => {
    expect([-1, 0, 10, 11, 30, 31, 60, 61].map(expirationBadge)).toEqual(['expired', 'critical', 'critical', 'warning', 'warning', 'notice', 'notice', null])
    expect(expirationBadge(null)).toBeNull()
  })

  it('gives Expired first, then Verified, then Uploaded / Not Uploaded, else Completed', () => {
    const today = '2026-11-25'
    expect(certificationStatus(cert({ expiration_date: '2026-11-24', verified_at: '2026-01-01T00:00:00Z' }), today)).toBe('Expired')
    expect(certificationStatus(cert({ expiration_date: '2026-11-25', verified_at: '2026-01-01T00:00:00Z' }), today)).toBe('Verified')
    expect(certificationStatus(cert({ file_name: 'card.pdf' }), today)).toBe('Uploaded')
    expect(certificationStatus(cert(), today)).toBe('Not Uploaded')
    expect(certificationStatus(cert({}, false), today)).toBe('Completed')
  })

  it('meets a requirement when valid; the manager view also needs the proof a type requires', () => {
    const today = '2026-11-25'
    expect(requirementMet(undefined, today)).toBe(false)
    expect(requirementMet(cert({ expiration_date: '2026-11-01' }), today)).toBe(false)
    expect(requirementMet(cert(), today)).toBe(true)
    expect(requirementMet(cert(), today, { managerView: true })).toBe(false)
    expect(requirementMet(cert({ file_name: 'a.png' }), today, { managerView: true })).toBe(true)
    expect(requirementMet(cert({}, false), today, { managerView: true })).toBe(true)
  })

  it('caps the next tier at 3 and offers promotions to Tier 2 or 3 above the current tier, never Tier 1', () => {
    expect([0, 1, 2, 3].map((t) => nextTier(t as 0))).toEqual([1, 2, 3, 3])
    expect(promotionTiers(0)).toEqual([2, 3])
    expect(promotionTiers(1)).toEqual([2, 3])
    expect(promotionTiers(2)).toEqual([3])
    expect(promotionTiers(3)).toEqual([])
  })

  it('names validity periods as admin §9 does', () => {
    expect([null, 12, 24, 36, 60, 18].map(validityLabel)).toEqual(['Lifetime', '1 year', '2 years', '3 years', '5 years', '18 months'])
  })
})

describe('certification payloads', () => {
  it('applies the type defaults of admin §9 and turns empty links into null', () => {
    const t = CertificationTypeInput.parse({ name: ' OSHA 10 ', code: 'OSHA10', training_link: '' })
    expect(t).toMatchObject({ name: 'OSHA 10', tier_level: 0, department: null, validity_period: null, upload_required: true, is_active: true, training_link: null })
    expect(CertificationTypeInput.safeParse({ name: 'x', code: 'y', training_link: 'javascript:alert(1)' }).success).toBe(false)
    expect(CertificationTypeInput.safeParse({ name: ' ', code: 'y' }).error?.issues[0]?.message).toBe('Certification name is required')
  })

  it('requires a certification and a trimmed number to add one; dates are optional and ordered', () => {
    expect(AddCertificationBody.safeParse({ certification_id: 3, certification_number: '  ' }).error?.issues[0]?.message).toBe('Certification number is required')
    expect(AddCertificationBody.parse({ certification_id: 3, certification_number: ' A-1 ', obtained_date: '' })).toMatchObject({
      certification_number: 'A-1',
      obtained_date: null,
      expiration_date: null,
    })
    expect(AddCertificationBody.safeParse({ certification_id: 3, certification_number: 'A', obtained_date: '2026-02-01', expiration_date: '2026-01-01' }).success).toBe(false)
  })

  it('requires the obtained date for an upload', () => {
    expect(UploadCertificationFields.safeParse({ certification_id: '4' }).error?.issues[0]?.message).toBe('Obtained date is required')
    expect(UploadCertificationFields.parse({ certification_id: '4', obtained_date: '2026-01-02' }).certification_id).toBe(4)
  })
})
