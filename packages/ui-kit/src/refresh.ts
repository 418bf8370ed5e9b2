import { AuthSuccess, type User } from '@portal/contracts'
import { getToken, storeSession } from './session.ts'

/** Event sent on `globalThis` when a refresh brought the signed-in user anew (roles may have changed). */
export const SESSION_REFRESHED_EVENT = 'portal:session-refreshed'

/** A token's expiry and lifetime (ms) from its claims, unverified (the server checks it); null if unreadable. */
export function tokenTimes(token: string): { expiresAt: number; lifetime: number } | null {
  const payload = token.split('.')[1]
  if (!payload) return null
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown; iat?: unknown }
    if (typeof claims.exp !== 'number') return null
    const iat = typeof claims.iat === 'number' ? claims.iat : claims.exp
    return { expiresAt: claims.exp * 1000, lifetime: (claims.exp - iat) * 1000 }
  } catch {
    return null
  }
}

/** Whether the token has ended or ends within a quarter of its lifetime (at most a minute ahead). */
export function expiresSoon(token: string, now = Date.now()): boolean {
  const t = tokenTimes(token)
  return t !== null && t.expiresAt - now <= Math.min(60_000, t.lifetime / 4)
}

/** What a refresh gave: a new token, the session is over, or the server could not be reached. */
export type RefreshOutcome = { token: string } | 'ended' | 'unreachable'

// One refresh at a time in the page, whichever copy of this module asks (each remote bundles its
// own ui-kit): the call in flight lives on the global object under a registry symbol.
const IN_FLIGHT = Symbol.for('portal.ui-kit.session-refresh')
type Shared = { [IN_FLIGHT]?: Promise<RefreshOutcome> }

/**
 * A new access token for the session (POST `{base}/auth/refresh`, carried by the HttpOnly refresh
 * cookie), kept like a sign-in's (in memory). The shell calls it at start with no token: a reload
 * gets its token this way. Single-flight: concurrent callers share one call, and tabs take turns
 * through a Web Lock (each then presents the cookie the one before it received); a caller whose
 * `staleToken` was already replaced by another call gets that token without a call, since a
 * refresh token presented twice ends the session.
 */
export function refreshSession(base: string, staleToken: string | null, fetchImpl: typeof fetch): Promise<RefreshOutcome> {
  const shared = globalThis as Shared
  const replaced = () => {
    const current = getToken()
    return current && current !== staleToken && !expiresSoon(current) ? { token: current } : null
  }
  const early = replaced()
  if (early) return Promise.resolve(early)
  const attempt = async (): Promise<RefreshOutcome> => {
    const done = replaced()
    if (done) return done
    let res: Response
    try {
      res = await fetchImpl(`${base}/auth/refresh`, { method: 'POST', headers: { Accept: 'application/json' }, credentials: 'same-origin' })
    } catch {
      return 'unreachable'
    }
    if (res.status >= 500) return 'unreachable'
    const parsed = AuthSuccess.safeParse(await res.json().catch(() => undefined))
    if (!res.ok || !parsed.success) return 'ended'
    storeSession(parsed.data.user, parsed.data.token)
    announce(parsed.data.user)
    return { token: parsed.data.token }
  }
  const locks = (globalThis as { navigator?: { locks?: { request<T>(name: string, cb: () => Promise<T>): Promise<T> } } }).navigator?.locks
  const inFlight = shared[IN_FLIGHT]
  if (inFlight) return inFlight
  const started = locks ? locks.request('portal.session-refresh', attempt) : attempt()
  shared[IN_FLIGHT] = started
  void started.finally(() => {
    if (shared[IN_FLIGHT] === started) shared[IN_FLIGHT] = undefined
  })
  return started
}

const announce = (user: User) => {
  const target = globalThis as { dispatchEvent?: (e: Event) => boolean }
  if (typeof target.dispatchEvent === 'function' && typeof CustomEvent === 'function') target.dispatchEvent(new CustomEvent(SESSION_REFRESHED_EVENT, { detail: user }))
}

/** Ends the session on the server (revokes its refresh token, clears the cookie); never fails. */
export async function endServerSession(base = '/api', fetchImpl: typeof fetch = (...a) => globalThis.fetch(...a)): Promise<void> {
  try {
    await fetchImpl(`${base}/auth/logout`, { method: 'POST', headers: { Accept: 'application/json' }, credentials: 'same-origin', keepalive: true })
  } catch {
    // Offline: the refresh token still expires on its own.
  }
}
