import type { QueryClient } from '@tanstack/react-query'

/**
 * The dashboard page's query key: every card's queries (and the course viewer's) sit under it, so
 * returning to the page or completing a module refreshes them all.
 */
export const DASHBOARD_KEY = ['dashboard'] as const

/** Fetches the dashboard's queries again (on return to the page, after a completion, on closing a course). */
export const refreshDashboard = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: DASHBOARD_KEY })
