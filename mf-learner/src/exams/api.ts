import { ExamSummary, UserStats } from '@portal/contracts'
import { api } from '@portal/ui-kit'

/** Query keys of the dashboard's exam cards. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  exams: () => [...dashboardKeys.all, 'exams'] as const,
  stats: (userId: string) => [...dashboardKeys.all, 'stats', userId] as const,
}

const ExamSummaries = ExamSummary.array()

export const fetchAvailableExams = () => api.get('/exams', ExamSummaries)
export const fetchUserStats = (userId: string) => api.get(`/users/${encodeURIComponent(userId)}/stats`, UserStats)
