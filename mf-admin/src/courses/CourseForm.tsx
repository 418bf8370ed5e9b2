import type { Course } from '@portal/contracts'
import { Alert, Button, ConfirmDialog, TextField } from '@portal/ui-kit'
import { useMutation } from '@tanstack/react-query'
import { useId, useReducer, useRef, useState, type Dispatch } from 'react'
import { createCourse, updateCourse } from './api.ts'
import {
  ACCEPT,
  buildCreateForm,
  buildUpdateForm,
  canMove,
  courseFormReducer,
  emptyCourseForm,
  formatMb,
  formFromCourse,
  moduleTypeLabel,
  uploadErrorText,
  uploadPercent,
  UPLOAD_CANCELLED,
  validateCourseForm,
  type CourseFormAction,
  type ModuleRow,
} from './course-form.ts'
import { processingText, scormBadge } from './course-table.ts'

/** The progress bar of a running upload, with its percent as text. */
export const UploadProgress = ({ loaded, total }: { loaded: number; total: number }) => {
  const percent = uploadPercent(loaded, total)
  const text =
    percent === null ? 'Uploading…' : percent >= 100 ? 'Upload complete. Processing on the server…' : `Uploading… ${percent}%`
  return (
    <div className="pk-stack" style={{ gap: '.375rem' }}>
      <div
        role="progressbar"
        aria-label="Upload progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={text}
        style={{ height: '.75rem', background: 'var(--c-border)', borderRadius: 999, overflow: 'hidden' }}
      >
        <div style={{ width: `${percent ?? 0}%`, height: '100%', background: 'var(--c-primary)', transition: 'width .2s' }} />
      </div>
      <span className="pk-muted" aria-hidden="true">
        {text}
      </span>
      {/* Announced in steps of 10%, not on every progress event. */}
      <span role="status" className="pk-visually-hidden">
        {percent === null || percent >= 100 ? text : `Uploading… ${Math.floor(percent / 10) * 10}%`}
      </span>
    </div>
  )
}

const ModuleRowEditor = ({
  row,
  rows,
  error,
  dispatch,
  onDeleteExisting,
}: {
  row: ModuleRow
  rows: readonly ModuleRow[]
  error: string | undefined
  dispatch: Dispatch<CourseFormAction>
  onDeleteExisting: (row: ModuleRow) => void
}) => {
  const name = `Module ${row.order}`
  const headingId = useId()
  const badge = row.stored ? scormBadge({ is_scorm: row.isScorm, ...row.stored }) : null
  const processing = row.stored ? processingText(row.stored) : null
  const meta = (
    <span className="pk-muted" style={{ fontSize: '.875rem' }}>
      <span className="pk-badge" style={{ marginLeft: 0 }}>
        {badge ?? moduleTypeLabel(row)}
      </span>
      {row.kind === 'new' ? <span className="pk-badge">New</span> : null} {row.fileName} · {formatMb(row.size)}
      {processing ? <> · {processing}</> : null}
    </span>
  )
  if (row.markedForDeletion) {
    return (
      <li className="pk-row" style={{ justifyContent: 'space-between', border: '1px dashed var(--c-border)', borderRadius: 8, padding: '.75rem 1rem' }}>
        <span>
          <s>{row.title || row.fileName}</s> <span className="pk-muted">(will be deleted when you update the course)</span>
        </span>
        <Button size="small" variant="secondary" aria-label={`Undo delete ${row.title || row.fileName}`} onClick={() => dispatch({ type: 'undoRemove', key: row.key })}>
          Undo
        </Button>
      </li>
    )
  }
  return (
    <li className="pk-stack" aria-labelledby={headingId} style={{ border: '1px solid var(--c-border)', borderRadius: 8, padding: '.75rem 1rem', gap: '.5rem' }}>
      <div className="pk-row" style={{ justifyContent: 'space-between' }}>
        <strong id={headingId}>{name}</strong>
        {meta}
      </div>
      <div className="pk-row" style={{ alignItems: 'flex-start' }}>
        <div style={{ flex: 1, minWidth: 220 }}>
          <TextField
            label={`${name} title`}
            value={row.title}
            error={error}
            onChange={(e) => dispatch({ type: 'moduleTitle', key: row.key, value: e.target.value })}
          />
        </div>
        <div className="pk-row" style={{ marginTop: '1.6rem', gap: '.375rem' }}>
          <Button size="small" variant="secondary" aria-label={`Move up ${name}`} disabled={!canMove(rows, row.key, 'up')} onClick={() => dispatch({ type: 'move', key: row.key, direction: 'up' })}>
            Move Up
          </Button>
          <Button size="small" variant="secondary" aria-label={`Move down ${name}`} disabled={!canMove(rows, row.key, 'down')} onClick={() => dispatch({ type: 'move', key: row.key, direction: 'down' })}>
            Move Down
          </Button>
          {row.kind === 'new' ? (
            <Button size="small" variant="danger" aria-label={`Remove ${name}`} onClick={() => dispatch({ type: 'remove', key: row.key })}>
              Remove
            </Button>
          ) : (
            <Button size="small" variant="danger" aria-label={`Delete ${name}`} onClick={() => onDeleteExisting(row)}>
              Delete
            </Button>
          )}
        </div>
      </div>
    </li>
  )
}

