/** Who may open a route (spec §2; `manager`: managers and admins, decision 0004). */
export type Access = 'public' | 'signed-in' | 'manager' | 'admin'

export interface AuthSnapshot {
  status: 'loading' | 'anonymous' | 'authenticated'
  isAdmin?: boolean
  isManager?: boolean
}

export type GuardDecision = { kind: 'render' } | { kind: 'spinner' } | { kind: 'redirect'; to: string }

/** The guard of every route: spinner while auth resolves, /login if signed out, /user-dashboard if not allowed. */
export const decideAccess = (access: Access, auth: AuthSnapshot): GuardDecision => {
  if (access === 'public') return { kind: 'render' }
  if (auth.status === 'loading') return { kind: 'spinner' }
  if (auth.status === 'anonymous') return { kind: 'redirect', to: '/login' }
  if (access === 'admin' && !auth.isAdmin) return { kind: 'redirect', to: '/user-dashboard' }
  if (access === 'manager' && !auth.isAdmin && !auth.isManager) return { kind: 'redirect', to: '/user-dashboard' }
  return { kind: 'render' }
}

/** `/`: the role's dashboard, or /login when signed out. */
export const decideRoot = (auth: AuthSnapshot): GuardDecision => {
  if (auth.status === 'loading') return { kind: 'spinner' }
  if (auth.status === 'anonymous') return { kind: 'redirect', to: '/login' }
  return { kind: 'redirect', to: auth.isAdmin ? '/admin-dashboard' : '/user-dashboard' }
}

/** /exam-results needs the state handed over by the exam; without it, back to the role's dashboard. */
export const decideExamResults = (state: unknown, isAdmin: boolean): GuardDecision =>
  state && typeof state === 'object' ? { kind: 'render' } : { kind: 'redirect', to: isAdmin ? '/admin-dashboard' : '/user-dashboard' }
