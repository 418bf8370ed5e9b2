import { STORAGE_KEYS, User } from '@portal/contracts'

/** The signed-in user as kept in localStorage (spec §3: key `user`). */
export type StoredUser = User

const storage = (): Storage | undefined => (typeof localStorage === 'undefined' ? undefined : localStorage)

/*
 * The access token lives in memory only (decision 0019): a script injected into the page can use
 * it while the page is open, but finds nothing in storage to take away. One slot for the whole
 * page, on the global object under a registry symbol: each remote bundles its own copy of this
 * module, and they must all see the token the shell's sign-in or refresh put there.
 */
const TOKEN = Symbol.for('portal.ui-kit.access-token')
type Slot = { [TOKEN]?: string | null }
const slot = globalThis as Slot

/** The bearer token of the session (in memory), or null. */
export const getToken = (): string | null => slot[TOKEN] ?? null

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

/** Keeps the token (when given: in memory) and the user (in localStorage) after a sign-in, a refresh or a profile change. */
export const storeSession = (user: StoredUser, token?: string): void => {
  if (token !== undefined) slot[TOKEN] = token
  storage()?.setItem(STORAGE_KEYS.user, JSON.stringify(user))
}

/** Forgets the token and the user (logout, expired or invalid session). */
export const clearSession = (): void => {
  slot[TOKEN] = null
  const s = storage()
  s?.removeItem(STORAGE_KEYS.user)
  s?.removeItem(STORAGE_KEYS.legacyToken)
}

/** Removes a token an earlier version left in localStorage (called at start; it is never read). */
export const dropStoredToken = (): void => storage()?.removeItem(STORAGE_KEYS.legacyToken)

/**
 * Calls `onEnded` when another tab signs out (its logout removes the stored user): this page then
 * drops its token too, instead of using it until it expires. Returns an unsubscribe.
 */
export const onSignedOutElsewhere = (onEnded: () => void): (() => void) => {
  const target = globalThis as { addEventListener?: Window['addEventListener']; removeEventListener?: Window['removeEventListener'] }
  if (typeof target.addEventListener !== 'function') return () => undefined
  const onStorage = (e: StorageEvent) => {
    if (e.key !== STORAGE_KEYS.user && e.key !== null) return
    if (storage()?.getItem(STORAGE_KEYS.user)) return
    slot[TOKEN] = null
    onEnded()
  }
  target.addEventListener('storage', onStorage)
  return () => target.removeEventListener?.('storage', onStorage)
}
