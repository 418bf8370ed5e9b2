import { CERT_MESSAGES, CERT_UPLOAD, type UserCertification } from '@portal/contracts'
import { Alert, ApiError, Button, errorMessage, focusFirstInvalid, Modal, TextField, UploadProgress } from '@portal/ui-kit'
import { useId, useRef, useState, type FormEvent } from 'react'
import { formatSize } from '../shared/index.ts'
import { buildReplaceForm, buildUploadForm, checkProofFile, explainExpiration, type FieldErrors, type UploadForm } from './certification-forms.ts'
import { ExpirationPreview } from './ExpirationPreview.tsx'
import { useUploadProof } from './data/uploadHooks.ts'

/** Whether a new obtained date renews the period while the expiration field still shows the one on record. */
export const clearsRecordedExpiration = (cert: UserCertification, obtained: string, expiration: string): boolean =>
  cert.certification.validity_period !== null &&
  cert.obtained_date !== null &&
  /^\d{4}-\d{2}-\d{2}$/.test(obtained) &&
  obtained > cert.obtained_date &&
  expiration !== '' &&
  expiration === (cert.expiration_date ?? '')

const formOf = (cert: UserCertification): UploadForm => ({
  file: null,
  obtained_date: cert.obtained_date ?? '',
  expiration_date: cert.expiration_date ?? '',
  notes: cert.notes ?? '',
})

export const UPLOAD_CANCELLED = 'The upload was cancelled; nothing was changed.'

/**
 * Upload the proof of a held certification with its obtained date (learner §5), saying the
 * expiration the server will store and why (issue 23), or replace the proof alone; a progress bar
 * and Cancel while it goes up.
 */
export const UploadProofDialog = ({
  cert,
  userId,
  forOther,
  onUploaded,
  onClose,
}: {
  cert: UserCertification | null
  userId: string
  forOther: boolean
  onUploaded: (cert: UserCertification, replaced: boolean) => void
  onClose: () => void
}) => {
  const open = cert !== null
  return (
    <Modal open={open} title={cert ? `${cert.file_name ? 'Replace' : 'Upload'} Proof: ${cert.certification.name}` : ''} onClose={onClose}>
      {cert ? <UploadForm key={cert.id} cert={cert} userId={userId} forOther={forOther} onUploaded={onUploaded} onClose={onClose} /> : null}
    </Modal>
  )
}

const UploadForm = ({
  cert,
  userId,
  forOther,
  onUploaded,
  onClose,
}: {
  cert: UserCertification
  userId: string
  forOther: boolean
  onUploaded: (cert: UserCertification, replaced: boolean) => void
  onClose: () => void
}) => {
  const [form, setForm] = useState<UploadForm>(() => formOf(cert))
  const [errors, setErrors] = useState<FieldErrors<keyof UploadForm>>({})
  const [progress, setProgress] = useState<{ loaded: number; total: number } | null>(null)
  const abort = useRef<AbortController | null>(null)
  const formRef = useRef<HTMLFormElement>(null)
  const submitRef = useRef<HTMLButtonElement>(null)
  const replacing = cert.file_name !== null
  const previewId = useId()
  const preview = explainExpiration({
    obtained: form.obtained_date,
    entered: form.expiration_date,
    validityMonths: cert.certification.validity_period,
    held: cert,
    obtainedRequired: true,
  })
  const upload = useUploadProof(
    cert,
    () => {
      abort.current = new AbortController()
      setProgress({ loaded: 0, total: 0 })
      return { signal: abort.current.signal, onProgress: (loaded: number, total: number) => setProgress({ loaded, total }) }
    },
    {
      onSettled: () => setProgress(null),
      // Cancel Upload goes with the upload: focus returns to the button it stood in for.
      onError: () => setTimeout(() => submitRef.current?.focus(), 0),
      onSuccess: (answer) => onUploaded(answer.certification, replacing),
    },
  )
  const set = <K extends keyof UploadForm>(key: K, value: UploadForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }))
    setErrors((e) => ({ ...e, [key]: key === 'file' ? (checkProofFile(value as File | null) ?? undefined) : undefined }))
  }
  /**
   * A later obtained date starts a new period: the expiration on record, still as it was filled in,
   * is cleared so the server counts the new one (a renewal kept the old expiry before).
   */
  const setObtained = (value: string) => {
    setForm((f) => ({ ...f, obtained_date: value, expiration_date: clearsRecordedExpiration(cert, value, f.expiration_date) ? '' : f.expiration_date }))
    setErrors((e) => ({ ...e, obtained_date: undefined }))
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (upload.isPending) return
    const built = replacing ? buildReplaceForm(form.file) : buildUploadForm(cert.certification_id, form, forOther ? userId : undefined)
    if ('errors' in built) {
      setErrors(built.errors)
      queueMicrotask(() => focusFirstInvalid(formRef.current))
      return
    }
    upload.mutate(built.form)
  }
  const uploading = upload.isPending
  const failure =
    upload.error instanceof ApiError && upload.error.code === 'aborted' ? UPLOAD_CANCELLED : upload.isError ? errorMessage(upload.error, CERT_MESSAGES.uploadFailed) : null
  return (
    <form ref={formRef} className="pk-stack" onSubmit={submit} noValidate>
      {replacing ? <p className="pk-muted pk-m0">The current proof, {cert.file_name}, is replaced by the new file. The certification's dates stay as they are.</p> : null}
      <fieldset disabled={uploading} className="pk-stack pk-border-0 pk-p0 pk-m0">
        <TextField
          label="Proof File"
          type="file"
          accept={CERT_UPLOAD.accept}
          onChange={(e) => set('file', e.target.files?.[0] ?? null)}
          error={errors.file}
          hint={form.file && !errors.file ? `${form.file.name}, ${formatSize(form.file.size)}` : 'PDF, JPEG or PNG, at most 10 MB.'}
          required
        />
        {replacing ? null : (
          <>
            <TextField
              label="Obtained Date"
              type="date"
              value={form.obtained_date}
              onChange={(e) => setObtained(e.target.value)}
              error={errors.obtained_date}
              aria-describedby={previewId}
              required
            />
            <TextField
              label="Expiration Date"
              type="date"
              value={form.expiration_date}
              onChange={(e) => set('expiration_date', e.target.value)}
              error={errors.expiration_date}
              hint={cert.certification.validity_period === null ? 'Optional.' : 'Optional: leave it empty to count from the obtained date.'}
              aria-describedby={previewId}
            />
            <ExpirationPreview id={previewId} text={preview} />
            <TextField label="Notes" value={form.notes} onChange={(e) => set('notes', e.target.value)} error={errors.notes} hint="Optional." />
          </>
        )}
      </fieldset>
      {progress ? <UploadProgress loaded={progress.loaded} total={progress.total} doneText="Upload complete. Checking the file…" /> : null}
      {failure ? <Alert>{failure}</Alert> : null}
      <div className="pk-row pk-justify-end">
        {uploading ? (
          // Takes the place (and the focus) of Upload, which the disabled fieldset would not drop but the swap would.
          <Button variant="danger" autoFocus onClick={() => abort.current?.abort()}>
            Cancel Upload
          </Button>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button ref={submitRef} type="submit">
              {replacing ? 'Replace Proof' : 'Upload Proof'}
            </Button>
          </>
        )}
      </div>
    </form>
  )
}
