import { AUDITED_SERVICES, type AuditEntry } from '@portal/contracts'

/** The trails the tab reads, each at `/admin/audit/{service}` (decisions 0030, 0036). */
export const AUDIT_SOURCES = AUDITED_SERVICES
export type AuditSource = (typeof AUDIT_SOURCES)[number]
/** How the tab names a trail that did not answer. */
export const SOURCE_LABELS: Record<AuditSource, string> = {
  identity: 'Users & groups',
  learning: 'Exams & courses',
  notify: 'E-mail settings',
  certs: 'Certifications & revenue',
}

export interface AuditFilter {
  actor: string
  action: string
  from: string
  to: string
}
export const emptyFilter = (): AuditFilter => ({ actor: '', action: '', from: '', to: '' })

/** The query string of a filter (blank fields left out). */
export const auditQuery = (f: AuditFilter): string => {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(f)) if (v.trim()) q.set(k, v.trim())
  const s = q.toString()
  return s ? `?${s}` : ''
}

/** The services' trails as one list, newest first. */
export const mergeTrails = (lists: readonly (readonly AuditEntry[])[]): AuditEntry[] =>
  lists.flat().sort((a, b) => b.at.localeCompare(a.at) || a.service.localeCompare(b.service) || b.id - a.id)

/**
 * Where an entry's certification history is shown: certs' entries of a kept period (a renewal, a
 * replaced proof, a deletion: decision 0044) name its technician, type and period, and the
 * technician's profile opens that type's history at `#certification-history-{type}`; null otherwise.
 */
export const historyLink = (e: AuditEntry): string | null => {
  const { user_id, certification_id, period_id } = e.details
  if (e.service !== 'certs' || typeof user_id !== 'string' || typeof certification_id !== 'number' || typeof period_id !== 'number') return null
  return `/admin/technician/${encodeURIComponent(user_id)}#certification-history-${certification_id}`
}

/** Details as one line: `key: value` pairs, lists joined. */
export const detailsText = (d: Record<string, unknown>): string =>
  Object.entries(d)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join('; ')
