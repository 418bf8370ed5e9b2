import { AdminEmailInput, NOTIFICATION_TYPES, type AdminEmail, type NotificationType } from '@portal/contracts'

/** The add/edit form of the Email Notification Management dialog. */
export interface AdminEmailForm {
  email: string
  name: string
  types: NotificationType[]
}

/** A new address starts with both notification types on (admin §9). */
export const emptyForm = (): AdminEmailForm => ({ email: '', name: '', types: [...NOTIFICATION_TYPES] })
export const formOf = (e: AdminEmail): AdminEmailForm => ({ email: e.email, name: e.name ?? '', types: [...e.notification_types] })

/** The request body, or the first message the shared schema gives (e.g. "Email is required"). */
export function checkForm(form: AdminEmailForm): { ok: true; body: AdminEmailInput } | { ok: false; message: string } {
  const body = { email: form.email, name: form.name.trim() || null, notification_types: form.types }
  const parsed = AdminEmailInput.safeParse(body)
  return parsed.success ? { ok: true, body } : { ok: false, message: parsed.error.issues[0]?.message ?? 'Invalid input' }
}
