import type { LeaveGuard, LeaveIntent } from '@portal/ui-kit'

/** The leave guards registered by the page on screen (a running exam registers one). */
export interface LeaveGuards {
  register: (guard: LeaveGuard) => () => void
  /** Whether any guard is registered (navigation is then held until they are asked). */
  active: () => boolean
  /**
   * Asks every guard in turn; true when all let the user go. The guards are then withdrawn: the
   * page they belong to is being left, and the navigation that follows must not ask again.
   */
  ask: (intent: LeaveIntent) => Promise<boolean>
}

export function createLeaveGuards(): LeaveGuards {
  const guards = new Set<LeaveGuard>()
  let asking: Promise<boolean> | null = null
  const askAll = async (intent: LeaveIntent) => {
    for (const guard of [...guards]) if (!(await guard(intent))) return false
    guards.clear()
    return true
  }
  return {
    register(guard) {
      guards.add(guard)
      return () => {
        guards.delete(guard)
      }
    },
    active: () => guards.size > 0,
    // One question at a time: a second way out tried while a guard asks gets the same answer.
    ask(intent) {
      asking ??= askAll(intent).finally(() => {
        asking = null
      })
      return asking
    },
  }
}
