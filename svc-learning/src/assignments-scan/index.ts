// Training that is due (issue 24), the scheduled side: the daily due-date scan that rolls recurring
// rows forward to the cycles that opened (their learners given a fresh start) and records and
// announces each reminder step once (ledger and outbox in one statement), and the following of
// certs' certification expiries by rules that recur ahead of them.
export { createDueDateScan, dueDateScanJob, DEFAULT_SCAN_INTERVAL_MS, RETAKE_BATCH, type DueDateScan, type ScanRun } from './due-date-scan.ts'
export { DUE_DATE_SCAN, scanRepository, type ScanCounts } from './scan.repository.ts'
export { reminderStagesSql } from './reminder-stages-sql.ts'
export { followCertification, type FollowResult } from './certification-expiry.ts'
export type { CertificationFact } from './certification-expiry.repository.ts'
