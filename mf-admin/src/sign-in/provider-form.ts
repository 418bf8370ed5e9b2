import { DEFAULT_SIGN_IN_SCOPES, MANAGER_SCOPE_SOURCES, SignInProviderInput, SignInProviderUpdate, type ManagerScopeSource, type SignInProvider } from '@portal/contracts'

/** The claims the dialog maps, in its order, with their labels. */
export const CLAIM_FIELDS = [
  ['name', 'Name claim'],
  ['email', 'E-mail claim'],
  ['employee_id', 'Employee ID claim'],
  ['branch', 'Branch claim'],
  ['department', 'Department claim'],
  ['hire_date', 'Hire date claim'],
  ['groups', 'Group or role claim'],
] as const
export type ClaimField = (typeof CLAIM_FIELDS)[number][0]

export const MANAGER_SCOPE_LABELS: Record<ManagerScopeSource, string> = {
  own_branch: 'Their own branch',
  own_department: 'Their own department',
  own_branch_and_department: 'Their own branch and department',
  all: 'Every branch and department',
}
export const MANAGER_SCOPE_OPTIONS = MANAGER_SCOPE_SOURCES.map((value) => ({ value, label: MANAGER_SCOPE_LABELS[value] }))

/** The Add / Edit Sign-in Provider dialog's fields, as typed. */
export interface ProviderForm {
  key: string
  display_name: string
  issuer: string
  client_id: string
  /** Write-only: empty on edit keeps the stored secret. */
  client_secret: string
  /** Space-separated. */
  scopes: string
  /** Comma- or space-separated; empty means the company's domain. */
  allowed_domains: string
  claims: Record<ClaimField, string>
  /** Comma-separated. */
  admin_values: string
  manager_values: string
  manager_scope: ManagerScopeSource
  local_passwords: boolean
  admin_break_glass: boolean
}

export const emptyForm = (): ProviderForm => ({
  key: '',
  display_name: '',
  issuer: '',
  client_id: '',
  client_secret: '',
  scopes: DEFAULT_SIGN_IN_SCOPES.join(' '),
  allowed_domains: '',
  claims: { name: 'name', email: 'email', employee_id: '', branch: '', department: '', hire_date: '', groups: '' },
  admin_values: '',
  manager_values: '',
  manager_scope: 'own_branch',
  local_passwords: true,
  admin_break_glass: true,
})

export const formOf = (p: SignInProvider): ProviderForm => ({
  key: p.key,
  display_name: p.display_name,
  issuer: p.issuer,
  client_id: p.client_id,
  client_secret: '',
  scopes: p.scopes.join(' '),
  allowed_domains: p.allowed_domains.join(', '),
  claims: {
    name: p.claims.name ?? '',
    email: p.claims.email ?? '',
    employee_id: p.claims.employee_id ?? '',
    branch: p.claims.branch ?? '',
    department: p.claims.department ?? '',
    hire_date: p.claims.hire_date ?? '',
    groups: p.claims.groups ?? '',
  },
  admin_values: p.roles.admin_values.join(', '),
  manager_values: p.roles.manager_values.join(', '),
  manager_scope: p.roles.manager_scope,
  local_passwords: p.local_passwords,
  admin_break_glass: p.admin_break_glass,
})

/** A key suggested from the display name ("Contoso Entra ID" → "contoso-entra-id"). */
export const keyFrom = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '')

const list = (text: string, separator: RegExp) =>
  text
    .split(separator)
    .map((s) => s.trim())
    .filter(Boolean)

/** The request body of the form: every field for a new provider; all but the key for an edit (an empty secret keeps the stored one). */
export function bodyOf(form: ProviderForm, editing: boolean) {
  const common = {
    display_name: form.display_name,
    issuer: form.issuer.trim(),
    client_id: form.client_id,
    scopes: list(form.scopes, /[\s,]+/),
    allowed_domains: list(form.allowed_domains, /[\s,;]+/),
    claims: Object.fromEntries(Object.entries(form.claims).map(([k, v]) => [k, v.trim() || null])),
    roles: { admin_values: list(form.admin_values, /,/), manager_values: list(form.manager_values, /,/), manager_scope: form.manager_scope },
    local_passwords: form.local_passwords,
    admin_break_glass: form.admin_break_glass,
  }
  const secret = form.client_secret ? { client_secret: form.client_secret } : {}
  return editing ? { ...common, ...secret } : { key: form.key, ...common, ...secret }
}

/** The form's field a message of the shared schema belongs to (e.g. `claims.email`, `roles.admin_values`). */
const fieldOf = (path: readonly PropertyKey[]) => (path[0] === 'claims' || path[0] === 'roles' ? `${String(path[0])}.${String(path[1] ?? '')}` : String(path[0] ?? ''))

/** The body, or each field's first message from the shared schema (the server says the same). */
export function checkForm(form: ProviderForm, editing: boolean): { ok: true; body: ReturnType<typeof bodyOf> } | { ok: false; errors: Record<string, string> } {
  const body = bodyOf(form, editing)
  const parsed = (editing ? SignInProviderUpdate : SignInProviderInput).safeParse(body)
  if (parsed.success) return { ok: true, body }
  const errors: Record<string, string> = {}
  for (const issue of parsed.error.issues) errors[fieldOf(issue.path)] ??= issue.message
  return { ok: false, errors }
}

/** What the Passwords column says of a provider. */
export const passwordsOf = (p: Pick<SignInProvider, 'local_passwords' | 'admin_break_glass'>) =>
  p.local_passwords ? 'Allowed' : p.admin_break_glass ? 'Admins only (break-glass)' : 'Off for everyone'
