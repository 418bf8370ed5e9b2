import {
  AddCertificationBody,
  CERT_MESSAGES,
  CERT_UPLOAD,
  computeExpiration,
  formatRatio,
  formatUsd,
  ratioColour,
  TIER_LEVELS,
  tierLabel,
  UploadCertificationFields,
  validityLabel,
  type ScaleColour,
  type TechnicianProfile,
  type TierLevel,
  type UserCertification,
} from '@portal/contracts'
import { formatDate } from '../shared/format.ts'

export type Requirement = TechnicianProfile['tier_requirements'][number]

/** The profile's certifications grouped by the tier of their type (learner §2: New Hire = 0, Tier 1-3), by name within a tier. */
export function groupByTier(certs: readonly UserCertification[]): { tier: TierLevel; label: string; certs: UserCertification[] }[] {
  return TIER_LEVELS.map((tier) => ({
    tier,
    label: tierLabel(tier),
    certs: certs.filter((c) => c.certification.tier_level === tier).sort((a, b) => a.certification.name.localeCompare(b.certification.name)),
  }))
}

/** The certification ids in the order the page shows them (to find the card after a deleted one). */
export const shownOrder = (certs: readonly UserCertification[]): number[] => groupByTier(certs).flatMap((g) => g.certs.map((c) => c.id))

export const NO_REVENUE = 'No revenue recorded'

export interface RevenueCard {
  label: string
  /** The figure, or "No revenue recorded": never a zero that was not recorded. */
  text: string
  recorded: boolean
  colour?: ScaleColour
}

/** The four revenue cards of learner §2; until revenue is recorded each says so instead of showing zeros. */
export function revenueCards(data: TechnicianProfile['revenue_data']): RevenueCard[] {
  const money = (label: string, v: number | null | undefined): RevenueCard =>
    v === null || v === undefined ? { label, text: NO_REVENUE, recorded: false } : { label, text: formatUsd(v), recorded: true }
  const ratio = data?.rev_pay_ratio ?? null
  return [
    money('Monthly Revenue', data?.monthly_revenue),
    money('Monthly Pay', data?.monthly_pay),
    ratio === null
      ? { label: 'Rev/Pay Ratio', text: NO_REVENUE, recorded: false }
      : { label: 'Rev/Pay Ratio', text: formatRatio(ratio), recorded: true, colour: ratioColour(ratio) },
    money('Yearly Revenue YTD', data ? data.yearly_revenue_ytd : null),
  ]
}

/** The tier panel: where the technician is, the tier whose requirements are listed and how far along they are. */
export function tierPanel(profile: TechnicianProfile) {
  const current = profile.tier.current_tier
  const progress = profile.next_tier_progress ?? profile.current_tier_progress
  const listed = progress.tier_level
  const requirements = profile.tier_requirements
    .filter((r) => r.tier_level === listed)
    .sort((a, b) => Number(b.is_required) - Number(a.is_required) || a.certification.name.localeCompare(b.certification.name))
  const atTop = profile.next_tier_progress === null
  return {
    currentLabel: tierLabel(current),
    atTop,
    heading: atTop ? `${tierLabel(current)} requirements` : `Progress to ${tierLabel(listed)}`,
    summary:
      progress.required_total === 0
        ? `${tierLabel(listed)} has no required certifications.`
        : `${progress.required_met} of ${progress.required_total} required certifications (${progress.percent}%)`,
    percent: progress.percent,
    requirements,
  }
}

/** The notifications switch's words: on, or paused until a date. */
export const notificationsText = (tier: TechnicianProfile['tier']): string =>
  tier.notifications_paused
    ? tier.notifications_paused_until
      ? `Paused until ${formatDate(tier.notifications_paused_until)}`
      : 'Paused'
    : 'On: you get e-mails before your certifications expire'

/** What the live region says after the switch was used. */
export const notificationsChanged = (paused: boolean, until: string | null): string =>
  paused ? `Notifications paused until ${formatDate(until)}.` : 'Notifications resumed.'

