import { z } from 'zod'
import { DEPARTMENTS } from './constants.ts'
import { Branch, Department } from './identity.ts'
import { missingOr, wholeNumber } from './params.ts'
import { CERTIFICATION_STATUSES, EXPIRATION_BADGES } from './cert-rules.ts'

/**
 * Certifications: types, tier requirements, technicians' certifications and proofs, the
 * technician profile (learner §2-§9; admin §2, §3, §5, §7-§9). Served by svc-certs; paths below
 * are without the gateway's `/api`.
 */

/** Tier levels: 0 (New Hire), 1, 2, 3 (highest). */
export const TIER_LEVELS = [0, 1, 2, 3] as const
export type TierLevel = (typeof TIER_LEVELS)[number]
export const TierLevel = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], { error: 'Tier level must be 0 (New Hire), 1, 2 or 3' })
export const TIER_LABELS: Record<TierLevel, string> = { 0: 'New Hire', 1: 'Tier 1', 2: 'Tier 2', 3: 'Tier 3' }
export const tierLabel = (tier: number): string => TIER_LABELS[tier as TierLevel] ?? `Tier ${tier}`

/** Next tier: current + 1, capped at 3 (learner §4). */
export const nextTier = (current: TierLevel): TierLevel => Math.min(current + 1, 3) as TierLevel
/** Tiers a promotion may ask for at all: 2 and 3, never Tier 1 (learner §4). */
export const PROMOTION_TIERS = [2, 3] as const satisfies readonly TierLevel[]
/** Tiers a promotion may offer: 2 if current<2, 3 if current<3 (learner §4). */
export const promotionTiers = (current: TierLevel): TierLevel[] => PROMOTION_TIERS.filter((t) => t > current)

/** Tier pay rates (learner §9, admin §9). */
export const TIER_PAY_RATES: Record<1 | 2 | 3, number> = { 1: 25, 2: 30, 3: 35 }

/** Validity choices of the type form (admin §9): null is Lifetime. */
export const VALIDITY_OPTIONS = [null, 12, 24, 36, 60] as const
/** How a validity period reads: Lifetime, "1 year" ... "5 years", else "{n} months". */
export function validityLabel(months: number | null): string {
  if (months === null) return 'Lifetime'
  const years: Record<number, string> = { 12: '1 year', 24: '2 years', 36: '3 years', 60: '5 years' }
  return years[months] ?? `${months} months`
}

/** Department tabs of Certification Management (admin §2). */
export const CERT_DEPARTMENT_TABS = [...DEPARTMENTS, 'All'] as const

/** Proof uploads (learner §5, §9): PDF, JPEG or PNG by content, at most 10 MB. */
export const CERT_UPLOAD = {
  maxBytes: 10_485_760,
  mimeTypes: ['application/pdf', 'image/jpeg', 'image/png'] as const,
  accept: '.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png',
} as const
export type ProofMimeType = (typeof CERT_UPLOAD.mimeTypes)[number]

/** Notification pause length (learner §4, §9). */
export const NOTIFICATION_PAUSE_DAYS = 30

export const CERT_MESSAGES = {
  profileIncomplete: 'Choose your branch and department on your dashboard to add certifications and upload proofs.',
  fileType: 'Please select a PDF, JPEG, or PNG file.',
  fileSize: 'File size must be less than 10MB.',
  fileRequired: 'Please select a file to upload',
  fileEmpty: 'The file is empty',
  obtainedDateRequired: 'Obtained date is required',
  certificationRequired: 'Please select a certification',
  certificationNumberRequired: 'Certification number is required',
  expirationBeforeObtained: 'Expiration date cannot be before the obtained date',
  alreadyHeld: 'You already have this certification; update or replace it instead',
  loadProfile: 'Failed to load profile',
  profileNotFound: 'Profile not found',
  notificationSettings: 'Failed to update notification settings',
  addFailed: 'Failed to add certification',
  added: 'Certification added successfully!',
  uploadFailed: 'Failed to upload certification',
  uploaded: 'Certification uploaded successfully!',
  deleteFailed: 'Failed to delete certification',
  certificationNotFound: 'Certification not found',
  certificationTypeNotFound: 'Certification type not found',
  fileNotFound: 'No file has been uploaded for this certification',
  deleted: 'Certification deleted. Its history, the deleted period and its proof included, is kept for the audit trail.',
  changedMeanwhile: 'Someone else changed this certification at the same time, so nothing was saved. Reload it and try again.',
  noEarlierPeriods: 'No earlier periods',
  // Admin side (admin §8).
  fetchTypes: 'Failed to fetch certifications',
  loadTypes: 'Failed to load certifications',
  createType: 'Failed to create certification',
  updateType: 'Failed to update certification',
  deleteType: 'Failed to delete certification',
  typeInUse: 'This certification is held by technicians or required by a tier',
  nameRequired: 'Certification name is required',
  codeRequired: 'Certification code is required',
  codeTaken: 'Another certification already uses this code',
  trainingLinkInvalid: 'Training link must be a valid http(s) URL',
} as const

