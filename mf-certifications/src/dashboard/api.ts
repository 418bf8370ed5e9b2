import { CertificationSummary, CertificationsOverview } from '@portal/contracts'
import { api } from '@portal/ui-kit'

export const fetchSummary = (userId: string) => api.get(`/technician/summary/${encodeURIComponent(userId)}`, CertificationSummary)
export const fetchOverview = () => api.get('/admin/certifications/overview', CertificationsOverview)
