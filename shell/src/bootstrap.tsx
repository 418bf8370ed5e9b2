import { dropStoredToken, ensureStyles, loadRemoteComponent, readStoredUser, refreshSession } from '@portal/ui-kit'
import { registerPlugins } from '@module-federation/enhanced/runtime'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { UNSAFE_createBrowserHistory, unstable_HistoryRouter as HistoryRouter } from 'react-router'
import { AuthProvider } from './auth/AuthProvider.tsx'
import { decideStart } from './auth/session-start.ts'
import { guardedHistory } from './leave/guarded-history.ts'
import { LeaveGuardProvider } from './leave/LeaveGuardProvider.tsx'
import { createLeaveGuards } from './leave/leave-guards.ts'
import { AppRoutes } from './routing/AppRoutes.tsx'
import { pageToPreload, withFirstScreenParts } from './routing/preload.ts'

ensureStyles()

// An earlier version kept the access token in localStorage; it lives in memory now (decision 0019).
dropStoredToken()

// A stored session: the session check is sent first, then the dashboard it will most likely show
// is fetched (registry, remote entry, page) while the check runs, not after it (issue 15 item 9,
// issue 30 item 7: the page's data waits for both, so neither waits for the other). The
// AuthProvider joins the same refresh; the route loads the page again from the same cache; a
// failure here is theirs to show.
// With the page comes React Query, the shared singleton every remote page renders with: the shell
// provides it (on the pages that use it, not on its first load), so it is fetched as the first
// remote entry is (a runtime plugin's loadEntry hook) instead of once an entry has run and asked
// for it. The shell shares "loaded-first": its own request for it must not load every remote.
const stored = readStoredUser()
if (decideStart(stored) === 'validate') {
  void refreshSession('/api', null, (...a) => globalThis.fetch(...a))
  const page = pageToPreload(location.pathname, stored as { is_admin?: unknown })
  if (page) {
    for (const part of withFirstScreenParts(page)) loadRemoteComponent(part).catch(() => {})
    let requested = false
    registerPlugins([
      {
        name: 'shell-react-query-with-entries',
        loadEntry() {
          if (!requested) import('@tanstack/react-query').catch(() => {})
          requested = true
          return undefined
        },
      },
    ])
  }
}

const root = document.getElementById('root')
if (!root) throw new Error('#root missing from index.html')

// The router runs on the browser history with the pages' leave guards in front of it (a running
// exam holds links, Back and Forward until the learner has been told what leaving means). A data
// router's useBlocker would do the same for 17 KB more on the first load.
const guards = createLeaveGuards()
const history = guardedHistory(UNSAFE_createBrowserHistory({ v5Compat: true }), guards)

createRoot(root).render(
  <StrictMode>
    <HistoryRouter history={history}>
      <AuthProvider>
        <LeaveGuardProvider guards={guards}>
          <AppRoutes />
        </LeaveGuardProvider>
      </AuthProvider>
    </HistoryRouter>
  </StrictMode>,
)
