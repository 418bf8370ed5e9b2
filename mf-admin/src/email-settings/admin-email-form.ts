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

/** A field of the form that a message belongs to. */
export type AdminEmailField = 'email' | 'name' | 'types'

/** The request body, or each field's first message of the shared schema (e.g. "Email is required" on the e-mail). */
export function checkForm(form: AdminEmailForm): { ok: true; body: AdminEmailInput } | { ok: false; errors: Partial<Record<AdminEmailField, string>> } {
  const body = { email: form.email, name: form.name.trim() || null, notification_types: form.types }
  const parsed = AdminEmailInput.safeParse(body)
  if (parsed.success) return { ok: true, body }
  const errors: Partial<Record<AdminEmailField, string>> = {}
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] === 'notification_types' ? 'types' : issue.path[0] === 'name' ? 'name' : 'email'
    errors[field] ??= issue.message
  }
  return { ok: false, errors }
}
