import { addDays } from '@portal/contracts/cert-rules'
import { describe, expect, it } from 'vitest'
import { BADGE_TONE, certView } from './cert-view.ts'

const today = '2026-11-25'
const held = (expiration_date: string | null, over: { file_name?: string | null; uploaded_at?: string | null; verified_at?: string | null; upload_required?: boolean } = {}) => ({
  expiration_date,
  verified_at: over.verified_at ?? null,
  file_name: over.file_name ?? null,
  uploaded_at: over.uploaded_at ?? null,
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

  it('says why each expiration badge shows, at the boundary days of its band', () => {
    const why = (days: number) => certView(held(addDays(today, days)), today).badgeDescription
    expect(why(-1)).toBe('Expired 1 day ago: expiry Nov 24, 2026')
    expect(why(-3)).toBe('Expired 3 days ago: expiry Nov 22, 2026')
    expect(why(0)).toBe('Critical: expires today (Nov 25, 2026, its last valid day); critical from 10 days before expiry')
    expect(why(1)).toBe('Critical: expires in 1 day (Nov 26, 2026); critical from 10 days before expiry')
    expect(why(10)).toBe('Critical: expires in 10 days (Dec 5, 2026); critical from 10 days before expiry')
    expect(why(11)).toBe('Warning: expires in 11 days (Dec 6, 2026); warning from 30 days before expiry')
    expect(why(30)).toBe('Warning: expires in 30 days (Dec 25, 2026); warning from 30 days before expiry')
    expect(why(31)).toBe('Notice: expires in 31 days (Dec 26, 2026); notice from 60 days before expiry')
    expect(why(60)).toBe('Notice: expires in 60 days (Jan 24, 2027); notice from 60 days before expiry')
    expect(why(61)).toBeNull()
    expect(certView(held(null), today).badgeDescription).toBeNull()
  })

  it('starts every description with the words the badge shows', () => {
    for (const days of [-1, 0, 10, 11, 30, 31, 60]) {
      const view = certView(held(addDays(today, days)), today)
      expect(view.badgeDescription!.startsWith(view.badgeText!)).toBe(true)
      expect(view.statusDescription.startsWith(view.status)).toBe(true)
    }
  })

  it('gives lifetime certifications no badge', () => {
    expect(certView(held(null, { upload_required: false }), today)).toEqual({
      status: 'Completed',
      statusDescription: 'Completed: this type needs no proof file',
      days: null,
      badge: null,
      badgeText: null,
      badgeDescription: null,
    })
  })

  it('takes the status from the contracts: uploaded, not uploaded, verified', () => {
    expect(certView(held('2027-06-01', { file_name: 'card.pdf' }), today).status).toBe('Uploaded')
    expect(certView(held('2027-06-01'), today).status).toBe('Not Uploaded')
    expect(certView(held('2027-06-01', { verified_at: '2026-01-01T00:00:00Z' }), today).status).toBe('Verified')
  })

  it('says why a certification has its status', () => {
    const status = (c: ReturnType<typeof held>, on = today) => certView(c, on).statusDescription
    // Expired once the expiration date has passed, whatever else is true.
    expect(status(held('2026-11-22', { verified_at: '2026-01-01T00:00:00Z', file_name: 'card.pdf' }))).toBe('Expired 3 days ago: expiry Nov 22, 2026')
    expect(status(held('2026-11-24'))).toBe('Expired 1 day ago: expiry Nov 24, 2026')
    // The expiration date itself is the last valid day: not expired yet.
    expect(status(held('2026-11-25'))).toBe('Not Uploaded: this type needs a proof file and none is uploaded yet')
    expect(status(held('2027-06-01', { verified_at: '2026-01-01T10:00:00Z' }))).toBe('Verified on Jan 1, 2026')
    expect(status(held('2027-06-01', { file_name: 'card.pdf', uploaded_at: '2026-01-02T08:00:00Z' }))).toBe('Uploaded: proof card.pdf uploaded Jan 2, 2026, not verified yet')
    expect(status(held('2027-06-01', { file_name: 'card.pdf' }))).toBe('Uploaded: proof card.pdf, not verified yet')
    expect(status(held('2027-06-01', { upload_required: false, file_name: 'card.pdf' }))).toBe('Completed: this type needs no proof file')
  })

  it('colours expired and critical red, warning yellow, notice blue', () => {
    expect(BADGE_TONE).toEqual({ expired: 'red', critical: 'red', warning: 'yellow', notice: 'blue' })
  })
})
