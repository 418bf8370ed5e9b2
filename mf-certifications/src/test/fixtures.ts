import {
  CertificationType,
  PersonAssignment,
  PromotionRequest,
  RevenueRecord,
  TeamMemberDetail,
  TeamMemberRow,
  TechnicianProfile,
  TierRequirement,
  UserCertification,
  type CertificationBrief,
} from '@portal/contracts'

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

/** The technician of the fixtures. */
const PAT = {
  id: USER_ID,
  name: 'Pat Portland',
  email: 'tech.portland@example.com',
  employee_id: 'E-1001',
  branch: 'Portland',
  department: 'Service',
} as const

export const profile = (over: Partial<TechnicianProfile> = {}): TechnicianProfile =>
  TechnicianProfile.parse({
    user: { ...PAT, hire_date: '2021-03-15' },
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

const OTHER_ID = '2c1f7a0e-6b3d-4c8e-9f21-5a4b3c2d1e0f'
const MANAGER = { id: '9e8d7c6b-5a49-4382-9170-6f5e4d3c2b1a', name: 'Morgan Manager' }

export const revenueRecord = (month: string, gross: number, pay: number | null, over: Partial<RevenueRecord> = {}): RevenueRecord =>
  RevenueRecord.parse({
    id: Number(month.replace('-', '')),
    user_id: USER_ID,
    month,
    gross_revenue: gross,
    pay_amount: pay,
    rev_pay_ratio: pay ? Math.round((gross / pay) * 100) / 100 : null,
    created_at: `${month}-28T12:00:00.000Z`,
    updated_at: `${month}-28T12:00:00.000Z`,
    user: { id: USER_ID, name: 'Pat Portland', branch: 'Portland', department: 'Service' },
    ...over,
  })

export const teamRow = (over: Partial<TeamMemberRow> = {}): TeamMemberRow =>
  TeamMemberRow.parse({
    ...PAT,
    tier: { current_tier: 1 },
    completion_percentage: 100,
    expired_certifications: 0,
    expiring_soon: 0,
    overdue_assignments: 0,
    ...over,
  })

export const promotionRequest = (over: Partial<PromotionRequest> = {}): PromotionRequest =>
  PromotionRequest.parse({
    id: 7,
    user: { id: USER_ID, name: 'Pat Portland', branch: 'Portland', department: 'Service' },
    from_tier: 1,
    to_tier: 2,
    justification: 'Leads the Portland service crew.',
    status: 'pending',
    requested_by: MANAGER,
    requested_at: '2026-11-20T09:00:00.000Z',
    decided_by: null,
    decided_at: null,
    decision_note: null,
    ...over,
  })

/** Pat's member detail: three months of revenue, second on November's leaderboard. */
export const memberDetail = (over: Partial<TeamMemberDetail> = {}): TeamMemberDetail =>
  TeamMemberDetail.parse({
    profile: profile({
      permissions: { can_edit: false, can_toggle_notifications: false, can_delete_files: true },
      tier: { current_tier: 1, notifications_paused: false, notifications_paused_until: null, rev_pay_ratio: 32.5 },
    }),
    revenue_trend: [revenueRecord('2026-08', 9000, 300), revenueRecord('2026-10', 12000, 400), revenueRecord('2026-11', 8000, 400)],
    leaderboard: {
      period: 'monthly',
      from: '2026-11',
      to: '2026-11',
      rows: [
        { rank: 1, user_id: OTHER_ID, name: 'Sam Seattle', gross_revenue: 15000, rev_pay_ratio: 37.5 },
        { rank: 2, user_id: USER_ID, name: 'Pat Portland', gross_revenue: 8000, rev_pay_ratio: 20 },
      ],
    },
    leaderboard_place: 2,
    promotion_requests: [],
    ...over,
  })

/** One of a person's assignments, shaped (and checked) by the contract: an open course due in 20 days. */
export const personAssignment = (over: Partial<PersonAssignment> = {}): PersonAssignment =>
  PersonAssignment.parse({
    rule_id: 1,
    item_kind: 'course',
    item_id: 1,
    item_title: 'Course 1',
    state: 'open',
    assigned_on: '2026-11-01',
    due_on: '2026-12-15',
    opens_on: null,
    completed_on: null,
    next_due_on: null,
    recurring: false,
    days_left: 20,
    exempt_reason: null,
    ...over,
  })
