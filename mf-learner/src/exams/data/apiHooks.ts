import { useQuery } from '@tanstack/react-query'
import { DASHBOARD_KEY } from '../../dashboard-keys.ts'
import { fetchAvailableExams, fetchUserStats } from '../api.ts'

/** Query keys of the dashboard's exam cards (under the dashboard's, refreshed with it: `refreshDashboard`). */
export const examKeys = {
  exams: () => [...DASHBOARD_KEY, 'exams'] as const,
  allStats: () => [...DASHBOARD_KEY, 'stats'] as const,
  stats: (userId: string) => [...examKeys.allStats(), userId] as const,
}

/** Available Exams: what the learner may take. */
export const useAvailableExams = () => useQuery({ queryKey: examKeys.exams(), queryFn: fetchAvailableExams, refetchOnWindowFocus: false })

/** The learner's exam and course statistics. */
export const useUserStats = (userId: string) => useQuery({ queryKey: examKeys.stats(userId), queryFn: () => fetchUserStats(userId), refetchOnWindowFocus: false })
