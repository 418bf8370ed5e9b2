import { percent } from './course-view.ts'

/** A labelled progress bar (role=progressbar with aria-valuenow), optionally with its percent as text. */
export const ProgressBar = ({ value, label, showText = false }: { value: number; label: string; showText?: boolean }) => {
  const v = percent(value)
  return (
    <div className="pk-row pk-gap-m pk-nowrap">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={v}
        aria-valuetext={`${v}%`}
        style={{ flex: 1, height: 8, borderRadius: 999, background: 'var(--c-border)', overflow: 'hidden' }}
      >
        <div style={{ width: `${v}%`, height: '100%', background: v >= 100 ? 'var(--c-success)' : 'var(--c-primary)' }} />
      </div>
      {showText ? (
        <span aria-hidden="true" style={{ fontSize: '.8125rem', fontWeight: 600, minWidth: '2.75rem', textAlign: 'right' }}>
          {v}%
        </span>
      ) : null}
    </div>
  )
}
