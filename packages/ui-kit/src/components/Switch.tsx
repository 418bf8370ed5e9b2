import type { AriaAttributes } from 'react'

export interface SwitchProps extends Pick<AriaAttributes, 'aria-label' | 'aria-labelledby' | 'aria-describedby'> {
  checked: boolean
  /** What it shows beside the track (e.g. "Active"); the accessible name is the aria-label or aria-labelledby. */
  text: string
  /** While saving: aria-disabled, not disabled (a focused control that turns disabled drops focus). */
  busy?: boolean
  onToggle: () => void
}

/** An on/off switch (role="switch"): its state is aria-checked and the track; the text beside it is shown, not read twice. */
export const Switch = ({ checked, text, busy, onToggle, ...aria }: SwitchProps) => (
  <button
    type="button"
    role="switch"
    className="pk-switch"
    aria-checked={checked}
    {...aria}
    aria-disabled={busy || undefined}
    onClick={() => {
      if (!busy) onToggle()
    }}
  >
    <span className="pk-switch__track" aria-hidden="true" />
    <span aria-hidden="true">{text}</span>
  </button>
)
