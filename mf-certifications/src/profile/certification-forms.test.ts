import { computeExpiration, renewedExpiration } from '@portal/contracts/cert-rules'
import { describe, expect, it } from 'vitest'
import { explainExpiration, expirationOnSave, type ExpirationFields } from './certification-forms.ts'

/** What the preview says and what the server stores, for the same fields. */
const both = (fields: ExpirationFields) => [explainExpiration(fields), expirationOnSave(fields)]

describe('the expiration preview of Add Certification and the proof upload', () => {
  it('counts an empty expiration from the obtained date plus the validity', () => {
    expect(both({ obtained: '2026-12-23', entered: '', validityMonths: 12 })).toEqual(['Expires Dec 23, 2027: obtained date + 12 months', '2027-12-23'])
    expect(both({ obtained: '2026-11-25', entered: '', validityMonths: 1 })).toEqual(['Expires Dec 25, 2026: obtained date + 1 month', '2026-12-25'])
  })

  it('clamps to the last day of a shorter month and says so', () => {
    expect(both({ obtained: '2026-01-31', entered: '', validityMonths: 1 })).toEqual([
      "Expires Feb 28, 2026: obtained date + 1 month (February 2026 has no 31st: the month's last day)",
      '2026-02-28',
    ])
    expect(both({ obtained: '2024-02-29', entered: '', validityMonths: 12 })).toEqual([
      "Expires Feb 28, 2025: obtained date + 12 months (February 2025 has no 29th: the month's last day)",
      '2025-02-28',
    ])
    expect(explainExpiration({ obtained: '2026-03-30', entered: '', validityMonths: 11 })).toBe(
      "Expires Feb 28, 2027: obtained date + 11 months (February 2027 has no 30th: the month's last day)",
    )
    // A leap year has the 29th: nothing to say.
    expect(explainExpiration({ obtained: '2027-01-29', entered: '', validityMonths: 13 })).toBe('Expires Feb 29, 2028: obtained date + 13 months')
    expect(expirationOnSave({ obtained: '2026-01-31', entered: '', validityMonths: 1 })).toBe(computeExpiration('2026-01-31', 1))
  })

  it('keeps a date the user entered, lifetime types too, as the server does', () => {
    expect(both({ obtained: '2026-01-01', entered: '2026-06-30', validityMonths: 12 })).toEqual(['Expires Jun 30, 2026: the date you entered', '2026-06-30'])
    expect(both({ obtained: '', entered: '2030-01-15', validityMonths: null })).toEqual(['Expires Jan 15, 2030: the date you entered', '2030-01-15'])
  })

  it('says a lifetime type never expires', () => {
    expect(both({ obtained: '2026-01-01', entered: '', validityMonths: null })).toEqual(['Never expires: this certification type has no validity period', null])
    expect(both({ obtained: '', entered: '', validityMonths: null })).toEqual(['Never expires: this certification type has no validity period', null])
  })

  it('says that without an obtained date nothing is counted (Add), or that the date is needed (upload)', () => {
    expect(both({ obtained: '', entered: '', validityMonths: 24 })).toEqual([
      'Saved without an expiration date, so it shows as never expiring: enter the obtained date to count 24 months from it',
      null,
    ])
    expect(explainExpiration({ obtained: '', entered: '', validityMonths: 24, obtainedRequired: true })).toBe('Enter the obtained date: it expires 24 months after it')
  })

  it('says nothing while a date field holds no whole date', () => {
    expect(explainExpiration({ obtained: '2026-1', entered: '', validityMonths: 12 })).toBeNull()
    expect(explainExpiration({ obtained: '2026-01-01', entered: '20261', validityMonths: 12 })).toBeNull()
  })

  describe('a renewal of the certification held (a later obtained date)', () => {
    // Mar 1, 2027 less 60 days is Dec 31, 2026: the window's first day.
    const held = { obtained_date: '2025-03-01', expiration_date: '2027-03-01' }
    const renewal = (obtained: string) => both({ obtained, entered: '', validityMonths: 24, held })

    it('counts from the previous expiry inside the 60-day window, its first and last days included', () => {
      for (const [on, left] of [
        ['2026-12-31', 60],
        ['2027-02-01', 28],
        ['2027-03-01', 0],
      ] as const) {
        expect(renewal(on), `${left} days before`).toEqual([
          'Expires Mar 1, 2029: renewal inside the 60-day window: counts from the previous expiry Mar 1, 2027 + 24 months',
          '2029-03-01',
        ])
        expect(expirationOnSave({ obtained: on, entered: '', validityMonths: 24, held })).toBe(renewedExpiration(held.expiration_date, on, 24))
      }
    })

    it('counts from the obtained date 61 days before the previous expiry, and once it has passed', () => {
      expect(renewal('2026-12-30')).toEqual([
        'Expires Dec 30, 2028: obtained date + 24 months; renewed more than 60 days before the previous expiry Mar 1, 2027, so it counts from the obtained date',
        '2028-12-30',
      ])
      expect(renewal('2027-03-02')).toEqual([
        'Expires Mar 2, 2029: obtained date + 24 months; the previous expiry Mar 1, 2027 had passed, so it counts from the obtained date',
        '2029-03-02',
      ])
    })

    it('clamps a renewal from the previous expiry too', () => {
      expect(explainExpiration({ obtained: '2027-01-15', entered: '', validityMonths: 1, held: { obtained_date: '2026-12-31', expiration_date: '2027-01-31' } })).toBe(
        "Expires Feb 28, 2027: renewal inside the 60-day window: counts from the previous expiry Jan 31, 2027 + 1 month (February 2027 has no 31st: the month's last day)",
      )
    })

    it('is no renewal with the same or an earlier obtained date, or without a previous expiry', () => {
      expect(renewal('2025-03-01')).toEqual(['Expires Mar 1, 2027: obtained date + 24 months', '2027-03-01'])
      expect(renewal('2025-02-01')).toEqual(['Expires Feb 1, 2027: obtained date + 24 months', '2027-02-01'])
      expect(both({ obtained: '2026-12-31', entered: '', validityMonths: 24, held: { obtained_date: '2025-03-01', expiration_date: null } })).toEqual([
        'Expires Dec 31, 2028: obtained date + 24 months',
        '2028-12-31',
      ])
    })

    it('names the expiration on record the form still holds, and what clearing it gives a renewal', () => {
      expect(both({ obtained: '2025-03-01', entered: '2027-03-01', validityMonths: 24, held })).toEqual([
        'Expires Mar 1, 2027: the expiration date on record, as entered',
        '2027-03-01',
      ])
      expect(both({ obtained: '2027-01-15', entered: '2027-03-01', validityMonths: 24, held })).toEqual([
        'Expires Mar 1, 2027: the expiration date on record, as entered. Clear it to have Mar 1, 2029 instead: renewal inside the 60-day window: counts from the previous expiry Mar 1, 2027 + 24 months',
        '2027-03-01',
      ])
      expect(explainExpiration({ obtained: '2027-01-15', entered: '2027-06-30', validityMonths: 24, held })).toBe('Expires Jun 30, 2027: the date you entered')
    })
  })
})
