import { ProfileResponse, type User } from '@portal/contracts'
import { api, clearSession, getToken, readStoredUser, storeSession } from '@portal/ui-kit'
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'
import { decideStart } from './session-start.ts'

export type AuthState = { status: 'loading' } | { status: 'anonymous' } | { status: 'authenticated'; user: User }

interface AuthContextValue {
  state: AuthState
  signIn: (token: string, user: User) => void
  signOut: () => void
  updateUser: (user: User) => void
}

const AuthContext = createContext<AuthContextValue | null>(null)

/** Resolves the stored session at start and keeps the signed-in user. */
export const AuthProvider = ({ children }: { children: ReactNode }) => {
  const [state, setState] = useState<AuthState>({ status: 'loading' })

  useEffect(() => {
    let cancelled = false
    if (decideStart(getToken(), readStoredUser()) === 'anonymous') {
      clearSession()
      setState({ status: 'anonymous' })
      return
    }
    api
      .get('/users/me', ProfileResponse)
      .then(({ user }) => {
        if (cancelled) return
        storeSession(user)
        setState({ status: 'authenticated', user })
      })
      .catch(() => {
        if (cancelled) return
        clearSession()
        setState({ status: 'anonymous' })
      })
    return () => {
      cancelled = true
    }
  }, [])

  const signIn = useCallback((token: string, user: User) => {
    storeSession(user, token)
    setState({ status: 'authenticated', user })
  }, [])
  const signOut = useCallback(() => {
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
export const dashboardOf = (user: Pick<User, 'is_admin'>): string =>
  user.is_admin ? '/admin-dashboard' : '/user-dashboard'
