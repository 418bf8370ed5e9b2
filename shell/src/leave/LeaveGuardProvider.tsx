import type { LeaveGuard, LeaveIntent } from '@portal/ui-kit'
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react'
import { useBlocker, type BlockerFunction } from 'react-router'
import { createLeaveGuards } from './leave-guards.ts'

interface LeaveGuardContextValue {
  register: (guard: LeaveGuard) => () => void
  /** Resolves true when the user may leave (no guard, or every guard let them go). */
  confirmLeave: (intent: LeaveIntent) => Promise<boolean>
}

const LeaveGuardContext = createContext<LeaveGuardContextValue | null>(null)

/**
 * Holds every in-app navigation (links, browser Back and Forward, a remote's navigate) while a
 * page has registered a leave guard, and lets it through once the guards agree; the header's
 * Logout asks through `confirmLeave`. Tab close and reload stay with the page (beforeunload).
 */
export const LeaveGuardProvider = ({ children }: { children: ReactNode }) => {
  const [guards] = useState(createLeaveGuards)
  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation }) => guards.active() && currentLocation.pathname !== nextLocation.pathname,
    [guards],
  )
  const blocker = useBlocker(shouldBlock)
  useEffect(() => {
    if (blocker.state !== 'blocked') return
    let current = true
    void guards.ask({ kind: 'navigate', to: blocker.location.pathname }).then((ok) => {
      if (!current) return
      if (ok) blocker.proceed()
      else blocker.reset()
    })
    return () => {
      current = false
    }
  }, [blocker, guards])
  const [value] = useState<LeaveGuardContextValue>(() => ({ register: guards.register, confirmLeave: guards.ask }))
  return <LeaveGuardContext.Provider value={value}>{children}</LeaveGuardContext.Provider>
}

export const useLeaveGuards = (): LeaveGuardContextValue => {
  const value = useContext(LeaveGuardContext)
  if (!value) throw new Error('useLeaveGuards needs a LeaveGuardProvider')
  return value
}
