import {
  AddCertificationBody,
  CERT_MESSAGES,
  CERT_UPLOAD,
  computeExpiration,
  UploadCertificationFields,
  validityLabel,
} from '@portal/contracts'

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
