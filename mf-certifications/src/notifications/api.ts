import {
  CERT_NOTIFICATIONS,
  CertificationDashboard,
  ComplianceForecast,
  NotificationConfigResponse,
  NotificationConfigsResponse,
  NotificationLogsResponse,
  CertReminderResponse,
  TriggerResponse,
  type NotificationConfigInput,
} from '@portal/contracts'
import { api } from '@portal/ui-kit'

const BASE = '/certification-notifications'

/**
 * The grouped dashboard with the compliance overview; expired items included (the Expired
 * Certifications tab): the first of each group unless `all` (the counts are the totals either way).
 */
export const fetchDashboard = (all = false) =>
  api.get(`${BASE}/dashboard?days=${CERT_NOTIFICATIONS.dashboardDays}&include_expired=true${all ? '' : `&limit=${CERT_NOTIFICATIONS.dashboardListed}`}`, CertificationDashboard)
export const fetchForecast = () => api.get(`${BASE}/forecast`, ComplianceForecast)
export const fetchConfigs = () => api.get(`${BASE}/configs`, NotificationConfigsResponse).then((r) => r.configs)
/** The latest 50 entries (admin §9); the screen shows the first 20. */
export const fetchLogs = () => api.get(`${BASE}/logs?limit=${CERT_NOTIFICATIONS.logsFetched}`, NotificationLogsResponse).then((r) => r.logs)
export const updateConfig = (id: number, body: NotificationConfigInput) => api.put(`${BASE}/configs/${id}`, body, NotificationConfigResponse)
export const triggerDaily = () => api.post(`${BASE}/trigger/daily`, {}, TriggerResponse)
export const triggerWeekly = () => api.post(`${BASE}/trigger/weekly`, {}, TriggerResponse)
export const sendReminder = (technicianCertificationId: number) =>
  api.post(`${BASE}/send-reminder`, { technician_certification_id: technicianCertificationId }, CertReminderResponse)
