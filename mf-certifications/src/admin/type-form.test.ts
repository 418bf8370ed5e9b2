import { CERT_MESSAGES } from '@portal/contracts'
import { describe, expect, it } from 'vitest'
import { brief, certType } from '../test/index.ts'
import {
  addableToTier,
  emptyTypeForm,
  formFromType,
  inTab,
  renewedByText,
  requirementsOfTier,
  tierSectionLabel,
  typesOfTier,
  validateTypeForm,
  validityOptions,
} from './type-form.ts'

const req = (id: number, tier: 0 | 1 | 2 | 3, certId: number, department: 'Service' | 'Testing' | null, isRequired = true) => ({
  id,
  tier_level: tier,
  certification_id: certId,
  is_required: isRequired,
  certification: brief(certId, { name: `Type ${certId}`, department }),
})

describe('certification type form', () => {
  it('starts with the defaults of admin §9 in the open tab’s department', () => {
    expect(emptyTypeForm('Testing')).toMatchObject({ tier_level: '0', department: 'Testing', validity_period: '', upload_required: true, is_active: true })
    expect(emptyTypeForm('All').department).toBe('')
  })

  it('sends every field of admin §3: empty department is every department, empty validity is lifetime', () => {
    const checked = validateTypeForm({
      ...emptyTypeForm('All'),
      name: ' OSHA 30 ',
      code: 'OSHA30',
      tier_level: '2',
      validity_period: '36',
      training_link: 'https://osha.example/30',
    })
    expect(checked).toEqual({
      body: {
        name: 'OSHA 30',
        code: 'OSHA30',
        tier_level: 2,
        department: null,
        training_link: 'https://osha.example/30',
        validity_period: 36,
        description: null,
        upload_required: true,
        is_active: true,
        renewed_by: [],
      },
    })
  })

  it('sends the courses and exams that renew the type, and reads them back', () => {
    const renewed_by = [
      { item_kind: 'course' as const, item_id: 3, item_title: 'Lockout/Tagout' },
      { item_kind: 'exam' as const, item_id: 9, item_title: 'Lockout/Tagout Final' },
    ]
    const checked = validateTypeForm({ ...emptyTypeForm('All'), name: 'LOTO', code: 'LOTO', renewed_by })
    expect('body' in checked && checked.body.renewed_by).toEqual(renewed_by)
    expect(formFromType(certType(4, { renewed_by })).renewed_by).toEqual(renewed_by)
    expect(renewedByText(certType(4, { renewed_by }))).toBe('Course: Lockout/Tagout; Exam: Lockout/Tagout Final')
    expect(renewedByText(certType(5))).toBe('—')
  })

  it('names each field in error', () => {
    expect(validateTypeForm({ ...emptyTypeForm('All'), training_link: 'javascript:alert(1)' })).toEqual({
      errors: { name: CERT_MESSAGES.nameRequired, code: CERT_MESSAGES.codeRequired, training_link: CERT_MESSAGES.trainingLinkInvalid },
    })
  })

  it('reads a stored type back into the form', () => {
    const form = formFromType(certType(3, { department: 'Service', validity_period: null, upload_required: false }))
    expect(form).toMatchObject({ department: 'Service', validity_period: '', upload_required: false, tier_level: '0' })
  })

  it('offers Lifetime and 1, 2, 3, 5 years, and keeps a stored value outside them', () => {
    expect(validityOptions('').map((o) => o.label)).toEqual(['Lifetime', '1 year', '2 years', '3 years', '5 years'])
    expect(validityOptions('18').at(-1)).toEqual({ value: '18', label: '18 months' })
  })
})

describe('certification management lists', () => {
  const types = [
    certType(1, { name: 'Zeta', department: 'Service', tier_level: 1 }),
    certType(2, { name: 'Alpha', department: null, tier_level: 1 }),
    certType(3, { name: 'Beta', department: 'Testing', tier_level: 1 }),
    certType(4, { name: 'Old', department: null, tier_level: 1, is_active: false }),
  ]

  it('shows under a department tab its types and those of every department; All shows all', () => {
    expect(inTab(null, 'Service')).toBe(true)
    expect(inTab('Testing', 'Service')).toBe(false)
    expect(typesOfTier(types, 'Service', 1).map((t) => t.name)).toEqual(['Alpha', 'Old', 'Zeta'])
    expect(typesOfTier(types, 'All', 1).map((t) => t.name)).toEqual(['Alpha', 'Beta', 'Old', 'Zeta'])
    expect(typesOfTier(types, 'All', 2)).toEqual([])
  })

  it('lists a tier’s requirements required first and offers only active types not yet listed', () => {
    const reqs = [req(1, 1, 2, null, false), req(2, 1, 1, 'Service'), req(3, 2, 3, 'Testing')]
    expect(requirementsOfTier(reqs, 'Service', 1).map((r) => r.id)).toEqual([2, 1])
    expect(requirementsOfTier(reqs, 'Service', 2)).toEqual([])
    expect(addableToTier(types, reqs, 'All', 1).map((t) => t.name)).toEqual(['Beta'])
    expect(addableToTier(types, reqs, 'Testing', 2).map((t) => t.name)).toEqual(['Alpha'])
  })

  it('names the tier sections 0 to 3', () => {
    expect([0, 1, 2, 3].map((t) => tierSectionLabel(t as 0))).toEqual(['Tier 0 · New Hire', 'Tier 1', 'Tier 2', 'Tier 3'])
  })
})
