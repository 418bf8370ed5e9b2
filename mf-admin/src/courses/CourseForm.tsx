import { SCORM_EDITOR_MESSAGES as M, type Course } from '@portal/contracts'
import {
  Alert,
  Button,
  ConfirmDialog,
  focusFirstInvalid,
  formatFileSize,
  LiveRegion,
  TextField,
  UploadProgress,
  useAnnouncement,
  useFocusTargets,
  type FocusTargets,
} from '@portal/ui-kit'
import { useId, useReducer, useRef, useState } from 'react'
import {
  ACCEPT,
  addedMessage,
  afterMove,
  afterRemove,
  afterUndo,
  buildCreateForm,
  buildUpdateForm,
  canMove,
  courseFormReducer,
  emptyCourseForm,
  FOCUS,
  formFromCourse,
  moduleTypeLabel,
  uploadErrorText,
  UPLOAD_CANCELLED,
  validateCourseForm,
  type ModuleRow,
} from './course-form.ts'
import { processingText, scormBadge, scormEditOffer, type ScormEditOffer } from './course-table.ts'
import { useSaveCourse } from './data/apiHooks.ts'
import { cmi5Text } from './cmi5-summary.ts'
import { useCaptivateCheck } from './scorm-editor/captivate-check.ts'
import { ScormPreUploadEditor } from './scorm-editor/ScormPreUploadEditor.tsx'
import { ScormTimingEditor } from './scorm-editor/ScormTimingEditor.tsx'

/** What a module row can ask of the form; the form also moves focus and says what happened. */
interface ModuleRowActions {
  rename: (row: ModuleRow, title: string) => void
  move: (row: ModuleRow, direction: 'up' | 'down') => void
  /** Remove a new row; ask to delete a stored one. */
  remove: (row: ModuleRow) => void
  undo: (row: ModuleRow) => void
  /** Open a new SCORM package in the pre-upload editor, a stored one in the timing editor. */
  editScorm: (row: ModuleRow) => void
  target: FocusTargets['target']
}

const ModuleRowEditor = ({ row, rows, error, actions }: { row: ModuleRow; rows: readonly ModuleRow[]; error: string | undefined; actions: ModuleRowActions }) => {
  const name = `Module ${row.order}`
  const headingId = useId()
  // A package chosen for upload offers Edit SCORM only once the analysis finds a Captivate project in it.
  const check = useCaptivateCheck(row.kind === 'new' && row.isScorm && !row.markedForDeletion ? (row.file ?? null) : null)
  const newScorm = row.kind === 'new' && row.isScorm && row.file !== undefined
  // A new package: as the browser's analysis finds it; a stored one: as the server's check found it.
  // A cmi5 course (issue 26) offers nothing to edit: the form says what it holds instead.
  const cmi5 = newScorm && check.state === 'cmi5' ? check : null
  const editOffer: ScormEditOffer | null = newScorm
    ? check.state === 'project'
      ? { offer: true }
      : check.state === 'cmi5'
        ? null
        : { offer: false, reason: check.state === 'checking' ? M.checkingProject : check.reason }
    : row.kind === 'existing' && row.stored
      ? scormEditOffer({ is_scorm: row.isScorm, ...row.stored })
      : null
  const badge = row.stored ? scormBadge({ is_scorm: row.isScorm, ...row.stored }) : cmi5 ? 'cmi5' : null
  const processing = row.stored ? processingText(row.stored) : null
  const meta = (
    <span className="pk-muted pk-fs-14">
      <span className="pk-badge pk-ml0">{badge ?? moduleTypeLabel(row)}</span>
      {row.kind === 'new' ? <span className="pk-badge">New</span> : null}
      {row.preEdited ? <span className="pk-badge">Pre-edited</span> : null} {row.fileName} · {formatFileSize(row.size)}
      {processing ? <> · {processing}</> : null}
    </span>
  )
  if (row.markedForDeletion) {
    return (
      <li className="pk-row pk-between pk-border-dashed pk-rounded pk-pad-s">
        <span>
          <s>{row.title || row.fileName}</s> <span className="pk-muted">(will be deleted when you update the course)</span>
        </span>
        <Button
          ref={actions.target(FOCUS.undo(row.key))}
          size="small"
          variant="secondary"
          aria-label={`Undo delete ${row.title || row.fileName}`}
          onClick={() => actions.undo(row)}
        >
          Undo
        </Button>
      </li>
    )
  }
  return (
    <li className="pk-stack pk-border pk-rounded pk-pad-s pk-gap-m" aria-labelledby={headingId}>
      <div className="pk-row pk-between">
        <strong id={headingId}>{name}</strong>
        {meta}
      </div>
      <div className="pk-row pk-items-start">
        <div className="pk-flex-1 pk-min-w220">
          <TextField label={`${name} title`} value={row.title} error={error} onChange={(e) => actions.rename(row, e.target.value)} />
        </div>
        <div className="pk-row pk-below-label-sm pk-gap-s">
          {(['up', 'down'] as const).map((direction) => (
            <Button
              key={direction}
              ref={actions.target(FOCUS.move(row.key, direction))}
              size="small"
              variant="secondary"
              aria-label={`Move ${direction} ${name}`}
              disabled={!canMove(rows, row.key, direction)}
              onClick={() => actions.move(row, direction)}
            >
              {direction === 'up' ? 'Move Up' : 'Move Down'}
            </Button>
          ))}
          {editOffer?.offer ? (
            <Button size="small" variant="secondary" aria-label={`Edit SCORM package ${name}`} onClick={() => actions.editScorm(row)}>
              Edit SCORM
            </Button>
          ) : null}
          <Button
            ref={actions.target(FOCUS.remove(row.key))}
            size="small"
            variant="danger"
            aria-label={`${row.kind === 'new' ? 'Remove' : 'Delete'} ${name}`}
            onClick={() => actions.remove(row)}
          >
            {row.kind === 'new' ? 'Remove' : 'Delete'}
          </Button>
        </div>
      </div>
      {editOffer && !editOffer.offer ? <p className="pk-muted pk-fs-14 pk-m0">{editOffer.reason}</p> : null}
      {cmi5 ? <p className="pk-muted pk-fs-14 pk-m0">{cmi5Text(cmi5)}</p> : null}
    </li>
  )
}

