export { api, createApiClient, ApiError, errorMessage, classify401 } from './api.ts'
export type { ApiClient, ApiEnvironment, RequestOptions } from './api.ts'
export { uploadWithProgress, createUploader, uploadPercent, UPLOAD_TIMEOUT_MS } from './upload.ts'
export type { UploadEnvironment, UploadOptions, UploadXhr } from './upload.ts'
export { SESSION_REFRESHED_EVENT, endServerSession, expiresSoon, refreshSession, tokenTimes } from './refresh.ts'
export type { RefreshOutcome } from './refresh.ts'
export { getToken, getStoredUser, readStoredUser, storeSession, clearSession, hasIdentity } from './session.ts'
export type { StoredUser } from './session.ts'
export { ensureStyles } from './styles.ts'
export { documentTitle, usePageHeading, PRODUCT_TITLE } from './page.ts'
export { Button } from './components/Button.tsx'
export type { ButtonProps } from './components/Button.tsx'
export { TextField } from './components/TextField.tsx'
export type { TextFieldProps } from './components/TextField.tsx'
export { Select } from './components/Select.tsx'
export type { SelectOption, SelectProps } from './components/Select.tsx'
export { Alert, Spinner, EmptyState } from './components/Feedback.tsx'
export { LiveRegion, useAnnouncement } from './components/LiveRegion.tsx'
export type { Announcement } from './components/LiveRegion.tsx'
export { tabAfterKey } from './tabs.ts'
export { Tabs } from './components/Tabs.tsx'
export type { TabsProps } from './components/Tabs.tsx'
export { focusFirstInvalid, neighbourAfterRemoval, useFocusTargets } from './focus.ts'
export type { FocusTargets } from './focus.ts'
export { UploadProgress } from './components/UploadProgress.tsx'
export { Modal } from './components/Modal.tsx'
export type { ModalProps } from './components/Modal.tsx'
export { ConfirmDialog } from './components/ConfirmDialog.tsx'
export type { ConfirmDialogProps } from './components/ConfirmDialog.tsx'
export { ToastProvider, useToast, toastsReducer, TOAST_DURATION_MS, MAX_TOASTS } from './components/Toast.tsx'
export type { ToastApi, ToastItem, ToastTone } from './components/Toast.tsx'
export { RemoteSlot } from './remotes/RemoteSlot.tsx'
export type { RemoteSlotProps } from './remotes/RemoteSlot.tsx'
export { ensureRemotesRegistered, loadRemoteComponent } from './remotes/federation.ts'
export { RemoteUnavailableError } from './remotes/error-load-remote.ts'

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
}