/** A calendar date, `YYYY-MM-DD`. */
export const IsoDate = z.iso.date('Use a date in the form YYYY-MM-DD')
/** An optional date field: absent, null or "" all mean no date. */
const optionalDate = z
  .union([IsoDate, z.literal(''), z.null()])
  .optional()
  .transform((d) => (d ? d : null))

export const ExpirationBadge = z.enum(EXPIRATION_BADGES)
export type ExpirationBadge = z.infer<typeof ExpirationBadge>

export const CertificationStatus = z.enum(CERTIFICATION_STATUSES)
export type CertificationStatus = z.infer<typeof CertificationStatus>

// ---------------------------------------------------------------------------------------------
// Certification types (admin §3) and tier requirements

const trainingLink = z
  .union([z.literal(''), z.null(), z.string().trim().max(2000)])
  .optional()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || /^https?:\/\/[^\s]+$/i.test(v), CERT_MESSAGES.trainingLinkInvalid)

/** The type form's payload (POST /admin/certifications, PUT /admin/certifications/{id}); defaults of admin §9. */
export const CertificationTypeInput = z.object({
  name: z.string({ error: CERT_MESSAGES.nameRequired }).trim().min(1, CERT_MESSAGES.nameRequired).max(200),
  code: z.string({ error: CERT_MESSAGES.codeRequired }).trim().min(1, CERT_MESSAGES.codeRequired).max(50),
  tier_level: TierLevel.default(0),
  /** null: every department. */
  department: Department.nullable().default(null),
  training_link: trainingLink,
  /** Months; null: lifetime. */
  validity_period: wholeNumber('Validity period is a whole number of months from 1 to 1200, or empty for lifetime', 1, 1200).nullable().default(null),
  upload_required: z.boolean().default(true),
  is_active: z.boolean().default(true),
  description: z
    .string()
    .trim()
    .max(2000)
    .nullish()
    .transform((d) => (d ? d : null)),
  /**
   * Issue 24: courses and exams whose completion (a pass, for exams) renews this certification: a
   * new period from the completion day, the completion record as its proof. The title is the one
   * the admin picked (certs keeps no copy of learning's catalogue). Absent: none on a create, the
   * list kept on an edit (a client of the spec's form, which has no such field, loses nothing).
   */
  renewed_by: z
    .array(z.object({ item_kind: z.enum(['course', 'exam']), item_id: z.number().int().positive(), item_title: z.string().trim().min(1).max(300) }))
    .max(50)
    .optional(),
})
export type CertificationTypeInput = z.input<typeof CertificationTypeInput>

/** A certification type as the API shows it. */
export const CertificationType = z.object({
  id: z.number().int(),
  name: z.string(),
  code: z.string(),
  tier_level: TierLevel,
  department: Department.nullable(),
  training_link: z.string().nullable(),
  validity_period: z.number().int().nullable(),
  upload_required: z.boolean(),
  is_active: z.boolean(),
  description: z.string().nullable(),
  /** How many technicians hold it (admin screens). */
  holders: z.number().int().optional(),
  /** Issue 24: the courses and exams whose completion renews it (empty: none). */
  renewed_by: z.array(z.object({ item_kind: z.enum(['course', 'exam']), item_id: z.number().int(), item_title: z.string() })).default([]),
  created_at: z.string(),
  updated_at: z.string(),
})
export type CertificationType = z.infer<typeof CertificationType>

/** The type as it is embedded in a technician's certification (learner §3). */
export const CertificationBrief = CertificationType.pick({
  id: true,
  name: true,
  code: true,
  tier_level: true,
  department: true,
  upload_required: true,
  training_link: true,
  validity_period: true,
})
export type CertificationBrief = z.infer<typeof CertificationBrief>

export const CertificationTypeResponse = z.object({ certification: CertificationType })
export const CertificationTypesResponse = z.object({ certifications: z.array(CertificationType) })

