import { describe, expect, it } from 'vitest'
import { BADGE_TONE, certView } from './cert-view.ts'

const today = '2026-11-25'
const held = (expiration_date: string | null, over: { file_name?: string | null; verified_at?: string | null; upload_required?: boolean } = {}) => ({
  expiration_date,
  verified_at: over.verified_at ?? null,
  file_name: over.file_name ?? null,
  certification: { upload_required: over.upload_required ?? true },
})

describe('certification view', () => {
  it('says the badge in words at each threshold of learner §4', () => {
    expect(certView(held('2026-11-22'), today)).toMatchObject({ status: 'Expired', badge: 'expired', badgeText: 'Expired 3 days ago' })
    expect(certView(held('2026-11-25'), today).badgeText).toBe('Critical: expires today')
    expect(certView(held('2026-12-05'), today).badgeText).toBe('Critical: expires in 10 days')
    expect(certView(held('2026-12-20'), today).badgeText).toBe('Warning: expires in 25 days')
    expect(certView(held('2027-01-19'), today).badgeText).toBe('Notice: expires in 55 days')
    expect(certView(held('2027-01-25'), today)).toMatchObject({ badge: null, badgeText: null, days: 61 })
  })

  it('gives lifetime certifications no badge', () => {
    expect(certView(held(null, { upload_required: false }), today)).toEqual({ status: 'Completed', days: null, badge: null, badgeText: null })
  })

  it('takes the status from the contracts: uploaded, not uploaded, verified', () => {
    expect(certView(held('2027-06-01', { file_name: 'card.pdf' }), today).status).toBe('Uploaded')
    expect(certView(held('2027-06-01'), today).status).toBe('Not Uploaded')
    expect(certView(held('2027-06-01', { verified_at: '2026-01-01T00:00:00Z' }), today).status).toBe('Verified')
  })

  it('colours expired and critical red, warning yellow, notice blue', () => {
    expect(BADGE_TONE).toEqual({ expired: 'red', critical: 'red', warning: 'yellow', notice: 'blue' })
  })
})
