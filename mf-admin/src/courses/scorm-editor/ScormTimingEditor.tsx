import { SCORM_EDITOR_MESSAGES as M, type CourseModule } from '@portal/contracts'
import { isLikelyProblemSlide } from '@portal/contracts/captivate'
import { Alert, ApiError, Button, DataTable, errorMessage, focusFirstInvalid, formatDateTime, Modal, Select, Spinner, TextField } from '@portal/ui-kit'
import { useId, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { useEditTiming, useRestoreBackup, useScormAnalysis, useScormBackups, useVerifyModule } from './data/apiHooks.ts'
import { canSave, isNameOnly, slideLabel, successMessage, timingProblem, type TimingForm } from './timing-editor.ts'

/**
 * SCORM Timing Editor (admin §2, §4, §5, §8) of a stored module: status, slide selection, new
 * duration, optional new name and replacement video, backups with restore, storage file
 * verification and debug info.
 */
export const ScormTimingEditor = ({ module, onClose }: { module: Pick<CourseModule, 'id' | 'title'>; onClose: () => void }) => {
  const analysis = useScormAnalysis(module.id)
  const backups = useScormBackups(module.id)
  const [form, setForm] = useState<TimingForm>({ slideId: '', duration: '', name: '' })
  const [videoFile, setVideoFile] = useState<File | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  // The slide's problems (none chosen, no video to retime) mark the slide; the others the duration.
  const problemOnSlide = problem === M.selectSlide || problem === M.noVideo
  const formRef = useRef<HTMLFormElement>(null)
  const [success, setSuccess] = useState<string | null>(null)
  const videoId = useId()
  const slides = analysis.data?.analysis.videoSlides ?? []
  const frameRate = analysis.data?.analysis.frameRate ?? 30
  const slide = slides.find((s) => s.id === form.slideId)

  const save = useEditTiming((r) => {
    setSuccess(successMessage(r))
    setForm((f) => ({ ...f, duration: '', name: '' }))
    setVideoFile(null)
  })
  const restore = useRestoreBackup(module.id, (r) => setSuccess(M.restored(r.restoredFrom.backup_name)))
  const verify = useVerifyModule(module.id)

  const submit = () => {
    setSuccess(null)
    save.reset()
    restore.reset()
    const why = timingProblem(form, slide, videoFile !== null)
    setProblem(why)
    // After the mark has rendered, focus goes to the field in error (its message is read).
    if (why) requestAnimationFrame(() => focusFirstInvalid(formRef.current))
    if (!why)
      save.mutate({
        moduleId: module.id,
        slideId: form.slideId,
        ...(form.name.trim() && { slideName: form.name.trim() }),
        ...(form.duration.trim() && { duration: form.duration.trim() }),
        videoFile,
      })
  }
  const saveFailed = save.isError ? errorMessage(save.error, isNameOnly(form, videoFile !== null) ? M.renameFailed : M.timingFailed) : null

  // Not a Captivate project: nothing to edit, backup or verify; say why, with Close where a dialog ends.
  if (analysis.isError && analysis.error instanceof ApiError && analysis.error.code === 'project_unreadable')
    return createPortal(
      <Modal open title={`SCORM Timing Editor: ${module.title}`} onClose={onClose}>
        <p className="pk-m0">{M.notCaptivateModule}</p>
        <div className="pk-row pk-justify-end">
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
        </div>
      </Modal>,
      document.body,
    )

  // In document.body: from the Edit Course form it must not sit inside that form's element.
  return createPortal(
    <Modal open title={`SCORM Timing Editor: ${module.title}`} onClose={onClose}>
      <section aria-labelledby={`${videoId}-status`} className="pk-stack pk-gap-m">
        <h3 id={`${videoId}-status`} className="pk-m0">
          Status
        </h3>
        {analysis.isPending ? (
          <Spinner label="Analyzing SCORM module..." />
        ) : analysis.isError ? (
          <Alert>{errorMessage(analysis.error, M.analyzeModuleFailed)}</Alert>
        ) : (
          <p role="status" className="pk-m0">
            {slides.length} video slide{slides.length === 1 ? '' : 's'} at {frameRate} fps
            {analysis.data.analysis.referencedVideo ? <> · referenced video {analysis.data.analysis.referencedVideo}</> : null}
          </p>
        )}
      </section>

      {analysis.isSuccess ? (
        <form
          ref={formRef}
          className="pk-stack"
          aria-label="Edit slide timing"
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            // Opened from the Edit Course form too: its submit must not reach that form.
            e.stopPropagation()
            if (canSave(form) && !save.isPending) submit()
          }}
        >
          <Select
            error={problemOnSlide ? problem : null}
            label="Slide"
            placeholder="Select a slide"
            value={form.slideId}
            options={slides.map((s) => ({ value: s.id, label: slideLabel(s, frameRate) }))}
            onChange={(e) => setForm((f) => ({ ...f, slideId: e.target.value }))}
          />
          {slide ? (
            <p className="pk-muted pk-m0">
              Current duration {slide.durationFormatted} ({slide.durationInFrames} frames){slide.video ? ` · video ${slide.video}` : ''}
              {isLikelyProblemSlide(slide, frameRate) ? <span className="pk-badge">{M.likelyProblem}</span> : null}
            </p>
          ) : null}
          <TextField
            error={problem && !problemOnSlide ? problem : null}
            label="New Duration"
            hint="MM:SS or HH:MM:SS"
            value={form.duration}
            placeholder="MM:SS"
            onChange={(e) => setForm((f) => ({ ...f, duration: e.target.value }))}
          />
          <TextField label="New Slide Name (optional)" value={form.name} onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))} />
          <div className="pk-field">
            <label htmlFor={videoId}>Replacement Video (optional)</label>
            <input id={videoId} type="file" accept=".mp4,.webm" onChange={(e) => setVideoFile(e.target.files?.[0] ?? null)} />
          </div>
          {saveFailed ? <Alert>{saveFailed}</Alert> : null}
          {success ? <Alert tone="success">{success}</Alert> : null}
          <div className="pk-row">
            <Button type="submit" disabled={!canSave(form) || save.isPending}>
              {save.isPending ? 'Saving...' : 'Save Changes'}
            </Button>
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
          </div>
        </form>
      ) : (
        <div className="pk-row">
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
        </div>
      )}

      <section aria-labelledby={`${videoId}-backups`} className="pk-stack pk-gap-m">
        <h3 id={`${videoId}-backups`} className="pk-m0">
          Backups
        </h3>
        {restore.isError ? <Alert>{errorMessage(restore.error, M.restoreFailed)}</Alert> : null}
        {backups.isPending ? (
          <Spinner label="Loading backups..." />
        ) : backups.isError ? (
          <Alert>{errorMessage(backups.error, M.analyzeModuleFailed)}</Alert>
        ) : backups.data.backups.length === 0 ? (
          <p className="pk-muted pk-m0">No backups yet. Every change makes one first.</p>
        ) : (
          <DataTable>
            <caption className="pk-visually-hidden">Backups</caption>
            <thead>
              <tr>
                <th scope="col">Backup</th>
                <th scope="col">Created</th>
                <th scope="col">By</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {backups.data.backups.map((b) => (
                <tr key={b.id}>
                  <td>{b.backup_name}</td>
                  <td>{formatDateTime(b.created_at)}</td>
                  <td>{b.creator?.username ?? '—'}</td>
                  <td>
                    <Button
                      size="small"
                      variant="secondary"
                      aria-label={`Restore ${b.backup_name}`}
                      disabled={restore.isPending}
                      onClick={() => {
                        setSuccess(null)
                        restore.mutate(b.id)
                      }}
                    >
                      Restore
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        )}
      </section>

      <section aria-labelledby={`${videoId}-verify`} className="pk-stack pk-gap-m">
        <h3 id={`${videoId}-verify`} className="pk-m0">
          Storage Files
        </h3>
        <div className="pk-row">
          <Button variant="secondary" size="small" disabled={verify.isPending} onClick={() => verify.mutate()}>
            Verify Storage Files
          </Button>
        </div>
        {verify.isError ? <Alert>{errorMessage(verify.error, M.analyzeModuleFailed)}</Alert> : null}
        {verify.data ? (
          <ul className="pk-m0 pk-pl-list" aria-label="Verification">
            {(['projectTxt', 'projectJs'] as const).map((k) => {
              const f = verify.data.files[k]
              return (
                <li key={k}>
                  {f.path ?? k}: {f.exists ? `${f.size} bytes` : 'missing'}, {f.parses ? 'reads as project data' : 'does not read as project data'}
                  {f.edited ? ', edited' : ''}
                </li>
              )
            })}
            {verify.data.error ? <li>{verify.data.error}</li> : null}
          </ul>
        ) : null}
        <details>
          <summary>Debug Info</summary>
          <pre className="pk-pre-wrap pk-fs-12 pk-max-h256 pk-scroll">
            {JSON.stringify({ moduleId: module.id, analysis: analysis.data?.analysis ?? null, verification: verify.data ?? null }, null, 2)}
          </pre>
        </details>
      </section>
    </Modal>,
    document.body,
  )
}