/** A certification type a tier asks for (required or optional); department-specific types apply only to their department. */
export const TierRequirement = z.object({
  id: z.number().int(),
  tier_level: TierLevel,
  certification_id: z.number().int(),
  is_required: z.boolean(),
  certification: CertificationBrief,
})
export type TierRequirement = z.infer<typeof TierRequirement>
/** PUT /admin/certifications/tier-requirements: adds or changes one (unique per tier and type). */
export const TierRequirementInput = z.object({
  tier_level: TierLevel,
  certification_id: z.number().int().positive(),
  is_required: z.boolean().default(true),
})
export const TierRequirementsResponse = z.object({ requirements: z.array(TierRequirement) })

// ---------------------------------------------------------------------------------------------
// Technicians' certifications (learner §3, §5)

/**
 * Why a period of a technician's certification ended and was kept as history (issue 23: history,
 * not overwrite): `renewed` (a later obtained date started a new period), `replaced` (its proof
 * was replaced within the same period), `deleted` (the certification was deleted).
 */
export const PERIOD_END_REASONS = ['renewed', 'replaced', 'deleted'] as const
export const PeriodEndReason = z.enum(PERIOD_END_REASONS)
export type PeriodEndReason = z.infer<typeof PeriodEndReason>

/** An earlier period of a technician's certification, as it was when it ended, with who ended it and why. */
export const CertificationPeriod = z.object({
  id: z.number().int(),
  /** The technician's certification it was a period of (it may since have been deleted). */
  user_certification_id: z.number().int(),
  /** The certification type. */
  certification_id: z.number().int(),
  certification_number: z.string().nullable(),
  obtained_date: z.string().nullable(),
  expiration_date: z.string().nullable(),
  notes: z.string().nullable(),
  /** API path of the period's proof (inline; `?download=1` downloads it); null when it had none. */
  file_path: z.string().nullable(),
  file_name: z.string().nullable(),
  file_size: z.number().int().nullable(),
  file_type: z.string().nullable(),
  uploaded_at: z.string().nullable(),
  verified_at: z.string().nullable(),
  ended_at: z.string(),
  ended_by: z.object({ id: z.uuid(), name: z.string() }),
  reason: PeriodEndReason,
})
export type CertificationPeriod = z.infer<typeof CertificationPeriod>

export const UserCertification = z.object({
  id: z.number().int(),
  user_id: z.uuid(),
  certification_id: z.number().int(),
  certification: CertificationBrief,
  certification_number: z.string().nullable(),
  obtained_date: z.string().nullable(),
  expiration_date: z.string().nullable(),
  notes: z.string().nullable(),
  /** API path that shows the proof inline (`?download=1` downloads it with its original name); null without a proof. */
  file_path: z.string().nullable(),
  file_name: z.string().nullable(),
  file_size: z.number().int().nullable(),
  file_type: z.string().nullable(),
  uploaded_at: z.string().nullable(),
  is_valid: z.boolean(),
  verified_at: z.string().nullable(),
  status: CertificationStatus,
  days_until_expiry: z.number().int().nullable(),
  expiration_badge: ExpirationBadge.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /**
   * The earlier periods of this certification type for the technician, newest first (a renewal,
   * a replaced proof, an earlier deleted one). Optional: older servers send none.
   */
  history: z.array(CertificationPeriod).optional(),
})
export type UserCertification = z.infer<typeof UserCertification>

/** GET /technician/certifications/{id}/history: the earlier periods of a certification, also after it was deleted. */
export const CertificationHistoryResponse = z.object({
  user_id: z.uuid(),
  user_certification_id: z.number().int(),
  certification_id: z.number().int(),
  name: z.string(),
  code: z.string(),
  /** Whether the technician still holds this certification (false: it was deleted and its history kept). */
  held: z.boolean(),
  history: z.array(CertificationPeriod),
})
export type CertificationHistoryResponse = z.infer<typeof CertificationHistoryResponse>

/** A certification the technician no longer holds, shown with the history kept for it. */
export const DeletedCertification = z.object({
  certification_id: z.number().int(),
  /** The last certification of this type the technician held (its history route). */
  user_certification_id: z.number().int(),
  name: z.string(),
  code: z.string(),
  history: z.array(CertificationPeriod),
})
export type DeletedCertification = z.infer<typeof DeletedCertification>

const certificationNumber = z
  .string({ error: missingOr(CERT_MESSAGES.certificationNumberRequired, 'Certification number must be text') })
  .trim()
  .min(1, CERT_MESSAGES.certificationNumberRequired)
  .max(100)
const notes = z
  .string()
  .trim()
  .max(2000)
  .nullish()
  .transform((n) => (n ? n : null))
