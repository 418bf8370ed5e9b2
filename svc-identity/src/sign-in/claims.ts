import { BRANCHES, DEPARTMENTS, departmentsOf, type Branch, type ClaimMapping, type Department, type ManagerScope, type RoleMapping } from '@portal/contracts'

/** What a provider said about a person, read through a provider's claim mapping. */
export interface MappedProfile {
  /** Lower-case; null when the mapped claim is missing or not an address. */
  email: string | null
  /** False only when the provider says so (`email_verified: false`); many providers (Entra ID) do not send it. */
  emailVerified: boolean
  name: string | null
  employeeId: string | null
  branch: Branch | null
  department: Department | null
  hireDate: string | null
  /** The group/role claim's values; null when no such claim is mapped (the portal keeps roles as they are). */
  groups: string[] | null
  /** Mapped claims that came with a value the portal cannot use (named, never their values: they stay out of logs). */
  unusable: string[]
}

/**
 * The claim `name`: a top-level claim of that exact name, else a dotted path into nested objects
 * (Keycloak's `realm_access.roles`). Names with dots that are claims of their own (namespaced
 * claims such as `https://example.com/branch`) are found by the first rule.
 */
export function claimValue(claims: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(claims, name)) return claims[name]
  let here: unknown = claims
  for (const part of name.split('.')) {
    if (typeof here !== 'object' || here === null || Array.isArray(here) || !Object.hasOwn(here, part)) return undefined
    here = (here as Record<string, unknown>)[part]
  }
  return here
}

const folded = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '')
const oneOf = <T extends string>(values: readonly T[], v: unknown): T | null => (typeof v === 'string' ? (values.find((x) => folded(x) === folded(v)) ?? null) : null)
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

const text = (v: unknown, max: number): string | null => {
  if (typeof v === 'number' && Number.isFinite(v)) v = String(v)
  if (typeof v !== 'string') return null
  const t = v.trim()
  return t && t.length <= max ? t : null
}

/** A calendar date from `YYYY-MM-DD` or an ISO date-time (its date part); null for anything else. */
export function dateOf(v: unknown): string | null {
  if (typeof v !== 'string') return null
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/.exec(v.trim())
  if (!m) return null
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  return d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]) ? `${m[1]}-${m[2]}-${m[3]}` : null
}

/** Reads a person's profile from the claims (ID token, then userinfo) by `mapping`. */
export function readClaims(claims: Record<string, unknown>, mapping: ClaimMapping): MappedProfile {
  const unusable: string[] = []
  const read = <T>(field: keyof ClaimMapping, parse: (v: unknown) => T | null): T | null => {
    const name = mapping[field]
    if (!name) return null
    const raw = claimValue(claims, name)
    if (raw === undefined || raw === null || raw === '') return null
    const value = parse(raw)
    if (value === null) unusable.push(field)
    return value
  }
  const email = read('email', (v) => {
    const t = text(v, 254)?.toLowerCase() ?? null
    return t && EMAIL.test(t) ? t : null
  })
  const verified = claims.email_verified
  const given = [text(claims.given_name, 100), text(claims.family_name, 100)].filter(Boolean).join(' ')
  const name = read('name', (v) => text(v, 200)) ?? (given || null)
  const branch = read('branch', (v) => oneOf(BRANCHES, v))
  let department = read('department', (v) => oneOf(DEPARTMENTS, v))
  // A department the branch does not have (Anchorage's electricians) is left for the person to choose.
  if (branch && department && !departmentsOf(branch).includes(department)) {
    unusable.push('department')
    department = null
  }
  const groups = mapping.groups
    ? (() => {
        const raw = claimValue(claims, mapping.groups)
        if (raw === undefined || raw === null) return []
        const list = Array.isArray(raw) ? raw : [raw]
        const values = list.filter((g): g is string => typeof g === 'string')
        if (values.length !== list.length) unusable.push('groups')
        return values
      })()
    : null
  return {
    email,
    emailVerified: !(verified === false || verified === 'false'),
    name: name ?? (email ? email.slice(0, email.indexOf('@')) : null),
    employeeId: read('employee_id', (v) => text(v, 50)),
    branch,
    department,
    hireDate: read('hire_date', dateOf),
    groups,
    unusable,
  }
}

/** The roles the provider's groups give, or null when it sends none (no group claim mapped). */
export interface ProviderRoles {
  isAdmin: boolean
  isManager: boolean
  managerScope: ManagerScope
  /** Why a manager value did not make a manager (its scope needs a branch or department the provider did not send). */
  refused?: string
}

/** The roles of `profile` by the provider's role mapping; null when the provider does not decide roles. */
export function rolesOf(profile: Pick<MappedProfile, 'groups' | 'branch' | 'department'>, roles: RoleMapping): ProviderRoles | null {
  if (!profile.groups) return null
  const has = (values: readonly string[]) => values.some((v) => profile.groups!.some((g) => g.toLowerCase() === v.toLowerCase()))
  const isAdmin = has(roles.admin_values)
  const none: ManagerScope = { branches: [], departments: [] }
  if (!has(roles.manager_values)) return { isAdmin, isManager: false, managerScope: none }
  const { branch, department } = profile
  const needs = { own_branch: [branch], own_department: [department], own_branch_and_department: [branch, department], all: [] }[roles.manager_scope]
  // An empty scope means "everything": a scope drawn from a fact the provider did not send is refused, not widened.
  if (needs.some((x) => !x)) return { isAdmin, isManager: false, managerScope: none, refused: `manager scope ${roles.manager_scope} needs the branch and department claims` }
  return {
    isAdmin,
    isManager: true,
    managerScope: {
      branches: roles.manager_scope === 'own_branch' || roles.manager_scope === 'own_branch_and_department' ? [branch!] : [],
      departments: roles.manager_scope === 'own_department' || roles.manager_scope === 'own_branch_and_department' ? [department!] : [],
    },
  }
}
