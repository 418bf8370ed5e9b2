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
        className="pk-flex-1 pk-h-8 pk-rounded-full pk-bg-border pk-clip"
      >
        <div style={{ width: `${v}%`, height: '100%', background: v >= 100 ? 'var(--c-success)' : 'var(--c-primary)' }} />
      </div>
      {showText ? (
        <span aria-hidden="true" className="pk-fs-13 pk-fw-semibold pk-min-w44 pk-text-right">
          {v}%
        </span>
      ) : null}
    </div>
  )
}