const datesInOrder = (c: { obtained_date: string | null; expiration_date: string | null }) => !c.obtained_date || !c.expiration_date || c.expiration_date >= c.obtained_date
const datesInOrderIssue = { message: CERT_MESSAGES.expirationBeforeObtained, path: ['expiration_date'] }

/** POST /technician/certifications/add (learner §5). `user_id` lets an admin add for a technician. */
export const AddCertificationBody = z
  .object({
    certification_id: z
      .number({ error: missingOr(CERT_MESSAGES.certificationRequired, 'Invalid certification id') })
      .int(CERT_MESSAGES.certificationRequired)
      .positive(CERT_MESSAGES.certificationRequired),
    certification_number: certificationNumber,
    obtained_date: optionalDate,
    expiration_date: optionalDate,
    notes,
    user_id: z.uuid().optional(),
  })
  .refine(datesInOrder, datesInOrderIssue)
export type AddCertificationBody = z.input<typeof AddCertificationBody>

/** PUT /technician/certifications/{id}: edit a held certification's details. */
export const UpdateCertificationBody = z
  .object({
    certification_number: certificationNumber.optional(),
    obtained_date: optionalDate,
    expiration_date: optionalDate,
    notes,
  })
  .refine(datesInOrder, datesInOrderIssue)

/**
 * The text fields of POST /technician/certifications/upload (multipart, with `file`): creates the
 * technician's certification of that type or adds the proof to the one they hold.
 */
export const UploadCertificationFields = z
  .object({
    certification_id: z.coerce.number({ error: CERT_MESSAGES.certificationRequired }).int().positive(CERT_MESSAGES.certificationRequired),
    obtained_date: z.string({ error: CERT_MESSAGES.obtainedDateRequired }).min(1, CERT_MESSAGES.obtainedDateRequired).pipe(IsoDate),
    expiration_date: optionalDate,
    certification_number: z
      .string()
      .trim()
      .max(100)
      .nullish()
      .transform((n) => (n ? n : null)),
    notes,
    user_id: z.uuid().optional(),
  })
  .refine(datesInOrder, datesInOrderIssue)

export const UserCertificationResponse = z.object({ message: z.string(), certification: UserCertification })
/** DELETE /technician/certifications/{id}: the history kept for it stays at `history_path`. */
export const CertificationRemovedResponse = z.object({ message: z.string(), history_path: z.string() })

/** A type a technician may add (GET /technician/certifications/available/{userId}): active, their department or all, not held yet. */
export const AvailableCertification = CertificationBrief.extend({ description: z.string().nullable() })
export const AvailableCertificationsResponse = z.object({ certifications: z.array(AvailableCertification) })

// ---------------------------------------------------------------------------------------------
// Technician profile (learner §2, §3)

export const ProfileUser = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  employee_id: z.string().nullable(),
  branch: Branch.nullable(),
  department: Department.nullable(),
  hire_date: z.string().nullable(),
})
export type ProfileUser = z.infer<typeof ProfileUser>

export const TechnicianTier = z.object({
  current_tier: TierLevel,
  notifications_paused: z.boolean(),
  /** When a pause ends by itself (30 days after it began); null when not paused. */
  notifications_paused_until: z.string().nullable(),
  rev_pay_ratio: z.number().nullable(),
})

/** A requirement as it applies to this technician: met or not, and the certification held for it. */
export const ProfileRequirement = TierRequirement.extend({
  met: z.boolean(),
  user_certification_id: z.number().int().nullable(),
})

export const TierProgress = z.object({
  tier_level: TierLevel,
  required_total: z.number().int(),
  required_met: z.number().int(),
  /** 0-100; 100 when the tier requires nothing. */
  percent: z.number().int().min(0).max(100),
})

/**
 * Revenue cards of the profile (learner §2), null until revenue is recorded: the latest month with a
 * record up to this one (`month`, `YYYY-MM`), its revenue, pay and ratio, and this year's revenue so far.
 */
export const RevenueData = z.object({
  monthly_revenue: z.number().nullable(),
  monthly_pay: z.number().nullable(),
  rev_pay_ratio: z.number().nullable(),
  yearly_revenue_ytd: z.number(),
  month: z.string().nullable(),
  /** Pay rate of the technician's tier (learner §9: tier 1 25, tier 2 30, tier 3 35); null at tier 0. Always sent (optional for older readers). */
  tier_pay_rate: z.number().nullable().optional(),
})
export type RevenueData = z.infer<typeof RevenueData>

