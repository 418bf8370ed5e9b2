import { CERT_MESSAGES } from '@portal/contracts'
import { describe, expect, it } from 'vitest'
import { certifications, profile, USER_ID } from '../test/index.ts'
import { buildReplaceForm, buildUploadForm, checkProofFile, validateAdd, validityHint } from './certification-forms.ts'
import { groupByTier, NO_REVENUE, notificationsChanged, notificationsText, revenueCards, shownOrder, tierPanel } from './profile-view.ts'
import { pauseEnd } from './api.ts'

const file = (name: string, type: string, size: number) => new File([new Uint8Array(size)], name, { type })

describe('technician profile: certifications by tier', () => {
  it('groups by the type’s tier, New Hire first, by name within a tier', () => {
    const groups = groupByTier(certifications)
    expect(groups.map((g) => g.label)).toEqual(['New Hire', 'Tier 1', 'Tier 2', 'Tier 3'])
    expect(groups[0]!.certs.map((c) => c.certification.name)).toEqual(['Ladder Safety', 'OSHA 10'])
    expect(groups[3]!.certs).toEqual([])
  })

  it('knows the order the cards are shown in, to find the card after a deleted one', () => {
    expect(shownOrder(certifications)).toEqual([3, 1, 2, 4])
  })
})

describe('technician profile: revenue cards', () => {
  it('says "No revenue recorded" on all four cards until revenue exists, never zeros', () => {
    const cards = revenueCards(null)
    expect(cards.map((c) => c.label)).toEqual(['Monthly Revenue', 'Monthly Pay', 'Rev/Pay Ratio', 'Yearly Revenue YTD'])
    expect(cards.every((c) => c.text === NO_REVENUE && !c.recorded)).toBe(true)
  })

  it('shows dollars with two decimals and the ratio with its colour of learner §9', () => {
    const cards = revenueCards({ monthly_revenue: 12500, monthly_pay: 4000, rev_pay_ratio: 31.25, yearly_revenue_ytd: 98000.5, month: '2026-10' })
    expect(cards.map((c) => c.text)).toEqual(['$12,500.00', '$4,000.00', '31.25', '$98,000.50'])
    expect(cards[2]!.colour).toBe('yellow')
  })

  it('keeps a month without pay honest', () => {
    expect(revenueCards({ monthly_revenue: 100, monthly_pay: null, rev_pay_ratio: null, yearly_revenue_ytd: 100, month: '2026-10' })[1]!.text).toBe(NO_REVENUE)
  })
})

describe('technician profile: tier progress', () => {
  it('lists the next tier’s requirements, required first, and how many are met', () => {
    const panel = tierPanel(profile())
    expect(panel.currentLabel).toBe('Tier 1')
    expect(panel.heading).toBe('Progress to Tier 2')
    expect(panel.summary).toBe('1 of 2 required certifications (50%)')
    expect(panel.requirements.map((r) => [r.certification.name, r.is_required, r.met])).toEqual([
      ['Arc Flash', true, false],
      ['NFPA 70E', true, true],
      ['Forklift', false, false],
    ])
  })

  it('at Tier 3 lists the current tier’s requirements', () => {
    const top = tierPanel(
      profile({
        tier: { current_tier: 3, notifications_paused: false, notifications_paused_until: null, rev_pay_ratio: null },
        current_tier_progress: { tier_level: 3, required_total: 0, required_met: 0, percent: 100 },
        next_tier_progress: null,
      }),
    )
    expect(top).toMatchObject({ atTop: true, heading: 'Tier 3 requirements', summary: 'Tier 3 has no required certifications.', percent: 100 })
  })
})

describe('technician profile: notifications', () => {
  it('says whether notifications are on or until when they are paused', () => {
    expect(notificationsText({ current_tier: 1, notifications_paused: false, notifications_paused_until: null, rev_pay_ratio: null })).toMatch(/^On/)
    expect(notificationsText({ current_tier: 1, notifications_paused: true, notifications_paused_until: '2026-12-25T10:00:00.000Z', rev_pay_ratio: null })).toBe(
      'Paused until Dec 25, 2026',
    )
    expect(notificationsChanged(true, '2026-12-25T10:00:00.000Z')).toBe('Notifications paused until Dec 25, 2026.')
    expect(notificationsChanged(false, null)).toBe('Notifications resumed.')
  })

  it('pauses for 30 days from now', () => {
    expect(pauseEnd(new Date('2026-11-25T10:00:00.000Z'))).toBe('2026-12-25T10:00:00.000Z')
  })
})

