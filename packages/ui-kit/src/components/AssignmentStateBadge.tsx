import { ASSIGNMENT_STATE_LABELS, type AssignmentStateKind } from '@portal/contracts/assignment-rules'

/** The colour of each state: the words carry the meaning, the colour repeats it. */
const TONE: Record<AssignmentStateKind, 'danger' | 'warning' | 'info' | 'success' | 'neutral'> = {
  overdue: 'danger',
  due_soon: 'warning',
  open: 'info',
  not_due_yet: 'neutral',
  completed_late: 'warning',
  completed_on_time: 'success',
  exempt: 'neutral',
}

/** Where a person stands on an assignment (issue 24) as a pill with its words ("Overdue", "Due soon", ...), set at the start of its line or cell; `title` says more on hover. */
export const AssignmentStateBadge = ({ state, title }: { state: AssignmentStateKind; title?: string | null }) => (
  <span className={`pk-badge pk-badge--${TONE[state]} pk-ml0`} title={title ?? undefined}>
    {ASSIGNMENT_STATE_LABELS[state]}
  </span>
)
