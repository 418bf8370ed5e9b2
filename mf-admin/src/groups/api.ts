import { NotificationRule, NotificationRulesResponse, SendReportResponse, TrackingConfig, type ReportFrequency, type TrackingItem } from '@portal/contracts'
import { api } from '@portal/ui-kit'

const groupPath = (group: string) => `/email-reports/groups/${encodeURIComponent(group)}`

export const fetchRules = () => api.get('/admin/notification-rules', NotificationRulesResponse)
export const updateRule = (id: number, body: { is_active: boolean } | { recipient_emails: string[] }) => api.put(`/admin/notification-rules/${id}`, body, NotificationRule)
export const fetchTracking = (group: string) => api.get(`${groupPath(group)}/tracking`, TrackingConfig)
export const saveTracking = (group: string, body: { ruleId: number; trackingItems: TrackingItem[]; reportFrequency: ReportFrequency; reportDayOfWeek: number | null }) =>
  api.put(`${groupPath(group)}/tracking`, body, TrackingConfig)
export const sendTestReport = (group: string) => api.post(`${groupPath(group)}/send-report`, { reportType: 'test' }, SendReportResponse)
