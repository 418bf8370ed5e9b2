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
