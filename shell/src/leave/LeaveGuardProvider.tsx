import type { LeaveGuard, LeaveIntent } from '@portal/ui-kit'
import { createContext, useContext, useState, type ReactNode } from 'react'
import type { LeaveGuards } from './leave-guards.ts'

interface LeaveGuardContextValue {
  register: (guard: LeaveGuard) => () => void
  /** Resolves true when the user may leave (no guard, or every guard let them go). */
  confirmLeave: (intent: LeaveIntent) => Promise<boolean>
}

const LeaveGuardContext = createContext<LeaveGuardContextValue | null>(null)

/**
 * Hands the leave guards to the pages (remotes register theirs) and to the header's Logout. In-app
 * navigation is held by the guarded history the router runs on; tab close and reload stay with the
 * page (beforeunload).
 */
export const LeaveGuardProvider = ({ guards, children }: { guards: LeaveGuards; children: ReactNode }) => {
  const [value] = useState<LeaveGuardContextValue>(() => ({ register: guards.register, confirmLeave: guards.ask }))
  return <LeaveGuardContext.Provider value={value}>{children}</LeaveGuardContext.Provider>
}

export const useLeaveGuards = (): LeaveGuardContextValue => {
  const value = useContext(LeaveGuardContext)
  if (!value) throw new Error('useLeaveGuards needs a LeaveGuardProvider')
  return value
}
