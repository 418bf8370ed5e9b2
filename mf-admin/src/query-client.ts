import { ApiError } from '@portal/ui-kit'
import { QueryClient } from '@tanstack/react-query'

/** How long a read waits before its one retry after the network dropped it (short: the screen shows "Loading…" meanwhile). */
export const NETWORK_RETRY_DELAY_MS = 300

/**
 * Whether a failed read is tried again: once, and only when it never reached the server. An answer
 * (403, 404, 500…) would be the same a second time, so its error shows as soon as it comes.
 */
export const retryUnreachable = (failureCount: number, error: unknown): boolean =>
  failureCount < 1 && error instanceof ApiError && error.status === 0 && error.code === 'network_error'

/** The admin screens' data cache: one per mount (signing out unmounts it, so no data leaks to the next user). */
export const createAdminQueryClient = () => new QueryClient({ defaultOptions: { queries: { retry: retryUnreachable, retryDelay: NETWORK_RETRY_DELAY_MS } } })