/** Upload New Course / Edit Course (admin §2, §4, §5): uploads with progress and Cancel Upload. */
export const CourseForm = ({ course, onDone, onCancel }: { course: Course | null; onDone: (saved: Course) => void; onCancel: () => void }) => {
  const [state, dispatch] = useReducer(courseFormReducer, course, (c) => (c ? formFromCourse(c) : emptyCourseForm()))
  const [progress, setProgress] = useState<{ loaded: number; total: number } | null>(null)
  const [toDelete, setToDelete] = useState<ModuleRow | null>(null)
  const abortRef = useRef<AbortController | null>(null)
  const summaryRef = useRef<HTMLDivElement>(null)
  const errors = validateCourseForm(state)
  const mode = course ? 'update' : 'create'
  const save = useMutation({
    mutationFn: () => {
      const controller = new AbortController()
      abortRef.current = controller
      setProgress({ loaded: 0, total: 0 })
      const controls = { signal: controller.signal, onProgress: (loaded: number, total: number) => setProgress({ loaded, total }) }
      return course ? updateCourse(course.id, buildUpdateForm(state), controls) : createCourse(buildCreateForm(state), controls)
    },
    onSuccess: onDone,
    onSettled: () => {
      abortRef.current = null
      setProgress(null)
    },
  })
  const uploading = save.isPending
  const submit = () => {
    dispatch({ type: 'submitted' })
    if (validateCourseForm(state, true).count > 0) {
      requestAnimationFrame(() => summaryRef.current?.focus())
      return
    }
    save.mutate()
  }
  const saveError = save.isError ? uploadErrorText(save.error, mode) : null
  const title = course ? 'Edit Course' : 'Upload New Course'
  const active = state.modules.filter((r) => !r.markedForDeletion)
  return (
    <form
      className="pk-stack"
      aria-labelledby="course-form-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        if (!uploading) submit()
      }}
    >
      <h2 id="course-form-title">{title}</h2>
      <fieldset disabled={uploading} className="pk-stack" style={{ border: 'none', padding: 0, margin: 0, minWidth: 0 }}>
        <legend className="pk-visually-hidden">{title}</legend>
        <TextField
          label="Course Title"
          // The form takes the list's place: focus goes into it, not back to <body>.
          autoFocus
          value={state.title}
          error={errors.title}
          onChange={(e) => dispatch({ type: 'title', value: e.target.value })}
        />
        <label className="pk-check">
          <input type="checkbox" checked={state.isAssignedToAll} onChange={(e) => dispatch({ type: 'assignAll', value: e.target.checked })} />
          Assign to all users
        </label>

        <section className="pk-stack" aria-labelledby="course-modules-title" style={{ gap: '.75rem' }}>
          <h3 id="course-modules-title" style={{ margin: 0 }}>
            Modules ({active.length})
          </h3>
          <div className="pk-field">
            <label htmlFor="course-module-files">{course ? 'Add Module Files' : 'Module Files'}</label>
            <input
              id="course-module-files"
              type="file"
              multiple
              accept={ACCEPT}
              aria-describedby="course-module-files-hint"
              onChange={(e) => {
                const files = [...(e.target.files ?? [])]
                if (files.length > 0) dispatch({ type: 'addFiles', files })
                // Let the same file be picked again later.
                e.target.value = ''
              }}
            />
            <span id="course-module-files-hint" className="pk-hint">
              PDF, PowerPoint (pptx), video (mp4, webm), audio (mp3, wav) or a SCORM package (zip). Each file becomes a module.
            </span>
          </div>
          {state.fileErrors.length > 0 ? (
            <Alert>
              {state.fileErrors.length === 1 ? (
                state.fileErrors[0]
              ) : (
                <ul style={{ margin: 0, paddingLeft: '1.25rem' }}>
                  {state.fileErrors.map((m) => (
                    <li key={m}>{m}</li>
                  ))}
                </ul>
              )}
            </Alert>
          ) : null}
          {state.modules.length === 0 ? (
            <p className="pk-muted" style={{ margin: 0 }}>
              No modules yet. Choose files to add modules.
            </p>
          ) : (
            <ol className="pk-stack" style={{ listStyle: 'none', margin: 0, padding: 0, gap: '.5rem' }}>
              {state.modules.map((row) => (
                <ModuleRowEditor
                  key={row.key}
                  row={row}
                  rows={state.modules}
                  error={errors.moduleTitles[row.key]}
                  dispatch={dispatch}
                  onDeleteExisting={setToDelete}
                />
              ))}
            </ol>
          )}
        </section>
      </fieldset>

      <div ref={summaryRef} tabIndex={-1} className="pk-stack" style={{ gap: '.5rem' }}>
        {errors.modules ? <Alert>{errors.modules}</Alert> : null}
        {state.submitted && errors.count > 0 && !errors.modules ? <Alert>Please correct the errors above.</Alert> : null}
        {saveError ? saveError === UPLOAD_CANCELLED ? <Alert tone="info">{saveError}</Alert> : <Alert>{saveError}</Alert> : null}
      </div>
      {uploading && progress ? <UploadProgress loaded={progress.loaded} total={progress.total} /> : null}
      <div className="pk-row">
        {uploading ? (
          <Button variant="danger" onClick={() => abortRef.current?.abort()}>
            Cancel Upload
          </Button>
        ) : (
          <>
            <Button type="submit">{course ? 'Update Course' : 'Upload'}</Button>
            <Button variant="secondary" onClick={onCancel}>
              Cancel
            </Button>
          </>
        )}
      </div>
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete Module"
        confirmLabel="Delete"
        onCancel={() => setToDelete(null)}
        onConfirm={() => {
          if (toDelete) dispatch({ type: 'remove', key: toDelete.key })
          setToDelete(null)
        }}
      >
        <p style={{ margin: 0 }}>
          Are you sure you want to delete the module {toDelete?.title || toDelete?.fileName}? It is removed when you update the course.
        </p>
      </ConfirmDialog>
    </form>
  )
}
