/** The exposed module each dashboard route shows (the route table and the preload read it). */
export const DASHBOARD_PAGES = {
  '/user-dashboard': 'mf_learner/UserDashboard',
  '/admin-dashboard': 'mf_admin/AdminDashboard',
} as const

/**
 * The remote page worth fetching before the session check answers (issue 15 item 9): the
 * dashboard at `pathname`, or the one `/` sends a stored user to; null for anything else (a page
 * the user may not be allowed to see is left to its route).
 */
export function pageToPreload(pathname: string, storedUser: { is_admin?: unknown } | null): string | null {
  const path = pathname === '/' && storedUser ? (storedUser.is_admin === true ? '/admin-dashboard' : '/user-dashboard') : pathname
  return Object.hasOwn(DASHBOARD_PAGES, path) ? DASHBOARD_PAGES[path as keyof typeof DASHBOARD_PAGES] : null
}

/**
 * Other remotes' parts a dashboard shows on its first screen (its RemoteSlots), fetched with it:
 * the learner dashboard's certification cards come from mf_certifications, found otherwise only
 * once the dashboard has loaded and rendered (issue 30 item 7).
 */
const FIRST_SCREEN_PARTS: Record<string, readonly string[]> = {
  [DASHBOARD_PAGES['/user-dashboard']]: ['mf_certifications/DashboardCards'],
}

/** The page and the other remotes' parts of its first screen, all worth fetching at once. */
export const withFirstScreenParts = (page: string): string[] => [page, ...(FIRST_SCREEN_PARTS[page] ?? [])]

/** Longest the session check waits for the first screen's remote entries to be requested. */
export const ENTRIES_GATE_MAX_MS = 250

/**
 * What the stored session's check waits behind (issue 30 item 7): until every remote of the first
 * screen has asked for its entry (`requested`), then one task more so the chunks the entries'
 * manifests name are asked for too; at once on `fail`; at most `maxMs`. The page's data needs the
 * check's answer and the entries alike, so sending the check with the entries instead of before
 * them costs the data nothing, and the entries can no longer wait on the check's answer: the data
 * starts at request-chain level 4 however slow the script before the entries runs.
 */
export function entriesGate(parts: readonly string[], maxMs = ENTRIES_GATE_MAX_MS, timer: (run: () => void, ms: number) => unknown = setTimeout) {
  const waiting = new Set(parts.map((p) => p.slice(0, p.indexOf('/'))))
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  timer(open, maxMs)
  return {
    opened,
    /** The remote `name` is loading its entry. */
    requested(name: string) {
      if (!waiting.delete(name) || waiting.size > 0) return
      timer(open, 0)
    },
    /** The first screen could not be fetched: nothing to wait for. */
    fail: () => open(),
  }
}
