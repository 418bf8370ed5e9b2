import { ApiError } from './api.ts'

/** How long before the one retry of a load that got no answer: a blip, not a wait a person notices. */
export const LOAD_RETRY_DELAY_MS = 300

/**
 * Query `retry` for loads a person waits on: an answer (4xx, 5xx, a timeout) shows its error at
 * once, with the page's Try Again; only a request that got no answer at all (the network dropped
 * it) is sent once more, quickly.
 */
export const retryLoadOnce = (failureCount: number, error: unknown): boolean => failureCount < 1 && error instanceof ApiError && error.code === 'network_error'

/** Query defaults of a remote's data: `retryLoadOnce` after `LOAD_RETRY_DELAY_MS`. */
export const LOAD_QUERY_DEFAULTS = { retry: retryLoadOnce, retryDelay: LOAD_RETRY_DELAY_MS } as const
