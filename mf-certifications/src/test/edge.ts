import { afterEach, beforeEach, vi } from 'vitest'

/**
 * Answers the portal's API at the browser's edge (fetch): `answers` by "METHOD /api/path" (the
 * query left out); any other request stays pending, so none leaves the test. Records every
 * request as "METHOD /api/path?query" and the JSON bodies sent.
 */
export function answerApi(answers: Record<string, (init: RequestInit) => Response | Promise<Response>>) {
  const calls: string[] = []
  const bodies: unknown[] = []
  const fetchStub = vi.fn((url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET'
    calls.push(`${method} ${url}`)
    if (typeof init.body === 'string') bodies.push(JSON.parse(init.body))
    const answer = answers[`${method} ${url.split('?')[0]}`]
    return answer ? Promise.resolve(answer(init)) : new Promise<Response>(() => undefined)
  })
  vi.stubGlobal('fetch', fetchStub)
  return { calls, bodies, fetchStub }
}

/** A JSON answer. */
export const json = (body: unknown, status = 200) => Response.json(body, { status })

/** For each test of the file, no request leaves it: every fetch stays pending (what is not in the cache stays loading). */
export function holdRequests(): void {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => undefined)),
    )
  })
  afterEach(() => {
    vi.unstubAllGlobals()
  })
}
