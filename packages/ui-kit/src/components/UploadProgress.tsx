import { uploadPercent } from '../upload.ts'

/**
 * The progress bar of a running upload, with its percent as text; announced in steps of 10%, not
 * on every progress event. `doneText` says what happens once every byte is sent.
 */
export const UploadProgress = ({ loaded, total, doneText = 'Upload complete. Processing on the server…' }: { loaded: number; total: number; doneText?: string }) => {
  const percent = uploadPercent(loaded, total)
  const text = percent === null ? 'Uploading…' : percent >= 100 ? doneText : `Uploading… ${percent}%`
  return (
    <div className="pk-stack pk-gap-s">
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
      <span role="status" className="pk-visually-hidden">
        {percent === null || percent >= 100 ? text : `Uploading… ${Math.floor(percent / 10) * 10}%`}
      </span>
    </div>
  )
}
