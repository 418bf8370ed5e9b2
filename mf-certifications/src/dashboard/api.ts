import { CertificationSummary, CertificationsOverview } from '@portal/contracts'
import { api } from '@portal/ui-kit'

/** Query keys of the dashboard cards. */
export const dashboardKeys = {
  all: ['certification-dashboard'] as const,
  summary: (userId: string) => [...dashboardKeys.all, 'summary', userId] as const,
  overview: () => [...dashboardKeys.all, 'overview'] as const,
}

export const fetchSummary = (userId: string) => api.get(`/technician/summary/${encodeURIComponent(userId)}`, CertificationSummary)
export const fetchOverview = () => api.get('/admin/certifications/overview', CertificationsOverview)
