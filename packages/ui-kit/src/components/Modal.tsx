import { useEffect, useId, useRef, type ReactNode } from 'react'

export interface ModalProps {
  open: boolean
  title: string
  children: ReactNode
  /** Called on Escape (or the dialog's cancel event); omit to make the dialog blocking. */
  onClose?: () => void
}

/**
 * An accessible modal on the native <dialog>: showModal() traps focus and makes the page inert;
 * focus returns to the element that had it before.
 */
export const Modal = ({ open, title, children, onClose }: ModalProps) => {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useEffect(() => {
    const dialog = ref.current
    if (!open || !dialog) return undefined
    const previous = document.activeElement as HTMLElement | null
    if (!dialog.open) dialog.showModal()
    dialog.querySelector<HTMLElement>('[autofocus], input, select, textarea, button')?.focus()
    return () => {
      if (dialog.open) dialog.close()
      previous?.focus?.()
    }
  }, [open])
  return (
    <dialog
      ref={ref}
      className="pk-dialog"
      aria-labelledby={titleId}
      onCancel={(e) => {
        // A dialog opened from this one: its Escape is its own (React hands the event to this
        // dialog too, as an ancestor in its tree).
        if (e.target !== e.currentTarget) return
        // Escape: close only when the caller allows it.
        e.preventDefault()
        onClose?.()
      }}
    >
      {open ? (
        <div className="pk-dialog__body pk-stack">
          <h2 id={titleId}>{title}</h2>
          {children}
        </div>
      ) : null}
    </dialog>
  )
}
