import { SCORM_EDITOR_MESSAGES as M } from '@portal/contracts'
import type { CaptivateProject } from '@portal/contracts/captivate'
import { Alert, Button, formatFileSize, Modal, Spinner, TextField, ToastProvider, useToast } from '@portal/ui-kit'
import { useEffect, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { createPackageEditor, PackageEditError, type PackageEditor } from './package-worker-client.ts'
import { draftEdits, draftErrors, draftsFrom, type SlideDraft } from './pre-upload-editor.ts'

type Phase = { state: 'analyzing' } | { state: 'failed'; message: string } | { state: 'editing'; project: CaptivateProject }

export interface PreUploadEditorProps {
  file: File
  /** A rewritten package replaces the module's file; `close` after Save & Continue. */
  onSaved: (file: File, message: string, close: boolean) => void
  onCancel: () => void
}

const Editor = ({ file, onSaved, onCancel }: PreUploadEditorProps) => {
  const toast = useToast()
  const editor = useRef<PackageEditor | null>(null)
  const [current, setCurrent] = useState(file)
  const [phase, setPhase] = useState<Phase>({ state: 'analyzing' })
  const [drafts, setDrafts] = useState<SlideDraft[]>([])
  const [showErrors, setShowErrors] = useState(false)
  const [saving, setSaving] = useState<'save' | 'continue' | null>(null)
  const [saveError, setSaveError] = useState<string | null>(null)
  const [saved, setSaved] = useState<string | null>(null)

  useEffect(() => {
    const e = createPackageEditor()
    editor.current = e
    e.analyze(file).then(
      (project) => {
        setPhase({ state: 'editing', project })
        setDrafts(draftsFrom(project))
      },
      (err: unknown) => setPhase({ state: 'failed', message: err instanceof PackageEditError && err.unreadable ? M.unreadable : M.analyzeFileFailed }),
    )
    return () => e.close()
  }, [file])

  const errors = draftErrors(drafts)
  const save = async (close: boolean) => {
    if (phase.state !== 'editing' || !editor.current) return
    setShowErrors(true)
    setSaved(null)
    setSaveError(null)
    if (Object.keys(errors).length > 0) return
    const edits = draftEdits(phase.project, drafts)
    if (edits.length === 0) {
      if (close) onCancel()
      else setSaved(M.saved)
      return
    }
    setSaving(close ? 'continue' : 'save')
    try {
      const out = await editor.current.rewrite(current, edits)
      const next = new File([out.blob], file.name, { type: 'application/zip', lastModified: Date.now() })
      setCurrent(next)
      setPhase({ state: 'editing', project: out.project })
      setDrafts(draftsFrom(out.project))
      setShowErrors(false)
      const message = close ? M.edited : M.saved
      if (!close) setSaved(message)
      onSaved(next, message, close)
    } catch {
      setSaveError(M.saveFailed)
      toast.error(M.saveFailedToast)
    } finally {
      setSaving(null)
    }
  }

  return (
    <div className="pk-stack">
      <p className="pk-m0" aria-label="File">
        <strong>{file.name}</strong> · {formatFileSize(current.size)}
      </p>
      {phase.state === 'analyzing' ? (
        <Spinner label="Analyzing SCORM package..." />
      ) : phase.state === 'failed' ? (
        <>
          <Alert>{phase.message}</Alert>
          <div className="pk-row">
            <Button variant="secondary" onClick={onCancel}>
              Cancel
            </Button>
          </div>
        </>
      ) : (
        // Not a form: the editor opens from inside the course form, whose submit it must never trigger.
        <div className="pk-stack" role="group" aria-label="Video slides">
          {drafts.length === 0 ? (
            <p className="pk-muted pk-m0">This package has no video slides.</p>
          ) : (
            <ol className="pk-stack pk-list-none pk-m0 pk-p0 pk-gap-l">
              {drafts.map((d, i) => (
                <li key={d.id} className="pk-stack pk-border pk-rounded pk-pad-s pk-gap-m">
                  <div className="pk-row pk-between">
                    <strong>Slide {i + 1}</strong>
                    {d.likelyProblem ? <span className="pk-badge">{M.likelyProblem}</span> : null}
                  </div>
                  <div className="pk-row pk-items-start">
                    <div className="pk-flex-2 pk-min-w200">
                      <TextField
                        label={`Slide ${i + 1} name`}
                        value={d.name}
                        error={showErrors && errors[d.id] && !d.name.trim() ? errors[d.id] : null}
                        onChange={(e) => setDrafts((all) => all.map((x) => (x.id === d.id ? { ...x, name: e.target.value } : x)))}
                      />
                    </div>
                    <div className="pk-flex-1 pk-min-w140">
                      <TextField
                        label={`Slide ${i + 1} duration`}
                        hint="HH:MM:SS"
                        value={d.duration}
                        error={showErrors && errors[d.id] && d.name.trim() ? errors[d.id] : null}
                        onChange={(e) => setDrafts((all) => all.map((x) => (x.id === d.id ? { ...x, duration: e.target.value } : x)))}
                      />
                    </div>
                  </div>
                </li>
              ))}
            </ol>
          )}
          {saveError ? <Alert>{saveError}</Alert> : null}
          {saved ? <Alert tone="success">{saved}</Alert> : null}
          <div className="pk-row">
            <Button disabled={saving !== null} onClick={() => void save(false)}>
              {saving === 'save' ? 'Saving...' : 'Save Changes'}
            </Button>
            <Button disabled={saving !== null} onClick={() => void save(true)}>
              {saving === 'continue' ? 'Saving...' : 'Save & Continue'}
            </Button>
            <Button
              variant="secondary"
              disabled={saving !== null}
              onClick={() => {
                setDrafts(draftsFrom(phase.project))
                setShowErrors(false)
                setSaved(null)
                setSaveError(null)
              }}
            >
              Reset
            </Button>
            <Button variant="secondary" disabled={saving !== null} onClick={onCancel}>
              Cancel
            </Button>
          </div>
        </div>
      )}
    </div>
  )
}

/**
 * SCORM pre-upload editor (admin §2): opens a zip module before upload, lists its video slides
 * and rewrites their names and durations inside the archive (in a worker); the server receives an
 * ordinary upload.
 */
export const ScormPreUploadEditor = (props: PreUploadEditorProps) =>
  // Outside the course form's element: Enter in a field here must not submit the upload.
  createPortal(
    <Modal open title="Edit SCORM Package" onClose={props.onCancel}>
      {/* Toasts inside the dialog: the page behind a modal dialog is inert. */}
      <ToastProvider>
        <Editor {...props} />
      </ToastProvider>
    </Modal>,
    document.body,
  )
