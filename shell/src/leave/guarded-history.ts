import type { unstable_HistoryRouter } from 'react-router'
import type { LeaveGuards } from './leave-guards.ts'

/** The history the shell's router reads and writes (react-router's own type, through HistoryRouter). */
export type History = Parameters<typeof unstable_HistoryRouter>[0]['history']
type To = Parameters<History['push']>[0]
type Listener = Parameters<History['listen']>[0]

/**
 * The browser history with leave guards in front of it: while a page has registered a guard, a
 * move to another page (a link, a remote's navigate, browser Back or Forward) happens only once
 * the guards agree. A Back is undone at once (the router never sees it) and done again if they do.
 * `go` is the browser's history.go (a parameter for the tests).
 */
export function guardedHistory(history: History, guards: LeaveGuards, go: (delta: number) => void = (d) => window.history.go(d)): History {
  let shown = history.location
  // The pops our own go() causes: undoing a held Back, then doing it once the guards agreed.
  let undoing = 0
  let redoing = false
  const pathOf = (to: To) => (typeof to === 'string' ? history.createURL(to).pathname : (to.pathname ?? shown.pathname))
  const held = (path: string) => guards.active() && path !== shown.pathname
  const guarded = (move: (to: To, state?: unknown) => void) => (to: To, state?: unknown) => {
    const path = pathOf(to)
    if (!held(path)) return move(to, state)
    void guards.ask({ kind: 'navigate', to: path }).then((ok) => {
      if (ok) move(to, state)
    })
  }
  return {
    get action() {
      return history.action
    },
    get location() {
      return history.location
    },
    createHref: (to) => history.createHref(to),
    createURL: (to) => history.createURL(to),
    encodeLocation: (to) => history.encodeLocation(to),
    push: guarded((to, state) => history.push(to, state)),
    replace: guarded((to, state) => history.replace(to, state)),
    go: (delta) => history.go(delta),
    listen(listener: Listener) {
      return history.listen((update) => {
        if (update.action === 'POP') {
          if (undoing > 0) {
            undoing--
            return
          }
          if (!redoing && update.delta && held(update.location.pathname)) {
            const { delta } = update
            undoing++
            go(-delta)
            void guards.ask({ kind: 'navigate', to: update.location.pathname }).then((ok) => {
              if (!ok) return
              redoing = true
              go(delta)
            })
            return
          }
          redoing = false
        }
        shown = update.location
        listener(update)
      })
    },
  }
}
