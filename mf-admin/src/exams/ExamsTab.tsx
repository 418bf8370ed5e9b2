import type { Exam } from '@portal/contracts'
import { Alert, Button, ConfirmDialog, DataTable, EmptyState, errorMessage, Spinner } from '@portal/ui-kit'
import { Suspense, lazy, useState } from 'react'
import { ADD_TARGET, AuthoringHeader, deleteTarget, editTarget, useAuthoringTab } from '../authoring/index.ts'
import { assignExam } from './api.ts'
import { useAdminExams, useDeleteExam, useRefreshExams } from './data/apiHooks.ts'
import { Pager, SortHeader, TableSearch, useAdminTable } from '../table/index.ts'
import { EXAM_COLUMNS, assignmentText, typeText } from './exam-table.ts'

// The form (question editor, reorder, import) loads when Add New Exam or Edit opens it.
const ExamForm = lazy(() => import(/* webpackChunkName: "exam-form" */ './ExamForm.tsx').then((m) => ({ default: m.ExamForm })))
// The assign dialog (learner list, filters) loads when Assign opens it: the tab's first paint does without it.
// Item analysis (charts, figures, export) loads when its button opens it.
const ItemAnalysisDialog = lazy(() => import(/* webpackChunkName: "item-analysis" */ './item-analysis/ItemAnalysisDialog.tsx').then((m) => ({ default: m.ItemAnalysisDialog })))
const AssignDialog = lazy(() => import(/* webpackChunkName: "assign-dialog" */ '../assign/index.ts').then((m) => ({ default: m.AssignDialog })))

/** Exams tab: list with edit, delete (confirmed) and assign; Add New Exam / Edit Exam form. */
export const ExamsTab = () => {
  const exams = useAdminExams()
  const refresh = useRefreshExams()
  const table = useAdminTable(exams.data ?? [], EXAM_COLUMNS)
  const { editing, openEditor, closeEditor, target, toDelete, setToDelete, toAssign, setToAssign, notice, setNotice, afterDelete } = useAuthoringTab<Exam>({
    deletedNotice: 'Exam deleted.',
    ids: table.view.rows.map((e) => e.id),
  })
  const remove = useDeleteExam(afterDelete)
  const [toAnalyse, setToAnalyse] = useState<Exam | null>(null)

  if (editing.mode !== 'closed') {
    const exam = editing.mode === 'edit' ? editing.item : null
    return (
      <Suspense fallback={<Spinner label="Loading the exam form..." />}>
        <ExamForm
          key={exam?.id ?? 'new'}
          exam={exam}
          onCancel={closeEditor}
          onDone={() => {
            setNotice(exam ? 'Exam updated.' : 'Exam created.')
            closeEditor()
            void refresh()
          }}
        />
      </Suspense>
    )
  }

  return (
    <div className="pk-stack">
      <AuthoringHeader
        title="Exams"
        addLabel="Add New Exam"
        addRef={target(ADD_TARGET)}
        onAdd={() => openEditor({ mode: 'add' })}
        notice={notice}
        deleteError={remove.isError && !toDelete ? errorMessage(remove.error, 'Failed to delete exam. Please try again.') : null}
      />
      {exams.isPending ? (
        <Spinner label="Loading exams..." />
      ) : exams.isError ? (
        <Alert>{errorMessage(exams.error, 'Failed to load exams. Please try again later.')}</Alert>
      ) : exams.data.length === 0 ? (
        <EmptyState>No exams yet. Use Add New Exam to create one.</EmptyState>
      ) : (
        <>
          <TableSearch table={table} label="Search exams" placeholder="Search by name" noun={{ one: 'exam', many: 'exams' }} />
          <DataTable>
            <caption className="pk-visually-hidden">Exams</caption>
            <thead>
              <tr>
                <SortHeader table={table} column="name">
                  Name
                </SortHeader>
                <SortHeader table={table} column="type">
                  Type
                </SortHeader>
                <SortHeader table={table} column="time">
                  Time/Pass
                </SortHeader>
                <SortHeader table={table} column="questions">
                  Questions
                </SortHeader>
                <SortHeader table={table} column="assignment">
                  Assignment
                </SortHeader>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {table.view.rows.map((e) => {
                const nameId = `admin-exam-${e.id}-name`
                return (
                  <tr key={e.id}>
                    <th scope="row" id={nameId}>
                      {e.name}
                    </th>
                    <td>{typeText(e)}</td>
                    <td>
                      {e.time_limit} min / {e.pass_score}%
                    </td>
                    <td>
                      {e.total_questions} of {e.questions.length}
                    </td>
                    <td>{assignmentText(e)}</td>
                    <td>
                      <div className="pk-row">
                        <Button ref={target(editTarget(e.id))} size="small" variant="secondary" aria-describedby={nameId} onClick={() => openEditor({ mode: 'edit', item: e })}>
                          Edit
                        </Button>
                        <Button size="small" variant="secondary" aria-describedby={nameId} onClick={() => setToAssign(e)}>
                          Assign
                        </Button>
                        <Button size="small" variant="secondary" aria-describedby={nameId} onClick={() => setToAnalyse(e)}>
                          Item Analysis
                        </Button>
                        <Button
                          ref={target(deleteTarget(e.id))}
                          size="small"
                          variant="danger"
                          aria-describedby={nameId}
                          onClick={() => {
                            remove.reset()
                            setToDelete(e)
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
          <Pager table={table} label="Exams" />
        </>
      )}
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete Exam"
        confirmLabel="Delete"
        busy={remove.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() => toDelete && remove.mutate(toDelete.id)}
      >
        <p className="pk-m0">Are you sure you want to delete {toDelete?.name}? This cannot be undone.</p>
        {remove.isError ? <Alert>{errorMessage(remove.error, 'Failed to delete exam. Please try again.')}</Alert> : null}
      </ConfirmDialog>
      {toAnalyse ? (
        <Suspense fallback={<Spinner label="Loading the item analysis..." />}>
          <ItemAnalysisDialog exam={toAnalyse} onClose={() => setToAnalyse(null)} />
        </Suspense>
      ) : null}
      {toAssign ? (
        <Suspense fallback={<Spinner label="Loading the learner list..." />}>
          <AssignDialog
            title={`Assign Exam: ${toAssign.name}`}
            initialSelected={toAssign.assigned_user_ids}
            assignedToAll={toAssign.is_assigned_to_all}
            what="exam"
            assign={(userIds) => assignExam(toAssign.id, userIds)}
            errorFallback="Failed to assign exam"
            onClose={() => setToAssign(null)}
            onAssigned={() => {
              setToAssign(null)
              setNotice(`Exam assigned.`)
              void refresh()
            }}
          />
        </Suspense>
      ) : null}
    </div>
  )
}
