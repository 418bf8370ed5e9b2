import { vi } from 'vitest'

/** One request that reached the edge (the browser's fetch). */
export interface Call {
  method: string
  /** The path with its query, as sent (`/api/admin/assignment-rules?x=1`). */
  url: string
  path: string
  query: URLSearchParams
  body: unknown
}

/** What an answer says: a status and a JSON body, or a file. */
export type Answer = { status?: number; json?: unknown; blob?: Blob } | 'hang' | 'network-error'
type Route = (call: Call) => Answer | undefined

/**
 * Answers the screen's calls at the edge: each request goes to the first route that answers it
 * (a route returns undefined to pass); a request no route answers fails the test loudly. Every
 * call is recorded, in order.
 */
export function answerFetch(...routes: Route[]) {
  const calls: Call[] = []
  const unanswered: string[] = []
  vi.stubGlobal('fetch', async (input: string | URL | Request, init: RequestInit = {}) => {
    const raw = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    const url = new URL(raw, 'http://portal.test')
    const call: Call = {
      method: (init.method ?? 'GET').toUpperCase(),
      url: `${url.pathname}${url.search}`,
      path: url.pathname,
      query: url.searchParams,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    }
    calls.push(call)
    for (const route of routes) {
      const answer = route(call)
      if (answer === undefined) continue
      if (answer === 'hang') return new Promise<Response>(() => undefined)
      if (answer === 'network-error') throw new TypeError('Failed to fetch')
      if (answer.blob) return new Response(answer.blob, { status: answer.status ?? 200 })
      return new Response(answer.json === undefined ? null : JSON.stringify(answer.json), {
        status: answer.status ?? 200,
        headers: { 'Content-Type': 'application/json' },
      })
    }
    unanswered.push(`${call.method} ${call.url}`)
    return new Response(JSON.stringify({ message: `No answer for ${call.method} ${call.url}`, code: 'test_unanswered' }), { status: 599 })
  })
  return { calls, unanswered, of: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path) }
}

/** A route answering one method and path (exactly, without the query). */
export const on =
  (method: string, path: string, answer: Answer | ((call: Call) => Answer)): Route =>
  (call) =>
    call.method === method && call.path === path ? (typeof answer === 'function' ? answer(call) : answer) : undefined
