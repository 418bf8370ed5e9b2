import type { ReactNode } from 'react'
import { Button } from './Button.tsx'
import { Modal } from './Modal.tsx'

export interface ConfirmDialogProps {
  open: boolean
  title: string
  children: ReactNode
  confirmLabel?: string
  cancelLabel?: string
  busy?: boolean
  onConfirm: () => void
  onCancel: () => void
}

/** "Are you sure?" on a modal; Escape and Cancel both cancel. */
export const ConfirmDialog = ({ open, title, children, confirmLabel = 'Confirm', cancelLabel = 'Cancel', busy = false, onConfirm, onCancel }: ConfirmDialogProps) => (
  <Modal open={open} title={title} onClose={onCancel}>
    <div>{children}</div>
    <div className="pk-row pk-justify-end">
      <Button variant="secondary" onClick={onCancel} autoFocus>
        {cancelLabel}
      </Button>
      {/* aria-disabled, not disabled: a focused button that turns disabled drops focus to <body>. */}
      <Button variant="danger" onClick={busy ? undefined : onConfirm} aria-disabled={busy || undefined}>
        {confirmLabel}
      </Button>
    </div>
  </Modal>
)
