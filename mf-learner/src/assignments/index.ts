// The assignments feature's public face (issue 24): the dashboard's "Due and overdue" section, the
// due date and state on a course's or an exam's card, and the query they share.
export { DueSection, type DueItemActions } from './DueSection.tsx'
export { ItemDue } from './ItemDue.tsx'
export { assignmentKeys } from './data/apiHooks.ts'
