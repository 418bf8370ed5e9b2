import { assignmentState, daysUntil, effectiveDueOn, type AssignmentFacts, type AssignmentStateKind, type PersonAssignment } from '@portal/contracts'
import type { AssignmentRow } from './assignment.repository.ts'

/** The member page's order (issue 24): what asks something of the person first, then what waits, then what is done. */
const STATE_ORDER: Record<AssignmentStateKind, number> = {
  overdue: 0,
  due_soon: 1,
  open: 2,
  not_due_yet: 3,
  completed_late: 4,
  completed_on_time: 4,
  exempt: 5,
}

const factsOf = (r: AssignmentRow): AssignmentFacts => ({
  due_on: r.due_on,
  opens_on: r.opens_on,
  completed_on: r.completed_on,
  next_due_on: r.next_due_on,
  next_opens_on: r.next_opens_on,
  exempt: r.exempt,
  due_soon_days: r.due_soon_days,
})

/**
 * A projected row as the API shows it on `today` (the contracts' rules): the cycle that counts
 * today is the next one once its window opened (then nothing of it is completed yet), else the
 * current one, with the next due date once it is completed.
 */
export function toPersonAssignment(r: AssignmentRow, today: string): PersonAssignment {
  const f = factsOf(r)
  const dueOn = effectiveDueOn(f, today)
  const state = assignmentState(f, today)
  // A completed row that is not "completed" today is working towards its next cycle.
  const onNext = r.completed_on !== null && !r.exempt && state !== 'completed_late' && state !== 'completed_on_time'
  return {
    rule_id: r.rule_id,
    item_kind: r.item_kind,
    item_id: r.item_id,
    item_title: r.item_title,
    state,
    assigned_on: r.assigned_on,
    due_on: dueOn,
    opens_on: onNext ? r.next_opens_on : r.opens_on,
    completed_on: onNext ? null : r.completed_on,
    next_due_on: onNext ? null : r.next_due_on,
    recurring: r.recurring,
    days_left: daysUntil(dueOn, today),
    exempt_reason: r.exempt ? r.exempt_reason : null,
  }
}

/** A member's assignments on `today`, outstanding first (overdue, due soon, open), then not due yet, completed, exempt; soonest due first within each. */
export const personAssignments = (rows: AssignmentRow[], today: string): PersonAssignment[] =>
  rows
    .map((r) => toPersonAssignment(r, today))
    .sort((a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state] || a.due_on.localeCompare(b.due_on) || a.item_title.localeCompare(b.item_title) || a.rule_id - b.rule_id)
