import type { User } from '@portal/contracts'
import type { PickablePerson } from '@portal/ui-kit'
import { byText, type TableColumns } from '../table/index.ts'

/** Users whose name or e-mail contains the search text (case-insensitive). */
export const filterUsers = (users: readonly User[], search: string): User[] => {
  const q = search.trim().toLowerCase()
  if (!q) return [...users]
  return users.filter((u) => u.name.toLowerCase().includes(q) || u.email.toLowerCase().includes(q))
}

/** A user as the people pickers offer them: told apart from a namesake by e-mail and employee id. */
export const personOf = (u: User): PickablePerson => ({ id: u.id, name: u.name, email: u.email, employeeId: u.employee_id })

/** "Admin" for admins, else "User" (spec: Users tab Role column). */
export const roleLabel = (u: Pick<User, 'is_admin'>): string => (u.is_admin ? 'Admin' : 'User')

/** The Assign dialog's filters; '' means any. */
export interface LearnerFilter {
  search: string
  branch: string
  department: string
  group: string
}

/** Users matching the search (name or e-mail) and every chosen filter. */
export const filterLearners = (users: readonly User[], f: LearnerFilter): User[] =>
  filterUsers(users, f.search).filter((u) => (!f.branch || u.branch === f.branch) && (!f.department || u.department === f.department) && (!f.group || u.user_group === f.group))

/**
 * The Assign dialog's count: how many are selected, and what Assign changes (it replaces the
 * current assignment): "3 selected · 2 already assigned · 1 new · 1 to be unassigned".
 */
export const selectionSummary = (selected: readonly string[], assigned: readonly string[], assignedToAll: boolean): string => {
  const kept = selected.filter((id) => assigned.includes(id)).length
  const added = selected.length - kept
  const removed = assigned.length - kept
  const parts = [assignedToAll ? 'Assigned to all users' : null, `${selected.length} selected`]
  if (kept) parts.push(`${kept} already assigned`)
  if (added && assigned.length) parts.push(`${added} new`)
  if (removed) parts.push(`${removed} to be unassigned`)
  return parts.filter(Boolean).join(' · ')
}

/** Search (name, e-mail, branch, department, group) and sort of the Users table. */
export const USER_COLUMNS: TableColumns<User, 'name' | 'email' | 'role' | 'branch' | 'department' | 'group'> = {
  searchText: (u) => [u.name, u.email, u.branch, u.department, u.user_group].filter(Boolean).join(' '),
  compare: {
    name: byText((u) => u.name),
    email: byText((u) => u.email),
    role: byText(roleLabel),
    branch: byText((u) => u.branch),
    department: byText((u) => u.department),
    group: byText((u) => u.user_group),
  },
}

/** Toggles a value in a list (checkbox groups of the manager scope). */
export const toggleIn = <T>(list: readonly T[], value: T): T[] => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value])
