// The audit feature's public face: the trails' query keys. The Audit Trail tab
// (audit/AuditTrailTab.tsx) loads lazily when opened.
export { auditKeys } from './data/apiHooks.ts'
