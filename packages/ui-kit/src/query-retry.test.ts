import { describe, expect, it } from 'vitest'
import { ApiError } from './api.ts'
import { retryLoadOnce } from './query-retry.ts'

describe('retryLoadOnce', () => {
  it('retries a request that got no answer once', () => {
    const dropped = new ApiError(0, 'network_error', 'Network error', null)
    expect(retryLoadOnce(0, dropped)).toBe(true)
    expect(retryLoadOnce(1, dropped)).toBe(false)
  })

  it('shows an answered failure at once: no retry for 4xx, 5xx or a timeout', () => {
    expect(retryLoadOnce(0, new ApiError(404, 'not_found', 'Not found', null))).toBe(false)
    expect(retryLoadOnce(0, new ApiError(403, 'forbidden', 'Forbidden', null))).toBe(false)
    expect(retryLoadOnce(0, new ApiError(503, 'unavailable', 'Unavailable', null))).toBe(false)
    expect(retryLoadOnce(0, new ApiError(0, 'timeout', 'Request timed out', null))).toBe(false)
  })

  it('does not retry an error that is not a failed call (a bug in the page)', () => {
    expect(retryLoadOnce(0, new TypeError('x is undefined'))).toBe(false)
  })
})
