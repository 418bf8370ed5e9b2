import { ASSIGNMENT_MESSAGES, type AssignmentRule } from '@portal/contracts'
import { Alert, Button, ConfirmDialog, DataTable, EmptyState, Spinner, TableHead, errorMessage } from '@portal/ui-kit'
import { useState } from 'react'
import { ADD_TARGET, AuthoringHeader, deleteTarget, editTarget, useAuthoringTab } from '../authoring/index.ts'
import { useAssignmentRules, useCertificationTypes, useDeleteRule } from './data/apiHooks.ts'
import { ReportDialog } from './ReportDialog.tsx'
import { ITEM_KIND_LABELS, completedCount, dueText, recurrenceText } from './rule-form.ts'
import { RuleEditor } from './RuleEditor.tsx'

const M = ASSIGNMENT_MESSAGES

/**
 * Assignments tab (issue 24): the assignment rules with their people, overdue and completed counts;
 * New Assignment Rule, and per rule its Report, Edit (through a dry run) and Delete (confirmed).
 */
export const AssignmentsTab = () => {
  const rules = useAssignmentRules()
  const list = rules.data ?? []
  // Names of the certifications that rules follow, asked for only when one does.
  const types = useCertificationTypes(list.some((r) => r.recurrence?.kind === 'certification'))
  const certificationName = (id: number) => types.data?.find((t) => t.id === id)?.name
  const [reportOf, setReportOf] = useState<AssignmentRule | null>(null)
  const { editing, openEditor, closeEditor, target, toDelete, setToDelete, notice, setNotice, afterDelete } = useAuthoringTab<AssignmentRule>({
    deletedNotice: M.deleted,
    ids: list.map((r) => r.id),
  })
  const remove = useDeleteRule(afterDelete)

  return (
    <div className="pk-stack">
      <AuthoringHeader
        title="Assignments"
        addLabel="New Assignment Rule"
        addRef={target(ADD_TARGET)}
        onAdd={() => openEditor({ mode: 'add' })}
        notice={notice}
        deleteError={remove.isError && !toDelete ? errorMessage(remove.error, M.deleteFailed) : null}
      />
      {rules.isPending ? (
        <Spinner label="Loading assignments..." />
      ) : rules.isError ? (
        <Alert>{errorMessage(rules.error, M.loadFailed)}</Alert>
      ) : list.length === 0 ? (
        <div>
          <EmptyState>No assignment rules yet</EmptyState>
          <p className="pk-muted pk-m0">Use New Assignment Rule to assign a course or an exam with a due date.</p>
        </div>
      ) : (
        <DataTable>
          <caption className="pk-visually-hidden">Assignment rules</caption>
          <TableHead columns={['Item', 'Assigned to', 'Due', 'Recurrence', 'People', 'Overdue', 'Completed', 'Actions']} />
          <tbody>
            {list.map((r) => {
              const titleId = `assignment-rule-${r.id}-title`
              return (
                <tr key={r.id}>
                  <th scope="row" id={titleId}>
                    {r.item_title} <span className="pk-badge">{ITEM_KIND_LABELS[r.item_kind]}</span>
                  </th>
                  <td>{r.audience_label}</td>
                  <td>{dueText(r.due)}</td>
                  <td>{recurrenceText(r.recurrence, certificationName)}</td>
                  <td>{r.people}</td>
                  <td>{r.counts.overdue > 0 ? <span className="pk-tone pk-tone--red">{r.counts.overdue}</span> : 0}</td>
                  <td>{completedCount(r.counts)}</td>
                  <td>
                    <div className="pk-row">
                      <Button size="small" variant="secondary" aria-describedby={titleId} onClick={() => setReportOf(r)}>
                        Report
                      </Button>
                      <Button ref={target(editTarget(r.id))} size="small" variant="secondary" aria-describedby={titleId} onClick={() => openEditor({ mode: 'edit', item: r })}>
                        Edit
                      </Button>
                      <Button
                        ref={target(deleteTarget(r.id))}
                        size="small"
                        variant="danger"
                        aria-describedby={titleId}
                        onClick={() => {
                          remove.reset()
                          setToDelete(r)
                        }}
                      >
                        Delete
                      </Button>
                    </div>
                  </td>
                </tr>
              )
            })}
          </tbody>
        </DataTable>
      )}
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete Assignment Rule"
        confirmLabel="Delete"
        busy={remove.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() => toDelete && remove.mutate(toDelete.id)}
      >
        <p className="pk-m0">
          Are you sure you want to delete the assignment rule for {toDelete?.item_title} ({toDelete?.audience_label})? Its people are no longer assigned, reminded or reported by
          it. Completions already recorded are kept.
        </p>
        {remove.isError ? <Alert>{errorMessage(remove.error, M.deleteFailed)}</Alert> : null}
      </ConfirmDialog>
      {editing.mode !== 'closed' ? (
        <RuleEditor
          key={editing.mode === 'edit' ? editing.item.id : 'new'}
          rule={editing.mode === 'edit' ? editing.item : null}
          onClose={closeEditor}
          onSaved={(saved) => {
            closeEditor()
            setNotice(saved.message || M.saved)
          }}
        />
      ) : null}
      {reportOf ? <ReportDialog rule={reportOf} onClose={() => setReportOf(null)} /> : null}
    </div>
  )
}
