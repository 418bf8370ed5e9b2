import type { User } from '@portal/contracts'
import { SESSION_REFRESHED_EVENT, clearSession, getStoredUser, onSignedOutElsewhere, readStoredUser, refreshSession, storeSession } from '@portal/ui-kit'
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'
import { endPortalSession, type ProviderSignOut } from './company-sign-in.ts'
import { decideStart } from './session-start.ts'

/** The session's state; after a logout of a company sign-in, the provider's own sign-out it offers. */
export type AuthState = { status: 'loading' } | { status: 'anonymous'; providerSignOut?: ProviderSignOut } | { status: 'authenticated'; user: User }

interface AuthContextValue {
  state: AuthState
  signIn: (token: string, user: User) => void
  signOut: () => void
  updateUser: (user: User) => void
}

const AuthContext = createContext<AuthContextValue | null>(null)

/**
 * Resolves the stored session at start and keeps the signed-in user. The access token is kept in
 * memory only (decision 0019): a reload gets a new one from the refresh cookie, with the user as
 * identity has them now; when that is refused the stored user is cleared (spec §4).
 */
export const AuthProvider = ({ children }: { children: ReactNode }) => {
  const [state, setState] = useState<AuthState>({ status: 'loading' })

  useEffect(() => {
    let cancelled = false
    if (decideStart(readStoredUser()) === 'anonymous') {
      clearSession()
      setState({ status: 'anonymous' })
      return
    }
    void refreshSession('/api', null, (...a) => globalThis.fetch(...a)).then((outcome) => {
      if (cancelled) return
      const user = typeof outcome === 'object' ? getStoredUser() : null
      if (user) return setState({ status: 'authenticated', user })
      clearSession()
      setState({ status: 'anonymous' })
    })
    return () => {
      cancelled = true
    }
  }, [])

  // Another tab signed out: this one drops its token and shows the sign-in page too.
  useEffect(() => onSignedOutElsewhere(() => setState((s) => (s.status === 'authenticated' ? { status: 'anonymous' } : s))), [])

  // A refresh brings the user as identity has them now (e.g. a role granted or taken away).
  useEffect(() => {
    const onRefreshed = (e: Event) => {
      const user = (e as CustomEvent<User>).detail
      setState((s) => (s.status === 'authenticated' ? { status: 'authenticated', user: { ...s.user, ...user } } : s))
    }
    globalThis.addEventListener(SESSION_REFRESHED_EVENT, onRefreshed)
    return () => globalThis.removeEventListener(SESSION_REFRESHED_EVENT, onRefreshed)
  }, [])

  const signIn = useCallback((token: string, user: User) => {
    storeSession(user, token)
    setState({ status: 'authenticated', user })
  }, [])
  const signOut = useCallback(() => {
    // Revokes the refresh token (an HttpOnly cookie only the server can clear); a company sign-in's
    // answer offers the provider's sign-out, shown on the login page once it arrives.
    void endPortalSession().then((offer) => {
      if (offer) setState((s) => (s.status === 'anonymous' ? { status: 'anonymous', providerSignOut: offer } : s))
    })
    clearSession()
    setState({ status: 'anonymous' })
  }, [])
  const updateUser = useCallback((user: User) => {
    setState((s) => {
      const merged = s.status === 'authenticated' ? { ...s.user, ...user } : user
      storeSession(merged)
      return { status: 'authenticated', user: merged }
    })
  }, [])

  const value = useMemo(() => ({ state, signIn, signOut, updateUser }), [state, signIn, signOut, updateUser])
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
}

export const useAuth = (): AuthContextValue => {
  const ctx = useContext(AuthContext)
  if (!ctx) throw new Error('useAuth outside AuthProvider')
  return ctx
}

/** Where a user lands after signing in (spec §2). */
export const dashboardOf = (user: Pick<User, 'is_admin'>): string => (user.is_admin ? '/admin-dashboard' : '/user-dashboard')
