import type { LeaveIntent } from '@portal/ui-kit'
import { describe, expect, it } from 'vitest'
import { createLeaveGuards } from './leave-guards.ts'

const logout: LeaveIntent = { kind: 'logout' }

describe('leave guards', () => {
  it('lets the user go at once when no page holds anything under way', async () => {
    const guards = createLeaveGuards()
    expect(guards.active()).toBe(false)
    expect(await guards.ask(logout)).toBe(true)
  })

  it('keeps the user on the page when a guard says no, and asks again next time', async () => {
    const guards = createLeaveGuards()
    const asked: LeaveIntent[] = []
    guards.register(async (intent) => {
      asked.push(intent)
      return false
    })
    expect(await guards.ask({ kind: 'navigate', to: '/user-dashboard' })).toBe(false)
    expect(await guards.ask(logout)).toBe(false)
    expect(asked).toEqual([{ kind: 'navigate', to: '/user-dashboard' }, logout])
    expect(guards.active()).toBe(true)
  })

  it('withdraws the guards once they let the user go, so the navigation that follows is not held', async () => {
    const guards = createLeaveGuards()
    guards.register(async () => true)
    expect(await guards.ask(logout)).toBe(true)
    expect(guards.active()).toBe(false)
  })

  it('a withdrawn guard is not asked', async () => {
    const guards = createLeaveGuards()
    const withdraw = guards.register(async () => false)
    withdraw()
    expect(guards.active()).toBe(false)
    expect(await guards.ask(logout)).toBe(true)
  })

  it('asks once when two ways out are tried while the question is open', async () => {
    const guards = createLeaveGuards()
    let answer!: (ok: boolean) => void
    let calls = 0
    guards.register(
      () =>
        new Promise<boolean>((r) => {
          calls++
          answer = r
        }),
    )
    const first = guards.ask({ kind: 'navigate', to: '/' })
    const second = guards.ask(logout)
    answer(false)
    expect(await first).toBe(false)
    expect(await second).toBe(false)
    expect(calls).toBe(1)
  })
})
