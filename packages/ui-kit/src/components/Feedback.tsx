import type { ReactNode } from 'react'

/** A message that screen readers announce: errors use role=alert, others role=status. */
export const Alert = ({ tone = 'error', id, children }: { tone?: 'error' | 'success' | 'info'; id?: string; children: ReactNode }) => (
  <div id={id} role={tone === 'error' ? 'alert' : 'status'} className={`pk-alert pk-alert--${tone}`}>
    {children}
  </div>
)

/** A busy indicator announced as a status. */
export const Spinner = ({ label = 'Loading...' }: { label?: string }) => (
  <div role="status" aria-live="polite" className="pk-spinner">
    <span>{label}</span>
  </div>
)

/** An honest "nothing here (yet)" panel. */
export const EmptyState = ({ children }: { children: ReactNode }) => <p className="pk-empty">{children}</p>
