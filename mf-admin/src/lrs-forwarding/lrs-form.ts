import { LrsForwardingInput, type LrsForwarding } from '@portal/contracts'

/** The Learning Record Store form's fields, as typed. */
export interface LrsForm {
  endpoint: string
  username: string
  /** Write-only: blank keeps the stored password. */
  password: string
  enabled: boolean
}

export const formOf = (s: LrsForwarding | undefined): LrsForm => ({ endpoint: s?.endpoint ?? '', username: s?.username ?? '', password: '', enabled: s?.enabled ?? false })

/** The request body (a blank password is left out: the stored one stays). */
export const bodyOf = (f: LrsForm) => ({ endpoint: f.endpoint.trim(), username: f.username.trim(), enabled: f.enabled, ...(f.password ? { password: f.password } : {}) })

/** The body, or each field's first message from the shared schema (the server says the same). */
export function checkForm(f: LrsForm): { ok: true; body: ReturnType<typeof bodyOf> } | { ok: false; errors: Partial<Record<keyof LrsForm, string>> } {
  const body = bodyOf(f)
  const parsed = LrsForwardingInput.safeParse(body)
  if (parsed.success) return { ok: true, body }
  const errors: Partial<Record<keyof LrsForm, string>> = {}
  for (const issue of parsed.error.issues) errors[String(issue.path[0]) as keyof LrsForm] ??= issue.message
  return { ok: false, errors }
}
