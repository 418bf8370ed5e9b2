import { CertificationType, TechnicianProfile, TierRequirement, UserCertification, type CertificationBrief } from '@portal/contracts'

/** Test data shaped (and checked) by the contracts. */
export const TODAY = '2026-11-25'
export const USER_ID = '7d0c8e3e-1f6e-4c39-9d0a-2a5f4c1b9e10'

export const brief = (id: number, over: Partial<CertificationBrief> = {}): CertificationBrief => ({
  id,
  name: `Cert ${id}`,
  code: `C${id}`,
  tier_level: 0,
  department: null,
  upload_required: true,
  training_link: null,
  validity_period: 24,
  ...over,
})

export const held = (id: number, over: Partial<UserCertification> = {}): UserCertification =>
  UserCertification.parse({
    id,
    user_id: USER_ID,
    certification_id: over.certification?.id ?? id,
    certification: brief(id),
    certification_number: `N-${id}`,
    obtained_date: '2025-01-10',
    expiration_date: '2027-01-10',
    notes: null,
    file_path: null,
    file_name: null,
    file_size: null,
    file_type: null,
    uploaded_at: null,
    is_valid: true,
    verified_at: null,
    status: 'Not Uploaded',
    days_until_expiry: 46,
    expiration_badge: 'notice',
    created_at: '2025-01-10T00:00:00.000Z',
    updated_at: '2025-01-10T00:00:00.000Z',
    ...over,
  })

const withFile = (name: string) => ({
  file_path: `/technician/certifications/x/file`,
  file_name: name,
  file_size: 120_000,
  file_type: 'application/pdf',
  uploaded_at: '2026-01-02T00:00:00.000Z',
})

/** A Tier 1 technician: an expired OSHA card, a critical first-aid card with its proof, a lifetime one, a Tier 2 one. */
export const certifications = [
  held(1, { certification: brief(1, { name: 'OSHA 10', code: 'OSHA10' }), expiration_date: '2026-11-20', ...withFile('osha.pdf') }),
  held(2, { certification: brief(2, { name: 'First Aid', code: 'FA', tier_level: 1 }), expiration_date: '2026-12-01', ...withFile('first-aid.pdf') }),
  held(3, { certification: brief(3, { name: 'Ladder Safety', code: 'LAD', upload_required: false, validity_period: null }), expiration_date: null }),
  held(4, { certification: brief(4, { name: 'NFPA 70E', code: 'NFPA', tier_level: 2, training_link: 'https://example.com/nfpa' }), expiration_date: '2027-01-10' }),
]

export const requirement = (id: number, tier: 0 | 1 | 2 | 3, cert: CertificationBrief, isRequired: boolean, met: boolean, held: number | null = null) => ({
  ...TierRequirement.parse({ id, tier_level: tier, certification_id: cert.id, is_required: isRequired, certification: cert }),
  met,
  user_certification_id: held,
})

export const profile = (over: Partial<TechnicianProfile> = {}): TechnicianProfile =>
  TechnicianProfile.parse({
    user: {
      id: USER_ID,
      name: 'Pat Portland',
      email: 'tech.portland@example.com',
      employee_id: 'E-1001',
      branch: 'Portland',
      department: 'Service',
      hire_date: '2021-03-15',
    },
    tier: { current_tier: 1, notifications_paused: false, notifications_paused_until: null, rev_pay_ratio: null },
    tier_requirements: [
      requirement(10, 2, certifications[3]!.certification, true, true, 4),
      requirement(11, 2, brief(5, { name: 'Arc Flash', code: 'ARC', tier_level: 2 }), true, false),
      requirement(12, 2, brief(6, { name: 'Forklift', code: 'FORK', tier_level: 2 }), false, false),
      requirement(13, 1, certifications[1]!.certification, true, true, 2),
    ],
    certifications,
    upcoming_expirations: [certifications[0], certifications[1]],
    revenue_data: null,
    current_tier_progress: { tier_level: 1, required_total: 1, required_met: 1, percent: 100 },
    next_tier_progress: { tier_level: 2, required_total: 2, required_met: 1, percent: 50 },
    permissions: { can_edit: true, can_toggle_notifications: true, can_delete_files: true },
    ...over,
  })

export const certType = (id: number, over: Partial<CertificationType> = {}): CertificationType =>
  CertificationType.parse({
    id,
    name: `Type ${id}`,
    code: `T${id}`,
    tier_level: 0,
    department: null,
    training_link: null,
    validity_period: 24,
    upload_required: true,
    is_active: true,
    description: null,
    holders: 0,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...over,
  })
