import { ASSIGNMENT_STATES, isOutstanding } from '@portal/contracts/assignment-rules'
import type { AssignmentItemKind, PersonAssignment } from '@portal/contracts'
import { dueInWords, formatDate } from '@portal/ui-kit'

/** How pressing a state is: overdue first, then due soon, open, not due yet, completed, exempt (the contracts' order). */
const urgency = (a: PersonAssignment) => ASSIGNMENT_STATES.indexOf(a.state)
const byUrgency = (a: PersonAssignment, b: PersonAssignment) => urgency(a) - urgency(b) || a.due_on.localeCompare(b.due_on) || a.item_title.localeCompare(b.item_title)

/** What still asks something of the learner, overdue first, then due soon, then open; the earliest due date first within each. */
export const outstanding = (assignments: readonly PersonAssignment[]): PersonAssignment[] => assignments.filter((a) => isOutstanding(a.state)).sort(byUrgency)

/** The key of a course or an exam among the learner's assignments. */
export const itemKey = (kind: AssignmentItemKind, id: number) => `${kind}:${id}`

/** Each assigned course and exam with its most urgent assignment (several rules may assign one item). */
export function mostUrgentByItem(assignments: readonly PersonAssignment[]): Map<string, PersonAssignment> {
  const byItem = new Map<string, PersonAssignment>()
  for (const a of assignments) {
    const key = itemKey(a.item_kind, a.item_id)
    const kept = byItem.get(key)
    if (!kept || byUrgency(a, kept) < 0) byItem.set(key, a)
  }
  return byItem
}

/**
 * The words beside the state badge: the due date and how far it is while outstanding ("Due Nov 22,
 * 2026 · 3 days overdue"), when it opens while not due yet, the next due date of a recurring one
 * after its completion ("Next due Nov 22, 2027"), the date it was due once completed; nothing when exempt.
 */
export function dueText(a: PersonAssignment): string | null {
  if (a.state === 'exempt') return null
  if (isOutstanding(a.state)) return `Due ${formatDate(a.due_on)} · ${dueInWords(a.days_left)}`
  if (a.state === 'not_due_yet') return a.opens_on ? `Due ${formatDate(a.due_on)} · opens ${formatDate(a.opens_on)}` : `Due ${formatDate(a.due_on)}`
  return a.next_due_on ? `Next due ${formatDate(a.next_due_on)}` : `Was due ${formatDate(a.due_on)}`
}
