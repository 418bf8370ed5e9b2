import { STORAGE_KEYS, User } from '@portal/contracts'

/** The signed-in user as kept in localStorage (spec §3: keys `token` and `user`). */
export type StoredUser = User

const storage = (): Storage | undefined => (typeof localStorage === 'undefined' ? undefined : localStorage)

/** The stored bearer token, or null. */
export const getToken = (): string | null => storage()?.getItem(STORAGE_KEYS.token) ?? null

/** A user has the fields the portal needs to trust it (spec §4: id, email and name). */
export const hasIdentity = (u: unknown): u is { id: string; email: string; name: string } =>
  typeof u === 'object' &&
  u !== null &&
  typeof (u as Record<string, unknown>).id === 'string' &&
  typeof (u as Record<string, unknown>).email === 'string' &&
  typeof (u as Record<string, unknown>).name === 'string' &&
  !!(u as Record<string, string>).id &&
  !!(u as Record<string, string>).email &&
  !!(u as Record<string, string>).name

/** The stored user as raw JSON (unknown shape), or null; corrupt stored JSON is removed (spec §4). */
export const readStoredUser = (): unknown => {
  const raw = storage()?.getItem(STORAGE_KEYS.user)
  if (!raw) return null
  try {
    return JSON.parse(raw) as unknown
  } catch {
    clearSession()
    return null
  }
}

/** The stored user if it has the shape of the contracts `User`, else null. */
export const getStoredUser = (): StoredUser | null => {
  const parsed = User.safeParse(readStoredUser())
  return parsed.success ? parsed.data : null
}

/** Keeps the token (when given) and the user after a sign-in or a profile change. */
export const storeSession = (user: StoredUser, token?: string): void => {
  const s = storage()
  if (!s) return
  if (token !== undefined) s.setItem(STORAGE_KEYS.token, token)
  s.setItem(STORAGE_KEYS.user, JSON.stringify(user))
}

/** Forgets the token and the user (logout, expired or invalid session). */
export const clearSession = (): void => {
  const s = storage()
  s?.removeItem(STORAGE_KEYS.token)
  s?.removeItem(STORAGE_KEYS.user)
}
