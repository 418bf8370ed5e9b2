import { isOutstanding } from '@portal/contracts/assignment-rules'
import type { PersonAssignment } from '@portal/contracts'
import { AssignmentStateBadge, DataTable, dueInWords, EmptyState, formatDate, TableHead } from '@portal/ui-kit'

const COLUMNS = ['Assignment', 'Type', 'State', 'Due date', 'Completed'] as const

/**
 * The member's assignments (issue 24), outstanding first as the service orders them: what, its
 * state in words (an exemption with its reason), the due date with how far it is while outstanding
 * (when a cycle not due yet opens, when a completed recurring one is next due), and when it was completed.
 */
export const MemberAssignments = ({ name, assignments }: { name: string; assignments: readonly PersonAssignment[] }) => (
  <section className="pk-card pk-stack" aria-labelledby="member-assignments-title">
    <h2 id="member-assignments-title">Assignments</h2>
    {assignments.length === 0 ? (
      <EmptyState>{name} has no assignments.</EmptyState>
    ) : (
      <DataTable labelledBy="member-assignments-title">
        <TableHead columns={COLUMNS} />
        <tbody>
          {assignments.map((a) => (
            <tr key={a.rule_id}>
              <th scope="row">{a.item_title}</th>
              <td>{a.item_kind === 'exam' ? 'Exam' : 'Course'}</td>
              <td>
                <AssignmentStateBadge state={a.state} />
                {a.state === 'exempt' && a.exempt_reason ? <span className="pk-muted"> {a.exempt_reason}</span> : null}
              </td>
              <td>
                {a.state === 'exempt' ? <span className="pk-muted">Not due</span> : formatDate(a.due_on)}
                {isOutstanding(a.state) ? <span className="pk-muted"> · {dueInWords(a.days_left)}</span> : null}
                {a.state === 'not_due_yet' && a.opens_on ? <span className="pk-muted"> · opens {formatDate(a.opens_on)}</span> : null}
                {a.next_due_on && !isOutstanding(a.state) ? <span className="pk-muted"> · next due {formatDate(a.next_due_on)}</span> : null}
              </td>
              <td>{formatDate(a.completed_on)}</td>
            </tr>
          ))}
        </tbody>
      </DataTable>
    )}
  </section>
)
