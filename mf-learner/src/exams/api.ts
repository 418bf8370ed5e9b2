import { ExamSummary, UserStats } from '@portal/contracts'
import { api } from '@portal/ui-kit'

const ExamSummaries = ExamSummary.array()

export const fetchAvailableExams = () => api.get('/exams', ExamSummaries)
export const fetchUserStats = (userId: string) => api.get(`/users/${encodeURIComponent(userId)}/stats`, UserStats)
