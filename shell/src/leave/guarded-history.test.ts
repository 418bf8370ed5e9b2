import type { LeaveGuard } from '@portal/ui-kit'
import { describe, expect, it } from 'vitest'
import { guardedHistory, type History } from './guarded-history.ts'
import { createLeaveGuards } from './leave-guards.ts'

type Loc = History['location']
const loc = (pathname: string): Loc => ({ pathname, search: '', hash: '', state: null, key: pathname })

/** A history in memory that records what the router and the browser were asked to do. */
const fakeHistory = () => {
  let location = loc('/exam/1')
  let listener: ((u: { action: 'POP' | 'PUSH' | 'REPLACE'; location: Loc; delta: number | null }) => void) | null = null
  const pushed: string[] = []
  const history = {
    action: 'POP',
    get location() {
      return location
    },
    createHref: (to: unknown) => String(to),
    createURL: (to: unknown) => new URL(String(to), 'http://portal.test'),
    encodeLocation: (to: unknown) => ({ pathname: String(to), search: '', hash: '' }),
    push: (to: unknown) => {
      pushed.push(String(to))
      location = loc(String(to))
      listener?.({ action: 'PUSH', location, delta: 1 })
    },
    replace: () => {},
    go: () => {},
    listen: (l: typeof listener) => {
      listener = l
      return () => {}
    },
  } as unknown as History
  /** The browser moves (Back = -1) and tells the history. */
  const pop = (pathname: string, delta: number) => {
    location = loc(pathname)
    listener?.({ action: 'POP', location, delta })
  }
  return { history, pushed, pop }
}

const answer = () => {
  let resolve!: (ok: boolean) => void
  const guard: LeaveGuard = () => new Promise<boolean>((r) => (resolve = r))
  return { guard, say: (ok: boolean) => resolve(ok) }
}
const flush = () => new Promise((r) => setTimeout(r, 0))

describe('guarded history', () => {
  it('lets every move through while no page holds anything', () => {
    const { history, pushed } = fakeHistory()
    guardedHistory(history, createLeaveGuards(), () => {}).push('/user-dashboard')
    expect(pushed).toEqual(['/user-dashboard'])
  })

  it('holds a move to another page until the guard agrees, and drops it when it does not', async () => {
    const { history, pushed } = fakeHistory()
    const guards = createLeaveGuards()
    const g = guardedHistory(history, guards, () => {})
    g.listen(() => {})
    const first = answer()
    const withdraw = guards.register(first.guard)
    g.push('/user-dashboard')
    expect(pushed).toEqual([])
    first.say(false)
    await flush()
    expect(pushed).toEqual([])
    withdraw()
    const second = answer()
    guards.register(second.guard)
    g.push('/')
    second.say(true)
    await flush()
    await flush()
    expect(pushed).toEqual(['/'])
  })

  it('lets a move within the same page through (e.g. new router state)', () => {
    const { history, pushed } = fakeHistory()
    const guards = createLeaveGuards()
    guards.register(() => new Promise(() => {}))
    guardedHistory(history, guards, () => {}).push('/exam/1')
    expect(pushed).toEqual(['/exam/1'])
  })

  it('undoes a browser Back at once, and does it again once the guard agrees; the router sees only that one', async () => {
    const { history, pop } = fakeHistory()
    const guards = createLeaveGuards()
    const gone: number[] = []
    const g = guardedHistory(history, guards, (d) => gone.push(d))
    const seen: string[] = []
    g.listen((u) => seen.push(`${u.action} ${u.location.pathname}`))
    const ask = answer()
    guards.register(ask.guard)
    pop('/user-dashboard', -1)
    expect(gone).toEqual([1])
    pop('/exam/1', 1) // the undo arrives
    expect(seen).toEqual([])
    ask.say(true)
    await flush()
    await flush()
    expect(gone).toEqual([1, -1])
    pop('/user-dashboard', -1) // the Back, done again
    expect(seen).toEqual(['POP /user-dashboard'])
  })

  it('keeps the learner on the page when the guard says no to a Back', async () => {
    const { history, pop } = fakeHistory()
    const guards = createLeaveGuards()
    const gone: number[] = []
    const g = guardedHistory(history, guards, (d) => gone.push(d))
    const seen: string[] = []
    g.listen((u) => seen.push(u.location.pathname))
    const ask = answer()
    guards.register(ask.guard)
    pop('/user-dashboard', -1)
    pop('/exam/1', 1)
    ask.say(false)
    await flush()
    expect(gone).toEqual([1])
    expect(seen).toEqual([])
  })
})
