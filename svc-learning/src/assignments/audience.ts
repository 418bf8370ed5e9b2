import type { AssignmentAudience } from '@portal/contracts'

/** What a rule's audience reads of a user (learning's `users` projection). */
export interface AudienceUser {
  id: string
  isAdmin: boolean
  branch: string | null
  department: string | null
  userGroup: string | null
}

/**
 * Whether the rule's audience takes the user: never an admin (admins assign, they are not
 * assigned); the users listed, the user group by name, the branch and/or department, or everyone.
 * Twin of `audienceSql` (the route tests check both over the same users).
 */
export function audienceMatches(a: AssignmentAudience, u: AudienceUser): boolean {
  if (u.isAdmin) return false
  switch (a.kind) {
    case 'users':
      return a.user_ids.includes(u.id)
    case 'group':
      return u.userGroup === a.group
    case 'org':
      return (a.branch === null || u.branch === a.branch) && (a.department === null || u.department === a.department)
    case 'everyone':
      return true
  }
}

/**
 * The audience as a condition on `users u` with its `$n` values from `first` on: existing, non-admin
 * users the audience takes.
 */
export function audienceSql(a: AssignmentAudience, first: number): { sql: string; values: unknown[] } {
  const base = 'u.deleted_at is null and not u.is_admin'
  switch (a.kind) {
    case 'users':
      return { sql: `${base} and u.id = any($${first}::uuid[])`, values: [a.user_ids] }
    case 'group':
      return { sql: `${base} and u.user_group = $${first}`, values: [a.group] }
    case 'org': {
      const conditions: string[] = []
      const values: unknown[] = []
      if (a.branch !== null) conditions.push(`u.branch = $${first + values.push(a.branch) - 1}`)
      if (a.department !== null) conditions.push(`u.department = $${first + values.push(a.department) - 1}`)
      return { sql: [base, ...conditions].join(' and '), values }
    }
    case 'everyone':
      return { sql: base, values: [] }
  }
}

/** How the audience reads on the screens ("Group: Field East", "Branch: Seattle", "Everyone", "3 users"). */
export function audienceLabel(a: AssignmentAudience): string {
  switch (a.kind) {
    case 'users':
      return a.user_ids.length === 1 ? '1 user' : `${a.user_ids.length} users`
    case 'group':
      return `Group: ${a.group}`
    case 'org':
      return [a.branch !== null ? `Branch: ${a.branch}` : null, a.department !== null ? `Department: ${a.department}` : null].filter((x) => x !== null).join(', ')
    case 'everyone':
      return 'Everyone'
  }
}