/** Upload New Course / Edit Course (admin §2, §4, §5): uploads with progress and Cancel Upload. */
export const CourseForm = ({ course, onDone, onCancel }: { course: Course | null; onDone: (saved: Course) => void; onCancel: () => void }) => {
  const [state, dispatch] = useReducer(courseFormReducer, course, (c) => (c ? formFromCourse(c) : emptyCourseForm()))
  const [progress, setProgress] = useState<{ loaded: number; total: number } | null>(null)
  const [toDelete, setToDelete] = useState<ModuleRow | null>(null)
  const [preEditing, setPreEditing] = useState<{ key: number; file: File } | null>(null)
  const [timingModule, setTimingModule] = useState<{ id: number; title: string } | null>(null)
  const [scormNotice, setScormNotice] = useState<string | null>(null)
  const [announcement, announce] = useAnnouncement()
  const { target, focusLater } = useFocusTargets()
  const abortRef = useRef<AbortController | null>(null)
  const formRef = useRef<HTMLFormElement>(null)
  const errors = validateCourseForm(state)
  const mode = course ? 'update' : 'create'
  const save = useSaveCourse(course, {
    controls: () => {
      const controller = new AbortController()
      abortRef.current = controller
      setProgress({ loaded: 0, total: 0 })
      return { signal: controller.signal, onProgress: (loaded: number, total: number) => setProgress({ loaded, total }) }
    },
    form: () => (course ? buildUpdateForm(state) : buildCreateForm(state)),
    onSuccess: onDone,
    // Cancel Upload, which had focus, goes away: focus the message that says what happened.
    onError: () => focusLater(FOCUS.summary),
    onSettled: () => {
      abortRef.current = null
      setProgress(null)
    },
  })
  const uploading = save.isPending
  const submit = () => {
    dispatch({ type: 'submitted' })
    if (validateCourseForm(state, true).count > 0) {
      // The first field in error says what is wrong; else the message area (once the errors show).
      requestAnimationFrame(() => focusFirstInvalid(formRef.current) || focusLater(FOCUS.summary))
      return
    }
    save.mutate()
  }
  const actions: ModuleRowActions = {
    target,
    rename: (row, value) => dispatch({ type: 'moduleTitle', key: row.key, value }),
    move: (row, direction) => {
      const after = afterMove(state.modules, row.key, direction)
      if (!after) return
      dispatch({ type: 'move', key: row.key, direction })
      focusLater(after.focus)
      announce(after.message)
    },
    remove: (row) => (row.kind === 'new' ? removeRow(row) : setToDelete(row)),
    editScorm: (row) => {
      if (row.kind === 'new' && row.file) setPreEditing({ key: row.key, file: row.file })
      else if (row.id !== undefined) setTimingModule({ id: row.id, title: row.title || row.fileName })
    },
    undo: (row) => {
      const after = afterUndo(state.modules, row.key)
      dispatch({ type: 'undoRemove', key: row.key })
      focusLater(after.focus)
      announce(after.message)
    },
  }
  const removeRow = (row: ModuleRow) => {
    const after = afterRemove(state.modules, row.key)
    dispatch({ type: 'remove', key: row.key })
    focusLater(...after.focus)
    announce(after.message)
  }
  const saveError = save.isError ? uploadErrorText(save.error, mode) : null
  const title = course ? 'Edit Course' : 'Upload New Course'
  const active = state.modules.filter((r) => !r.markedForDeletion)
  const filesErrorId = 'course-module-files-error'
  const modulesErrorId = 'course-modules-error'
  return (
    <form
      ref={formRef}
      className="pk-stack"
      aria-labelledby="course-form-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        if (!uploading) submit()
      }}
    >
      <h2 id="course-form-title">{title}</h2>
      <fieldset disabled={uploading} className="pk-stack pk-border-0 pk-p0 pk-m0 pk-min-w0">
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

        <section className="pk-stack pk-gap-l" aria-labelledby="course-modules-title">
          <h3 id="course-modules-title" className="pk-m0">
            Modules ({active.length})
          </h3>
          <div className="pk-field">
            <span id="course-module-files-label" className="pk-fw-semibold pk-fs-14">
              {course ? 'Add Module Files' : 'Module Files'}
            </span>
            {/*
              The native picker stays the control (focusable, Enter or Space opens it, its name is the
              field's); it is drawn as a button like the others by the label that follows it, and lies
              unseen over that label, so a tap anywhere on the button is a tap on the picker.
            */}
            <div className="pk-file-picker">
              <span className="pk-file-picker__control">
                <input
                  ref={target(FOCUS.files)}
                  id="course-module-files"
                  type="file"
                  multiple
                  accept={ACCEPT}
                  aria-labelledby="course-module-files-label"
                  aria-invalid={errors.modules ? true : undefined}
                  aria-describedby={['course-module-files-hint', state.fileErrors.length > 0 ? filesErrorId : null, errors.modules ? modulesErrorId : null]
                    .filter(Boolean)
                    .join(' ')}
                  onChange={(e) => {
                    const files = [...(e.target.files ?? [])]
                    if (files.length > 0) {
                      const message = addedMessage(state, courseFormReducer(state, { type: 'addFiles', files }))
                      dispatch({ type: 'addFiles', files })
                      if (message) announce(message)
                    }
                    // Let the same file be picked again later.
                    e.target.value = ''
                  }}
                />
                <label htmlFor="course-module-files" className="pk-btn pk-btn--secondary" aria-hidden="true">
                  Choose Files…
                </label>
              </span>
              <span className="pk-muted pk-fs-14" aria-hidden="true">
                {state.modules.some((r) => r.kind === 'new') ? `${state.modules.filter((r) => r.kind === 'new').length} new file(s) added below` : 'No files chosen yet'}
              </span>
            </div>
            <span id="course-module-files-hint" className="pk-hint">
              PDF, PowerPoint (pptx), video (mp4, webm), audio (mp3, wav), a SCORM or cmi5 package (zip), or a cmi5.xml whose units are hosted elsewhere. Each file becomes a
              module.
            </span>
          </div>
          {state.fileErrors.length > 0 ? (
            <Alert id={filesErrorId}>
              {state.fileErrors.length === 1 ? (
                state.fileErrors[0]
              ) : (
                <ul className="pk-m0 pk-pl-list">
                  {state.fileErrors.map((m) => (
                    <li key={m}>{m}</li>
                  ))}
                </ul>
              )}
            </Alert>
          ) : null}
          {scormNotice ? <Alert tone="success">{scormNotice}</Alert> : null}
          {state.modules.length === 0 ? (
            <p className="pk-muted pk-m0">No modules yet. Choose files to add modules.</p>
          ) : (
            <ol className="pk-stack pk-list-none pk-m0 pk-p0 pk-gap-m">
              {state.modules.map((row) => (
                <ModuleRowEditor key={row.key} row={row} rows={state.modules} error={errors.moduleTitles[row.key]} actions={actions} />
              ))}
            </ol>
          )}
        </section>
      </fieldset>

      <div ref={target(FOCUS.summary)} tabIndex={-1} className="pk-stack pk-gap-m">
        {errors.modules ? <Alert id={modulesErrorId}>{errors.modules}</Alert> : null}
        {state.submitted && errors.count > 0 && !errors.modules ? <Alert>Please correct the errors above.</Alert> : null}
        {saveError ? saveError === UPLOAD_CANCELLED ? <Alert tone="info">{saveError}</Alert> : <Alert>{saveError}</Alert> : null}
      </div>
      {uploading && progress ? <UploadProgress loaded={progress.loaded} total={progress.total} /> : null}
      <LiveRegion message={announcement} />
      <div className="pk-row">
        {uploading ? (
          // Takes the place (and the focus) of Upload, which the fieldset being disabled would drop.
          <Button variant="danger" autoFocus onClick={() => abortRef.current?.abort()}>
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
      {timingModule ? <ScormTimingEditor module={timingModule} onClose={() => setTimingModule(null)} /> : null}
      {preEditing ? (
        <ScormPreUploadEditor
          file={preEditing.file}
          onCancel={() => setPreEditing(null)}
          onSaved={(file, message, close) => {
            dispatch({ type: 'preEdited', key: preEditing.key, file })
            setScormNotice(message)
            if (close) setPreEditing(null)
          }}
        />
      ) : null}
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete Module"
        confirmLabel="Delete"
        onCancel={() => setToDelete(null)}
        onConfirm={() => {
          if (toDelete) removeRow(toDelete)
          setToDelete(null)
        }}
      >
        <p className="pk-m0">Are you sure you want to delete the module {toDelete?.title || toDelete?.fileName}? It is removed when you update the course.</p>
      </ConfirmDialog>
    </form>
  )
}
