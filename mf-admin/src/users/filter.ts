import type { User } from '@portal/contracts'

/** Users whose name or e-mail contains the search text (case-insensitive). */
export const filterUsers = (users: readonly User[], search: string): User[] => {
  const q = search.trim().toLowerCase()
  if (!q) return [...users]
  return users.filter((u) => u.name.toLowerCase().includes(q) || u.email.toLowerCase().includes(q))
}

/** "Admin" for admins, else "User" (spec: Users tab Role column). */
export const roleLabel = (u: Pick<User, 'is_admin'>): string => (u.is_admin ? 'Admin' : 'User')

/** Toggles a value in a list (checkbox groups of the manager scope). */
export const toggleIn = <T>(list: readonly T[], value: T): T[] =>
  list.includes(value) ? list.filter((v) => v !== value) : [...list, value]
