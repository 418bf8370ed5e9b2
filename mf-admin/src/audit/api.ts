import { AuditEntriesResponse } from '@portal/contracts'
import { api } from '@portal/ui-kit'
import type { AuditSource } from './audit-view.ts'

/** One service's audit trail; `query` is the filter's query string (`auditQuery`). */
export const fetchAuditTrail = (service: AuditSource, query: string) => api.get(`/admin/audit/${service}${query}`, AuditEntriesResponse)
