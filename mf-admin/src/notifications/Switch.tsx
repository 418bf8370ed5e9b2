/**
 * An on/off switch (role="switch"): `text` is what it shows beside the track and starts its
 * accessible name `label` (the state is aria-checked and the track). aria-disabled, not disabled,
 * while busy: a focused control that turns disabled drops focus.
 */
export const Switch = ({ text, label, checked, busy, onToggle }: { text: string; label: string; checked: boolean; busy?: boolean; onToggle: () => void }) => (
  <button
    type="button"
    role="switch"
    className="pk-switch"
    aria-checked={checked}
    aria-label={label}
    aria-disabled={busy || undefined}
    onClick={() => {
      if (!busy) onToggle()
    }}
  >
    <span className="pk-switch__track" aria-hidden="true" />
    <span>{text}</span>
  </button>
)
