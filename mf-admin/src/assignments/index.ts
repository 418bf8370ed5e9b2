// The assignment rules feature's public face: its query keys. The Assignments tab
// (assignments/AssignmentsTab.tsx, with the rule form, the dry run and the report) loads lazily when opened.
export { assignmentKeys } from './data/apiHooks.ts'
