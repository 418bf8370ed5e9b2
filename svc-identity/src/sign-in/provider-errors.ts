import * as oidc from 'openid-client'
import type { SignInErrorCode } from '@portal/contracts'

/**
 * A company sign-in that ends on the login page with `code` (SIGN_IN_ERRORS). `reason` is for the
 * log only: what went wrong, never a token, a code or a claim's value.
 */
export class SignInRefused extends Error {
  readonly code: SignInErrorCode
  readonly reason: string
  constructor(code: SignInErrorCode, reason: string) {
    super(`company sign-in refused: ${code}`)
    this.code = code
    this.reason = reason
  }
}

/** How a call to a provider failed: it said no, it could not be reached, or its answer did not pass the checks. */
export type ProviderFailure = { kind: 'refused'; detail: string } | { kind: 'unreachable'; detail: string } | { kind: 'invalid'; detail: string }

const statusOf = (v: unknown): number | undefined => (v instanceof Response ? v.status : undefined)

/**
 * Sorts an error of openid-client. Only names and codes are kept (an error's `cause` may hold the
 * token or its claims, so it never reaches a log): the OAuth error code, the HTTP status, or the
 * check that failed and the claim it compared.
 */
export function providerFailure(err: unknown): ProviderFailure {
  if (err instanceof oidc.ResponseBodyError) {
    const detail = `${err.error} (HTTP ${err.status})`
    return err.status >= 500 ? { kind: 'unreachable', detail } : { kind: 'refused', detail }
  }
  if (err instanceof oidc.WWWAuthenticateChallengeError)
    return err.status >= 500 ? { kind: 'unreachable', detail: `HTTP ${err.status}` } : { kind: 'refused', detail: `HTTP ${err.status} challenge` }
  if (err instanceof oidc.AuthorizationResponseError) return { kind: 'refused', detail: err.error }
  if (err instanceof oidc.ClientError) {
    const status = statusOf(err.cause)
    if (err.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' && status !== undefined)
      return status >= 500 || status === 429 ? { kind: 'unreachable', detail: `HTTP ${status}` } : { kind: 'refused', detail: `HTTP ${status}` }
    if (err.code === 'OAUTH_RESPONSE_IS_NOT_JSON') return { kind: 'unreachable', detail: 'answer not JSON' }
    const inner = err.cause instanceof Error ? err.cause : undefined
    const claim = (inner as { cause?: { claim?: unknown } } | undefined)?.cause?.claim
    return { kind: 'invalid', detail: `${err.code ?? 'check failed'}: ${inner?.message ?? err.message}${typeof claim === 'string' ? ` (claim ${claim})` : ''}` }
  }
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return { kind: 'unreachable', detail: 'timed out' }
  // fetch() fails with a TypeError when the provider cannot be reached; openid-client's own TypeErrors are bad input.
  if (err instanceof TypeError)
    return String((err as { code?: unknown }).code ?? '').startsWith('ERR_INVALID') ? { kind: 'invalid', detail: err.message } : { kind: 'unreachable', detail: err.message }
  if (err instanceof Error && err.name === 'UnsupportedOperationError') return { kind: 'invalid', detail: err.message }
  return { kind: 'invalid', detail: err instanceof Error ? `${err.name}: ${err.message}` : 'unknown failure' }
}
