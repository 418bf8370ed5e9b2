import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef, type ReactNode } from 'react'

export type ToastTone = 'success' | 'error' | 'info'

export interface ToastItem {
  id: number
  tone: ToastTone
  message: string
}

/** How long a toast stays before it hides itself (errors stay longer: they need reading). */
export const TOAST_DURATION_MS: Record<ToastTone, number> = { success: 5_000, info: 6_000, error: 8_000 }
/** At most this many toasts are shown; the oldest goes first. */
export const MAX_TOASTS = 4

export type ToastAction = { type: 'show'; toast: ToastItem } | { type: 'dismiss'; id: number }

/**
 * The toast list. Showing a message that is already on screen (same tone and text) moves it to the
 * end with its new id instead of stacking a copy, so a repeated failure does not flood the screen.
 */
export const toastsReducer = (state: readonly ToastItem[], action: ToastAction): ToastItem[] => {
  if (action.type === 'dismiss') return state.filter((t) => t.id !== action.id)
  const rest = state.filter((t) => !(t.tone === action.toast.tone && t.message === action.toast.message))
  return [...rest, action.toast].slice(-MAX_TOASTS)
}

export interface ToastApi {
  success: (message: string) => void
  error: (message: string) => void
  info: (message: string) => void
  dismiss: (id: number) => void
}

const ToastContext = createContext<ToastApi | null>(null)

const TONE_STYLE: Record<ToastTone, { background: string; border: string; color: string }> = {
  success: { background: 'var(--c-success-bg)', border: '#86efac', color: 'var(--c-success)' },
  error: { background: 'var(--c-danger-bg)', border: '#fca5a5', color: 'var(--c-danger)' },
  info: { background: 'var(--c-info-bg)', border: '#93c5fd', color: '#1e3a8a' },
}

/** One toast: errors are role=alert, others role=status; hides itself unless hovered or focused. */
const Toast = ({ toast, onDismiss }: { toast: ToastItem; onDismiss: (id: number) => void }) => {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const stop = useCallback(() => {
    if (timer.current) clearTimeout(timer.current)
    timer.current = null
  }, [])
  const arm = useCallback(() => {
    stop()
    timer.current = setTimeout(() => onDismiss(toast.id), TOAST_DURATION_MS[toast.tone])
  }, [onDismiss, stop, toast.id, toast.tone])
  useEffect(() => {
    arm()
    return stop
  }, [arm, stop])
  const tone = TONE_STYLE[toast.tone]
  return (
    <div
      role={toast.tone === 'error' ? 'alert' : 'status'}
      aria-live={toast.tone === 'error' ? 'assertive' : 'polite'}
      aria-atomic="true"
      className={`pk-toast pk-toast--${toast.tone}`}
      onMouseEnter={stop}
      onMouseLeave={arm}
      onFocus={stop}
      onBlur={arm}
      style={{
        display: 'flex',
        alignItems: 'flex-start',
        gap: '.75rem',
        padding: '.75rem 1rem',
        borderRadius: 8,
        border: `1px solid ${tone.border}`,
        background: tone.background,
        color: tone.color,
        boxShadow: '0 6px 16px rgba(15,23,42,.18)',
        fontSize: '.9375rem',
        pointerEvents: 'auto',
      }}
    >
      <span className="pk-flex-1">{toast.message}</span>
      <button
        type="button"
        aria-label="Dismiss notification"
        onClick={() => onDismiss(toast.id)}
        style={{ font: 'inherit', fontWeight: 700, lineHeight: 1, background: 'none', border: 'none', color: 'inherit', cursor: 'pointer', padding: '.125rem .25rem' }}
      >
        ×
      </button>
    </div>
  )
}

/** Gives its subtree `useToast()` and renders the toasts in a fixed corner region. */
export const ToastProvider = ({ children }: { children: ReactNode }) => {
  const [toasts, dispatch] = useReducer(toastsReducer, [])
  const nextId = useRef(1)
  const dismiss = useCallback((id: number) => dispatch({ type: 'dismiss', id }), [])
  const api = useMemo<ToastApi>(() => {
    const show = (tone: ToastTone) => (message: string) => dispatch({ type: 'show', toast: { id: nextId.current++, tone, message } })
    return { success: show('success'), error: show('error'), info: show('info'), dismiss }
  }, [dismiss])
  return (
    <ToastContext.Provider value={api}>
      {children}
      <div
        aria-label="Notifications"
        role="region"
        style={{
          position: 'fixed',
          right: '1rem',
          bottom: '1rem',
          zIndex: 1000,
          display: 'flex',
          flexDirection: 'column',
          gap: '.5rem',
          width: 'min(380px, calc(100vw - 2rem))',
          pointerEvents: 'none',
        }}
      >
        {toasts.map((t) => (
          <Toast key={t.id} toast={t} onDismiss={dismiss} />
        ))}
      </div>
    </ToastContext.Provider>
  )
}

/** Shows toasts; needs a `ToastProvider` above. */
export const useToast = (): ToastApi => {
  const api = useContext(ToastContext)
  if (!api) throw new Error('useToast needs a ToastProvider above it')
  return api
}
