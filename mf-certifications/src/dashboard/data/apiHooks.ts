import { useQuery } from '@tanstack/react-query'
import { fetchOverview, fetchSummary } from '../api.ts'

/** Query keys of the dashboard cards. */
export const dashboardKeys = {
  all: ['certification-dashboard'] as const,
  summary: (userId: string) => [...dashboardKeys.all, 'summary', userId] as const,
  overview: () => [...dashboardKeys.all, 'overview'] as const,
}

/** The user's certification summary (the learner dashboard's cards); not fetched while `enabled` is false. */
export const useCertificationSummary = (userId: string, enabled: boolean) => useQuery({ queryKey: dashboardKeys.summary(userId), queryFn: () => fetchSummary(userId), enabled })

/** The certifications overview of the admin dashboard. */
export const useCertificationsOverview = () => useQuery({ queryKey: dashboardKeys.overview(), queryFn: fetchOverview })
