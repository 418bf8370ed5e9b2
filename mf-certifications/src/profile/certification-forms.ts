import { AddCertificationBody, CERT_MESSAGES, CERT_UPLOAD, UploadCertificationFields, validityLabel } from '@portal/contracts'
import { formatDate, formatLongMonth } from '@portal/ui-kit'
import { computeExpiration, inRecertificationWindow, RECERTIFICATION_WINDOW_DAYS, renewedExpiration } from '@portal/contracts/cert-rules'

// The Add Certification and proof upload forms' checks, apart from profile-view.ts: only the
// dialogs (loaded when the user reaches for them) need them, so they stay off the first screen.

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

/** The dates of the certification already held, when a form renews it (the upload dialog). */
export interface HeldDates {
  obtained_date: string | null
  expiration_date: string | null
}

/** What the date fields of a form say, with the type's validity and the certification held. */
export interface ExpirationFields {
  /** The Obtained Date field (`YYYY-MM-DD` or empty). */
  obtained: string
  /** The Expiration Date field (`YYYY-MM-DD` or empty). */
  entered: string
  validityMonths: number | null
  held?: HeldDates | null
  /** The form cannot be saved without an obtained date (the proof upload). */
  obtainedRequired?: boolean
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/
const monthsLabel = (n: number) => `${n} ${n === 1 ? 'month' : 'months'}`

/** A later obtained date on a held certification with both dates: the server renews it (svc-certs' `expirationOf`). */
const renews = (obtained: string, held: HeldDates | null | undefined): held is { obtained_date: string; expiration_date: string } =>
  !!held?.obtained_date && !!held.expiration_date && obtained > held.obtained_date

/**
 * The expiration the server stores for these fields (svc-certs' `expirationOf`, with the same
 * rules of contracts' cert-rules): the date entered; else none without an obtained date; else a
 * renewal of the held certification (`renewedExpiration`: from the previous expiry inside the
 * 60-day window) or the obtained date plus the validity (`computeExpiration`); null never expires.
 */
export function expirationOnSave({ obtained, entered, validityMonths, held }: ExpirationFields): string | null {
  if (entered) return entered
  if (!obtained) return null
  return renews(obtained, held) ? renewedExpiration(held.expiration_date, obtained, validityMonths) : computeExpiration(obtained, validityMonths)
}

/** " (February 2026 has no 31st: the month's last day)" when adding months moved the day to a shorter month's end. */
const clampNote = (from: string, to: string) =>
  from.slice(8) === to.slice(8) ? '' : ` (${formatLongMonth(to)} has no ${+from.slice(8)}${from.endsWith('31') ? 'st' : 'th'}: the month's last day)`

/** What an empty expiration becomes once the obtained date and a validity are known, and why. */
function computed(obtained: string, validityMonths: number, held: HeldDates | null | undefined): { date: string; why: string } {
  const months = monthsLabel(validityMonths)
  if (renews(obtained, held)) {
    const previous = held.expiration_date
    const date = renewedExpiration(previous, obtained, validityMonths)!
    if (inRecertificationWindow(previous, obtained))
      return {
        date,
        why: `renewal inside the ${RECERTIFICATION_WINDOW_DAYS}-day window: counts from the previous expiry ${formatDate(previous)} + ${months}${clampNote(previous, date)}`,
      }
    const outside =
      obtained > previous
        ? `the previous expiry ${formatDate(previous)} had passed`
        : `renewed more than ${RECERTIFICATION_WINDOW_DAYS} days before the previous expiry ${formatDate(previous)}`
    return { date, why: `obtained date + ${months}${clampNote(obtained, date)}; ${outside}, so it counts from the obtained date` }
  }
  const date = computeExpiration(obtained, validityMonths)!
  return { date, why: `obtained date + ${months}${clampNote(obtained, date)}` }
}

/**
 * Says before saving what expiration the server will store and why (issue 23): "Expires Dec 23,
 * 2027: obtained date + 12 months", "…: the date you entered", "Never expires: …", a renewal
 * inside the 60-day window "…counts from the previous expiry Mar 1, 2027 + 12 months". Null while
 * a date field holds no whole date.
 */
export function explainExpiration(fields: ExpirationFields): string | null {
  const { obtained, entered, validityMonths, held } = fields
  if ((entered && !ISO_DATE.test(entered)) || (obtained && !ISO_DATE.test(obtained))) return null
  if (entered) {
    const onRecord = held?.expiration_date === entered
    const said = `Expires ${formatDate(entered)}: ${onRecord ? 'the expiration date on record, as entered' : 'the date you entered'}`
    // A renewal that keeps the old expiration in the field keeps the old expiration: say what clearing it gives.
    if (!onRecord || !obtained || validityMonths === null || !renews(obtained, held)) return said
    const instead = computed(obtained, validityMonths, held)
    return instead.date === entered ? said : `${said}. Clear it to have ${formatDate(instead.date)} instead: ${instead.why}`
  }
  if (validityMonths === null) return 'Never expires: this certification type has no validity period'
  if (!obtained)
    return fields.obtainedRequired
      ? `Enter the obtained date: it expires ${monthsLabel(validityMonths)} after it`
      : `Saved without an expiration date, so it shows as never expiring: enter the obtained date to count ${monthsLabel(validityMonths)} from it`
  const { date, why } = computed(obtained, validityMonths, held)
  return `Expires ${formatDate(date)}: ${why}`
}

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
export function buildUploadForm(certificationId: number, form: UploadForm, userId?: string): { form: FormData } | { errors: FieldErrors<keyof UploadForm> } {
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
