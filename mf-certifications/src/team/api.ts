import {
  memberReportPath,
  PromotionRequestResponse,
  PromotionRequestsResponse,
  RevPayResponse,
  SendReminderResponse,
  TeamMemberDetail,
  TeamResponse,
  type TeamQuery,
  type TierLevel,
} from '@portal/contracts'
import { api } from '@portal/ui-kit'

const enc = encodeURIComponent

/** `?a=1&b=2` of the values that are set (empty filters are left out). */
export const queryString = (params: Record<string, unknown>): string => {
  const q = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) if ((typeof value === 'string' && value !== '') || typeof value === 'number') q.set(key, String(value))
  const s = q.toString()
  return s ? `?${s}` : ''
}

export const fetchTeam = (query: TeamQuery) => api.get(`/manager/team${queryString(query)}`, TeamResponse)
export const fetchMember = (userId: string) => api.get(`/manager/team/${enc(userId)}`, TeamMemberDetail)
export const updateRevPay = (userId: string, revPayRatio: number) => api.put(`/manager/rev-pay/${enc(userId)}`, { revPayRatio }, RevPayResponse)
export const requestPromotion = (userId: string, newTier: TierLevel, justification: string) =>
  api.post('/manager/tier-promotion', { userId, newTier, justification }, PromotionRequestResponse)
export const fetchPendingPromotions = () => api.get('/manager/tier-promotions?status=pending', PromotionRequestsResponse)
export const decidePromotion = (id: number, approve: boolean, note: string) =>
  api.post(`/manager/tier-promotions/${id}/decision`, { approve, note: note.trim() || null }, PromotionRequestResponse)

/** The team as a spreadsheet, with the screen's filters and order (learner §7). */
export const exportTeam = (filters: { branch?: string; department?: string; search?: string; overdue?: string; sort?: string; order?: string }) =>
  api.getFile(`/reports/certifications/export${queryString({ format: 'excel', ...filters })}`)
/** Quick Actions of the member detail: e-mail the technician their open requirements; one member's report. */
export const sendReminder = (userId: string) => api.post(`/manager/team/${enc(userId)}/reminder`, {}, SendReminderResponse)
export const fetchMemberReport = (userId: string) => api.getFile(memberReportPath(enc(userId)))