export const TechnicianProfile = z.object({
  user: ProfileUser,
  tier: TechnicianTier,
  /** Requirements of every tier that apply to the technician's department. */
  tier_requirements: z.array(ProfileRequirement),
  certifications: z.array(UserCertification),
  /** Certifications deleted from the profile whose history is kept, latest deletion first (optional for older servers). */
  deleted_certifications: z.array(DeletedCertification).optional(),
  /** Certifications with an expiration badge (expired or within 60 days), soonest first. */
  upcoming_expirations: z.array(UserCertification),
  revenue_data: RevenueData.nullable(),
  /** Progress of the current tier's own requirements and of the next tier's (null at tier 3). */
  current_tier_progress: TierProgress,
  next_tier_progress: TierProgress.nullable(),
  /** What the caller may do here: the owner and admins edit; managers in scope read and may delete proofs. */
  permissions: z.object({ can_edit: z.boolean(), can_toggle_notifications: z.boolean(), can_delete_files: z.boolean() }),
  /** The company's date the statuses, badges and days are for: the screen counts from it, never from the browser's clock. */
  as_of: z.string().optional(),
})
export type TechnicianProfile = z.infer<typeof TechnicianProfile>

/** Dashboard figures (Certification Tracking card): GET /technician/summary/{userId}. */
export const CertificationSummary = z.object({
  total: z.number().int(),
  valid: z.number().int(),
  expiring_soon: z.number().int(),
  expired: z.number().int(),
  required_total: z.number().int(),
  required_met: z.number().int(),
  current_tier: TierLevel,
  next_tier_progress: TierProgress.nullable(),
})
export type CertificationSummary = z.infer<typeof CertificationSummary>

/**
 * Admin dashboard Certifications tab figures: GET /admin/certifications/overview, from the same
 * ledger as the team dashboard and Certification Notification Management (issue 23). Technicians:
 * every non-admin user, managers included.
 */
export const CertificationsOverview = z.object({
  types_total: z.number().int(),
  types_active: z.number().int(),
  technicians: z.number().int(),
  /** "Requirements met": technicians meeting every requirement that counts for them (the team's Compliant). */
  requirements_met: z.number().int(),
  /** "No expired certifications": technicians holding none (admin §9's compliance). */
  no_expired: z.number().int(),
  /** Expired certifications held. */
  expired: z.number().int(),
  /** Certifications expiring within 30 days. */
  expiring_soon: z.number().int(),
  /** The company's date the figures are for. */
  as_of: z.string(),
})
export type CertificationsOverview = z.infer<typeof CertificationsOverview>

/** One figure a screen shows that the ledger does not bear out. */
export const ConsistencyDifference = z.object({
  /** The screen or table ("Team member figures", "Certification Notification Management", "Team dashboard (admin)"). */
  surface: z.string(),
  /** The row: a technician, a branch, "Organisation", "Summary". */
  key: z.string(),
  field: z.string(),
  /** What the surface shows (null: the row is missing). */
  shown: z.number().nullable(),
  /** What the ledger says. */
  expected: z.number().nullable(),
})
export type ConsistencyDifference = z.infer<typeof ConsistencyDifference>

/** GET /admin/certifications/consistency: the kept figures and the screens' figures recomputed from the ledger. */
export const ConsistencyReport = z.object({
  consistent: z.boolean(),
  as_of: z.string(),
  checked_at: z.string(),
  technicians: z.number().int(),
  difference_count: z.number().int(),
  /** The first 200 differences. */
  differences: z.array(ConsistencyDifference),
})
export type ConsistencyReport = z.infer<typeof ConsistencyReport>

/**
 * POST /technician/pause-notifications (learner §7): pauses for 30 days from now (a later
 * `pauseUntil` is capped). `pauseUntil` is an ISO 8601 date-time, or a date meaning its start (UTC).
 */
const PAUSE_UNTIL = 'pauseUntil must be a date (YYYY-MM-DD) or an ISO 8601 date-time'
export const PauseNotificationsBody = z.object({
  userId: z.uuid(),
  pauseUntil: z.union([z.iso.datetime({ offset: true, error: PAUSE_UNTIL }), z.iso.date(PAUSE_UNTIL).transform((d) => `${d}T00:00:00.000Z`)], { error: PAUSE_UNTIL }).optional(),
})
/** POST /technician/resume-notifications. */
export const ResumeNotificationsBody = z.object({ userId: z.uuid() })
export const NotificationsStateResponse = z.object({
  message: z.string(),
  notifications_paused: z.boolean(),
  notifications_paused_until: z.string().nullable(),
})
