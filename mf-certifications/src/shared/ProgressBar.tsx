/** A labelled progress bar; its value is also given as text by the caller. */
export const ProgressBar = ({ percent, label }: { percent: number; label: string }) => {
  const value = Math.max(0, Math.min(100, Math.round(percent)))
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      aria-valuetext={`${value}%`}
      className={value >= 100 ? 'ct-bar ct-bar--done' : 'ct-bar'}
    >
      <span style={{ width: `${value}%` }} />
    </div>
  )
}
