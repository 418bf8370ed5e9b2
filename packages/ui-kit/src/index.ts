export { api, createApiClient, ApiError, errorMessage, classify401 } from './api.ts'
export type { ApiClient, ApiEnvironment, RequestOptions } from './api.ts'
export { uploadWithProgress, createUploader, UPLOAD_TIMEOUT_MS } from './upload.ts'
export type { UploadEnvironment, UploadOptions, UploadXhr } from './upload.ts'
export { getToken, getStoredUser, readStoredUser, storeSession, clearSession, hasIdentity } from './session.ts'
export type { StoredUser } from './session.ts'
export { addStyleSheet, ensureStyles } from './styles.ts'
export { Button } from './components/Button.tsx'
export type { ButtonProps } from './components/Button.tsx'
export { TextField } from './components/TextField.tsx'
export type { TextFieldProps } from './components/TextField.tsx'
export { Select } from './components/Select.tsx'
export type { SelectOption, SelectProps } from './components/Select.tsx'
export { Alert, Spinner, EmptyState } from './components/Feedback.tsx'
export { LiveRegion, useAnnouncement } from './components/LiveRegion.tsx'
export type { Announcement } from './components/LiveRegion.tsx'
export { focusFirstInvalid, neighbourAfterRemoval, useFocusTargets } from './focus.ts'
export type { FocusTargets } from './focus.ts'
export { Modal } from './components/Modal.tsx'
export type { ModalProps } from './components/Modal.tsx'
export { ConfirmDialog } from './components/ConfirmDialog.tsx'
export type { ConfirmDialogProps } from './components/ConfirmDialog.tsx'
export { ToastProvider, useToast, toastsReducer, TOAST_DURATION_MS, MAX_TOASTS } from './components/Toast.tsx'
export type { ToastApi, ToastItem, ToastTone } from './components/Toast.tsx'

/** Props the shell hands to every remote's top-level component. */
export interface RemoteProps {
  user: import('@portal/contracts').User
  onUserUpdated: (user: import('@portal/contracts').User) => void
  /**
   * Navigation handed over by the shell, so remotes need no router of their own (the shell's
   * shared react-router copy is tree-shaken to what the shell itself uses).
   */
  navigate: (to: string, options?: { replace?: boolean; state?: unknown }) => void
  /** The route's parameters, e.g. `{ id }` on /exam/:id. */
  params: Readonly<Record<string, string | undefined>>
  /** State handed over with the navigation (e.g. an exam result). */
  locationState: unknown
  /**
   * Asks the host to check with `guard` before the user leaves this page by any way the host
   * controls (a link, browser Back, Logout); answers the function that withdraws it. Absent when
   * the host has no such ways out (a component hosted inside another remote).
   */
  registerLeaveGuard?: (guard: LeaveGuard) => () => void
}

/** How the user is leaving: to another page of the portal (`to` is its path), or logging out. */
export type LeaveIntent = { kind: 'navigate'; to: string } | { kind: 'logout' }

/**
 * Asked before the user leaves a page that holds something under way (a timed exam): it tells the
 * user what really happens and resolves true to let them go, false to keep them on the page.
 */
export type LeaveGuard = (intent: LeaveIntent) => Promise<boolean>