describe('technician profile: Add Certification', () => {
  it('needs a certification and a trimmed number; dates are optional', () => {
    expect(validateAdd({ certification_id: '', certification_number: '  ', obtained_date: '', expiration_date: '' })).toEqual({
      errors: { certification_id: CERT_MESSAGES.certificationRequired, certification_number: CERT_MESSAGES.certificationNumberRequired },
    })
    expect(validateAdd({ certification_id: '4', certification_number: ' A-1 ', obtained_date: '', expiration_date: '' })).toEqual({
      body: { certification_id: 4, certification_number: 'A-1', obtained_date: null, expiration_date: null, notes: null },
    })
  })

  it('refuses an expiration before the obtained date, and names the technician when an admin adds', () => {
    expect(validateAdd({ certification_id: '4', certification_number: 'A', obtained_date: '2026-02-01', expiration_date: '2026-01-01' })).toEqual({
      errors: { expiration_date: CERT_MESSAGES.expirationBeforeObtained },
    })
    const checked = validateAdd({ certification_id: '4', certification_number: 'A', obtained_date: '', expiration_date: '' }, USER_ID)
    expect('body' in checked && checked.body.user_id).toBe(USER_ID)
  })

  it('hints the typical validity (what an empty expiration becomes: certification-forms.test.ts)', () => {
    expect(validityHint(24)).toBe('Typical validity: 2 years')
    expect(validityHint(null)).toBe('Typical validity: Lifetime')
    expect(validityHint(18)).toBe('Typical validity: 18 months')
  })
})

describe('technician profile: proof upload', () => {
  it('replaces a proof with the file alone, checked the same way', () => {
    expect(buildReplaceForm(file('x.gif', 'image/gif', 3))).toEqual({ errors: { file: CERT_MESSAGES.fileType } })
    const built = buildReplaceForm(file('new.png', 'image/png', 3))
    expect('form' in built && [...built.form.keys()]).toEqual(['file'])
  })

  it('takes PDF, JPEG and PNG up to 10 MB, with the spec’s messages otherwise', () => {
    expect(checkProofFile(file('card.pdf', 'application/pdf', 10))).toBeNull()
    expect(checkProofFile(file('card.jpg', 'image/jpeg', 10))).toBeNull()
    expect(checkProofFile(file('card.png', 'image/png', 10_485_760))).toBeNull()
    expect(checkProofFile(file('card.exe', 'application/x-msdownload', 10))).toBe('Please select a PDF, JPEG, or PNG file.')
    expect(checkProofFile(file('card.gif', 'image/gif', 10))).toBe('Please select a PDF, JPEG, or PNG file.')
    expect(checkProofFile(file('big.pdf', 'application/pdf', 10_485_761))).toBe('File size must be less than 10MB.')
    expect(checkProofFile(file('empty.pdf', 'application/pdf', 0))).toBe(CERT_MESSAGES.fileEmpty)
    expect(checkProofFile(null)).toBe(CERT_MESSAGES.fileRequired)
  })

  it('judges a file the browser gave no type by its name', () => {
    expect(checkProofFile({ name: 'scan.PDF', type: '', size: 5 })).toBeNull()
    expect(checkProofFile({ name: 'scan.txt', type: '', size: 5 })).toBe(CERT_MESSAGES.fileType)
  })

  it('needs a file and the obtained date, and sends the spec’s multipart fields', () => {
    expect(buildUploadForm(4, { file: null, obtained_date: '', expiration_date: '', notes: '' })).toEqual({
      errors: { file: CERT_MESSAGES.fileRequired, obtained_date: CERT_MESSAGES.obtainedDateRequired },
    })
    const built = buildUploadForm(4, { file: file('card.pdf', 'application/pdf', 10), obtained_date: '2026-01-02', expiration_date: '', notes: ' renewed ' })
    if (!('form' in built)) throw new Error('expected a form')
    expect([...built.form.keys()]).toEqual(['certification_id', 'obtained_date', 'notes', 'file'])
    expect(built.form.get('certification_id')).toBe('4')
    expect(built.form.get('notes')).toBe('renewed')
    expect((built.form.get('file') as File).name).toBe('card.pdf')
  })
})
