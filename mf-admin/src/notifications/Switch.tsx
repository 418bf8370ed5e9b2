import { useId } from 'react'

/**
 * An on/off switch (role="switch") named by `label`; `stateText` is shown beside the track.
 * aria-disabled, not disabled, while busy: a focused control that turns disabled drops focus.
 */
export const Switch = ({ label, checked, busy, onToggle, stateText }: { label: string; checked: boolean; busy?: boolean; onToggle: () => void; stateText?: [on: string, off: string] }) => {
  const id = useId()
  const [on, off] = stateText ?? ['Active', 'Inactive']
  return (
    <button
      type="button"
      role="switch"
      className="pk-switch"
      aria-checked={checked}
      aria-label={label}
      aria-describedby={id}
      aria-disabled={busy || undefined}
      onClick={() => {
        if (!busy) onToggle()
      }}
    >
      <span className="pk-switch__track" aria-hidden="true" />
      <span id={id}>{checked ? on : off}</span>
    </button>
  )
}
