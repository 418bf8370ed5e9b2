import type { Course } from '@portal/contracts'
import { Alert, Button, ConfirmDialog, DataTable, EmptyState, errorMessage, Spinner } from '@portal/ui-kit'
import { AssignDialog } from '../assign/index.ts'
import { ADD_TARGET, AuthoringHeader, deleteTarget, editTarget, useAuthoringTab } from '../authoring/index.ts'
import { assignCourse } from './api.ts'
import { COURSE_ERRORS, moduleTypeLabel } from './course-form.ts'
import { CourseForm } from './CourseForm.tsx'
import { useCoursesTabList, useDeleteCourse, useRefreshCourses, useShowSavedCourse } from './data/apiHooks.ts'
import { Pager, SortHeader, TableSearch, useAdminTable } from '../table/index.ts'
import { COURSE_COLUMNS, anyProcessing, courseAssignmentText, modulesSummary, processingText, scormBadge, scormEditOffer, sortedModules } from './course-table.ts'
import { useState } from 'react'
import type { CourseModule } from '@portal/contracts'
import { ScormTimingEditor } from './scorm-editor/ScormTimingEditor.tsx'

const ModulesCell = ({ course, onEditScorm }: { course: Course; onEditScorm: (m: CourseModule) => void }) => (
  <div className="pk-stack pk-gap-xs">
    <span>{modulesSummary(course)}</span>
    {course.modules.length > 0 ? (
      <ol className="pk-m0 pk-pl-list pk-fs-14">
        {sortedModules(course.modules).map((m) => {
          const badge = scormBadge(m) ?? moduleTypeLabel({ fileName: m.file_path, isScorm: m.is_scorm })
          const state = processingText(m)
          const edit = scormEditOffer(m)
          return (
            <li key={m.id}>
              {m.title}
              {badge ? <span className="pk-badge">{badge}</span> : null}
              {edit?.offer ? (
                <Button size="small" variant="link" aria-label={`Edit SCORM module ${m.title}`} onClick={() => onEditScorm(m)}>
                  Edit SCORM
                </Button>
              ) : null}
              {edit && !edit.offer ? <span className="pk-muted pk-block">{edit.reason}</span> : null}
              {state ? (
                <span
                  className={m.processing_status === 'failed' ? undefined : 'pk-muted'}
                  style={{ display: 'block', color: m.processing_status === 'failed' ? 'var(--c-danger)' : undefined }}
                >
                  {state}
                </span>
              ) : null}
            </li>
          )
        })}
      </ol>
    ) : null}
  </div>
)

/** Courses tab: list with edit, delete (confirmed) and assign; Upload New Course / Edit Course form. */
export const CoursesTab = () => {
  // A package being processed turns ready (or failed) by itself: the list polls until none is left.
  const courses = useCoursesTabList()
  const refresh = useRefreshCourses()
  const showSaved = useShowSavedCourse()
  const table = useAdminTable(courses.data ?? [], COURSE_COLUMNS)
  const [scormModule, setScormModule] = useState<CourseModule | null>(null)
  const { editing, openEditor, closeEditor, target, toDelete, setToDelete, toAssign, setToAssign, notice, setNotice, afterDelete } = useAuthoringTab<Course>({
    deletedNotice: 'Course deleted.',
    ids: table.view.rows.map((c) => c.id),
  })
  const remove = useDeleteCourse(afterDelete)

  if (editing.mode !== 'closed') {
    const course = editing.mode === 'edit' ? editing.item : null
    return (
      <CourseForm
        key={course?.id ?? 'new'}
        course={course}
        onCancel={closeEditor}
        onDone={(saved) => {
          const done = course ? 'Course updated.' : 'Course created.'
          setNotice(anyProcessing([saved]) ? `${done} SCORM packages are being processed; their state shows below.` : done)
          closeEditor()
          void showSaved(saved, course !== null)
        }}
      />
    )
  }

  return (
    <div className="pk-stack">
      <AuthoringHeader
        title="Courses"
        addLabel="Upload New Course"
        addRef={target(ADD_TARGET)}
        onAdd={() => openEditor({ mode: 'add' })}
        notice={notice}
        deleteError={remove.isError && !toDelete ? errorMessage(remove.error, COURSE_ERRORS.delete) : null}
      />
      {courses.isPending ? (
        <Spinner label="Loading courses..." />
      ) : courses.isError ? (
        <Alert>{errorMessage(courses.error, COURSE_ERRORS.load)}</Alert>
      ) : courses.data.length === 0 ? (
        <EmptyState>No courses yet. Use Upload New Course to create one.</EmptyState>
      ) : (
        <>
          <TableSearch table={table} label="Search courses" placeholder="Search by title" noun={{ one: 'course', many: 'courses' }} />
          <DataTable>
            <caption className="pk-visually-hidden">Courses</caption>
            <thead>
              <tr>
                <SortHeader table={table} column="title">
                  Title
                </SortHeader>
                <SortHeader table={table} column="modules">
                  Modules
                </SortHeader>
                <SortHeader table={table} column="assignment">
                  Assignment
                </SortHeader>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {table.view.rows.map((c) => {
                const titleId = `admin-course-${c.id}-title`
                return (
                  <tr key={c.id}>
                    <th scope="row" id={titleId}>
                      {c.title}
                    </th>
                    <td>
                      <ModulesCell course={c} onEditScorm={setScormModule} />
                    </td>
                    <td>{courseAssignmentText(c)}</td>
                    <td>
                      <div className="pk-row">
                        <Button ref={target(editTarget(c.id))} size="small" variant="secondary" aria-describedby={titleId} onClick={() => openEditor({ mode: 'edit', item: c })}>
                          Edit
                        </Button>
                        <Button size="small" variant="secondary" aria-describedby={titleId} onClick={() => setToAssign(c)}>
                          Assign
                        </Button>
                        <Button
                          ref={target(deleteTarget(c.id))}
                          size="small"
                          variant="danger"
                          aria-describedby={titleId}
                          onClick={() => {
                            remove.reset()
                            setToDelete(c)
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
          <Pager table={table} label="Courses" />
        </>
      )}
      {courses.isSuccess && anyProcessing(courses.data) ? (
        <p className="pk-muted pk-m0" role="status">
          Some SCORM packages are still being processed. This list updates by itself.
        </p>
      ) : null}
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete Course"
        confirmLabel="Delete"
        busy={remove.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() => toDelete && remove.mutate(toDelete.id)}
      >
        <p className="pk-m0">Are you sure you want to delete {toDelete?.title}? This cannot be undone.</p>
        {remove.isError ? <Alert>{errorMessage(remove.error, COURSE_ERRORS.delete)}</Alert> : null}
      </ConfirmDialog>
      {scormModule ? <ScormTimingEditor module={scormModule} onClose={() => setScormModule(null)} /> : null}
      {toAssign ? (
        <AssignDialog
          title={`Assign Course: ${toAssign.title}`}
          initialSelected={toAssign.assigned_user_ids}
          assignedToAll={toAssign.is_assigned_to_all}
          what="course"
          assign={(userIds) => assignCourse(toAssign.id, userIds)}
          errorFallback={COURSE_ERRORS.assign}
          onClose={() => setToAssign(null)}
          onAssigned={() => {
            setToAssign(null)
            setNotice('Course assigned.')
            void refresh()
          }}
        />
      ) : null}
    </div>
  )
}
