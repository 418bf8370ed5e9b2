import { useQueries } from '@tanstack/react-query'
import { fetchAuditTrail } from '../api.ts'
import { AUDIT_SOURCES, type AuditSource } from '../audit-view.ts'

/** Query keys of the audit trail feature: one trail per service and filter. */
export const auditKeys = {
  all: ['audit-trail'] as const,
  trail: (service: AuditSource, query: string) => [...auditKeys.all, service, query] as const,
}

/** Every service's trail for the filter's query string, in the order of `AUDIT_SOURCES`. */
export const useAuditTrails = (query: string) =>
  useQueries({
    queries: AUDIT_SOURCES.map((service) => ({
      queryKey: auditKeys.trail(service, query),
      queryFn: () => fetchAuditTrail(service, query),
    })),
  })
