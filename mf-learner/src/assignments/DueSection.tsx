import { ASSIGNMENT_MESSAGES, type PersonAssignment } from '@portal/contracts'
import { AssignmentStateBadge, Button, EmptyState, errorMessage, Spinner } from '@portal/ui-kit'
import { dueText, outstanding } from './assignment-view.ts'
import { useMyAssignments } from './data/apiHooks.ts'

/** Where the title of a due item leads: an exam's page, or the course opened in place (courses have no page of their own). */
export interface DueItemActions {
  navigate: (to: string) => void
  openCourse: (course: { id: number }) => void
}

/** The item's title: a link to the exam, or a button opening the course in the viewer (focus returns to it on closing). */
const ItemTitle = ({ assignment: a, actions }: { assignment: PersonAssignment; actions: DueItemActions }) => {
  if (a.item_kind === 'exam') {
    const to = `/exam/${a.item_id}`
    return (
      <a
        href={to}
        className="pk-fw-semibold"
        onClick={(e) => {
          if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
          e.preventDefault()
          actions.navigate(to)
        }}
      >
        {a.item_title}
      </a>
    )
  }
  return (
    <button type="button" className="pk-btn pk-btn--link pk-fw-semibold" data-due-course-id={a.item_id} onClick={() => actions.openCourse({ id: a.item_id })}>
      {a.item_title}
    </button>
  )
}

/**
 * The learner home's lead (issue 24): what is overdue, due soon or open, overdue first, each with
 * its title (to the exam or course), its state in words, its due date and how far it is.
 */
export const DueSection = ({ actions }: { actions: DueItemActions }) => {
  const mine = useMyAssignments()
  const due = mine.data ? outstanding(mine.data.assignments) : []
  return (
    <section className="pk-card pk-stack" aria-labelledby="due-title">
      <h2 id="due-title">Due and overdue</h2>
      {mine.isPending ? (
        <Spinner label="Loading assignments..." />
      ) : mine.isError ? (
        <div role="alert" className="pk-alert pk-alert--error pk-row pk-between">
          <span>{errorMessage(mine.error, ASSIGNMENT_MESSAGES.loadFailed)}</span>
          <Button size="small" variant="secondary" onClick={() => void mine.refetch()}>
            Try Again
          </Button>
        </div>
      ) : due.length === 0 ? (
        <EmptyState>{ASSIGNMENT_MESSAGES.nothingDue}</EmptyState>
      ) : (
        <ul className="pk-plain-list pk-stack pk-gap-m">
          {due.map((a) => (
            <li key={a.rule_id} className="pk-row pk-between pk-border pk-rounded pk-pad">
              <span className="pk-stack pk-gap-xs">
                <ItemTitle assignment={a} actions={actions} />
                <span className="pk-muted pk-fs-14">{a.item_kind === 'exam' ? 'Exam' : 'Course'}</span>
              </span>
              <span className="pk-row pk-gap-s">
                <AssignmentStateBadge state={a.state} />
                <span>{dueText(a)}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
