import { daysUntil, type AssignmentReportRow, type PersonAssignment } from '@portal/contracts'
import type { PersonRow, ReportPersonRow } from './assignment.repository.ts'

/**
 * A stored row as the screens show it on `today` (state from the SQL twin): the cycle that counts
 * today, i.e. the next one once its window opened (then not completed yet, and no further next).
 */
export function toPersonAssignment(r: PersonRow, today: string): PersonAssignment {
  const nextOpen = r.completed_on !== null && r.next_due_on !== null && (r.next_opens_on === null || today >= r.next_opens_on)
  const dueOn = nextOpen ? r.next_due_on! : r.due_on
  return {
    rule_id: r.rule_id,
    item_kind: r.item_kind,
    item_id: r.item_id,
    item_title: r.item_title ?? '',
    state: r.state,
    assigned_on: r.assigned_on,
    due_on: dueOn,
    opens_on: nextOpen ? r.next_opens_on : r.opens_on,
    completed_on: nextOpen ? null : r.completed_on,
    next_due_on: nextOpen ? null : r.next_due_on,
    recurring: r.recurring,
    days_left: daysUntil(dueOn, today),
    exempt_reason: r.exempt_reason,
  }
}

/** A rule's report row: the person and their assignment. */
export const toReportRow = (r: ReportPersonRow, today: string): AssignmentReportRow => ({
  ...toPersonAssignment(r, today),
  user_id: r.user_id,
  name: r.name,
  email: r.email,
  branch: r.branch,
  department: r.department,
})
