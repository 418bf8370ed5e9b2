import type { ScormSession } from './session.ts'

/**
 * Registers ONE pagehide + visibilitychange(hidden) listener on `win` that calls `flush()` of the
 * current session; returns an unsubscribe. scorm-again registers none of its own.
 */
export function flushOnPageHide(win: Window, current: () => Pick<ScormSession, 'flush'> | null): () => void {
  const onPageHide = () => current()?.flush()
  const onVisibility = () => {
    if (win.document?.visibilityState === 'hidden') current()?.flush()
  }
  win.addEventListener('pagehide', onPageHide)
  // visibilitychange is fired at the document and bubbles to the window
  win.addEventListener('visibilitychange', onVisibility)
  return () => {
    win.removeEventListener('pagehide', onPageHide)
    win.removeEventListener('visibilitychange', onVisibility)
  }
}