/** Client-side checks of a proof file (learner §5, §9); the server checks the content again. */
export function checkProofFile(file: { type: string; size: number; name: string } | null | undefined): string | null {
  if (!file) return CERT_MESSAGES.fileRequired
  const byName = /\.(pdf|jpe?g|png)$/i.test(file.name)
  if (file.type ? !(CERT_UPLOAD.mimeTypes as readonly string[]).includes(file.type) : !byName) return CERT_MESSAGES.fileType
  if (file.size > CERT_UPLOAD.maxBytes) return CERT_MESSAGES.fileSize
  if (file.size === 0) return CERT_MESSAGES.fileEmpty
  return null
}

/** "Typical validity: 2 years" for the type chosen in Add Certification (learner §5). */
export const validityHint = (validityMonths: number | null): string => `Typical validity: ${validityLabel(validityMonths)}`

/** What an empty expiration date will become: obtained date + validity (null when nothing can be said). */
export const expirationPreview = (obtained: string, validityMonths: number | null): string | null =>
  obtained && /^\d{4}-\d{2}-\d{2}$/.test(obtained) ? computeExpiration(obtained, validityMonths) : null

export interface AddForm {
  certification_id: string
  certification_number: string
  obtained_date: string
  expiration_date: string
}
export type FieldErrors<K extends string> = Partial<Record<K, string>>

/** The first message per field of a zod failure. */
const fieldErrors = <K extends string>(issues: readonly { path: readonly PropertyKey[]; message: string }[]): FieldErrors<K> => {
  const errors: FieldErrors<K> = {}
  for (const issue of issues) {
    const key = String(issue.path[0]) as K
    errors[key] ??= issue.message
  }
  return errors
}

/** Add Certification: the contracts' body, or the message of each field in error (learner §5). */
export function validateAdd(form: AddForm, userId?: string): { body: AddCertificationBody } | { errors: FieldErrors<keyof AddForm> } {
  const parsed = AddCertificationBody.safeParse({
    certification_id: form.certification_id ? Number(form.certification_id) : undefined,
    certification_number: form.certification_number,
    obtained_date: form.obtained_date,
    expiration_date: form.expiration_date,
    ...(userId ? { user_id: userId } : {}),
  })
  if (!parsed.success) return { errors: fieldErrors(parsed.error.issues) }
  return { body: parsed.data }
}

export interface UploadForm {
  file: File | null
  obtained_date: string
  expiration_date: string
  notes: string
}

/** The upload form (learner §5: file and obtained date required) as multipart, or the message of each field in error. */
export function buildUploadForm(
  certificationId: number,
  form: UploadForm,
  userId?: string,
): { form: FormData } | { errors: FieldErrors<keyof UploadForm> } {
  const fileError = checkProofFile(form.file)
  const parsed = UploadCertificationFields.safeParse({
    certification_id: String(certificationId),
    obtained_date: form.obtained_date,
    expiration_date: form.expiration_date,
    notes: form.notes,
    ...(userId ? { user_id: userId } : {}),
  })
  if (fileError || !parsed.success) {
    const errors: FieldErrors<keyof UploadForm> = parsed.success ? {} : fieldErrors(parsed.error.issues)
    if (fileError) errors.file = fileError
    return { errors }
  }
  const data = new FormData()
  data.append('certification_id', String(parsed.data.certification_id))
  data.append('obtained_date', parsed.data.obtained_date)
  if (parsed.data.expiration_date) data.append('expiration_date', parsed.data.expiration_date)
  if (parsed.data.notes) data.append('notes', parsed.data.notes)
  if (parsed.data.user_id) data.append('user_id', parsed.data.user_id)
  data.append('file', form.file!, form.file!.name)
  return { form: data }
}

/** Replace: only the new file (the certification's dates stay as they are). */
export function buildReplaceForm(file: File | null): { form: FormData } | { errors: FieldErrors<'file'> } {
  const error = checkProofFile(file)
  if (error) return { errors: { file: error } }
  const data = new FormData()
  data.append('file', file!, file!.name)
  return { form: data }
}

/** Focus target names of the profile (decision 0010). */
export const FOCUS = {
  add: 'add',
  upload: (id: number) => `upload-${id}`,
  view: (id: number) => `view-${id}`,
  remove: (id: number) => `delete-${id}`,
  card: (id: number) => `card-${id}`,
}
