import type { AssignmentItemKind } from '@portal/contracts'
import { AssignmentStateBadge } from '@portal/ui-kit'
import { dueText, itemKey, mostUrgentByItem } from './assignment-view.ts'
import { useMyAssignments } from './data/apiHooks.ts'

/**
 * The due date and state of a course or an exam on its card (My Courses, Available Exams), by its
 * most urgent assignment; nothing when it is not assigned with a due date, or while (or if) the
 * assignments do not load: the card stands without them.
 */
export const ItemDue = ({ kind, id }: { kind: AssignmentItemKind; id: number }) => {
  const mine = useMyAssignments()
  const assignment = mine.data ? mostUrgentByItem(mine.data.assignments).get(itemKey(kind, id)) : undefined
  if (!assignment) return null
  const text = dueText(assignment)
  return (
    <p className="pk-m0 pk-row pk-gap-s">
      <AssignmentStateBadge state={assignment.state} title={assignment.exempt_reason} />
      {text ? <span>{text}</span> : null}
    </p>
  )
}
