import {
  AssignmentPreview,
  AssignmentReport,
  AssignmentRuleDeleted,
  AssignmentRuleList,
  AssignmentRuleSaved,
  CertificationTypesResponse,
  ExemptionResult,
  type AssignmentPreviewInput,
  type AssignmentReportQuery,
  type AssignmentRuleInput,
  type ExemptionInput,
} from '@portal/contracts'
import { api } from '@portal/ui-kit'

const BASE = '/admin/assignment-rules'
const rulePath = (id: number) => `${BASE}/${encodeURIComponent(String(id))}`

/** The query string of a report: only the filters that are set (the export takes the same, without paging). */
export const reportQuery = (q: AssignmentReportQuery): string => {
  const params = new URLSearchParams()
  for (const key of ['state', 'branch', 'department', 'search', 'limit', 'offset'] as const) {
    const value = q[key]
    if (value !== undefined && value !== null && String(value).trim() !== '') params.set(key, String(value).trim())
  }
  const s = params.toString()
  return s ? `?${s}` : ''
}

export const fetchRules = () => api.get(BASE, AssignmentRuleList)
export const createRule = (input: AssignmentRuleInput) => api.post(BASE, input, AssignmentRuleSaved)
export const updateRule = (id: number, input: AssignmentRuleInput) => api.put(rulePath(id), input, AssignmentRuleSaved)
export const deleteRule = (id: number) => api.delete(rulePath(id), AssignmentRuleDeleted)
/** The dry run: what saving `input` would change (nothing is stored). */
export const previewRule = (input: AssignmentPreviewInput) => api.post(`${BASE}/preview`, input, AssignmentPreview)
export const fetchReport = (id: number, q: AssignmentReportQuery) => api.get(`${rulePath(id)}/report${reportQuery(q)}`, AssignmentReport)
/** The report as an .xlsx, with the same filters and without paging. */
export const fetchReportWorkbook = (id: number, q: Omit<AssignmentReportQuery, 'limit' | 'offset'>) => api.getFile(`${rulePath(id)}/report/export${reportQuery(q)}`)
export const exempt = (id: number, body: ExemptionInput) => api.post(`${rulePath(id)}/exemptions`, body, ExemptionResult)
export const liftExemption = (id: number, userId: string) => api.delete(`${rulePath(id)}/exemptions/${encodeURIComponent(userId)}`, ExemptionResult)
/** The certification types a recurring rule may follow (certs' admin list). */
export const fetchCertificationTypes = () => api.get('/admin/certifications', CertificationTypesResponse).then((r) => r.certifications)
