/** The certification ledger other features use: the rules, the kept figures, who counts and who sees whom, the consistency check. */
export { consistencyReport } from './consistency.ts'
export { TECHNICIAN_CONDITIONS, ledgerRepository } from './ledger.repository.ts'
export { appliesToDepartment, complianceRequirements, progressOf, requirementsFor, tierProgress } from './requirements.ts'
export { ledgerRoutines } from './rules-sql.ts'
export { requireTeamMember, requireTeamViewer, teamConditions, type TeamViewer } from './team-access.ts'
