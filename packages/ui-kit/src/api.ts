import { ErrorBody, MESSAGES, REQUEST_TIMEOUT_MS } from '@portal/contracts'
import type { z } from 'zod'
import { expiresSoon, refreshSession } from './refresh.ts'
import { clearSession, getToken } from './session.ts'

/** A failed call: HTTP status (0 for network/timeout), the server's code and message when it sent one. */
export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly body: unknown
  /** The server's human-readable message, if the body had one. */
  readonly serverMessage: string | undefined
  /** The answer's `Retry-After` in seconds, when it gave one (a 429 or 503). */
  readonly retryAfterSeconds: number | undefined

  constructor(status: number, code: string, message: string, body: unknown, serverMessage?: string, retryAfterSeconds?: number) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.body = body
    this.serverMessage = serverMessage
    this.retryAfterSeconds = retryAfterSeconds
  }
}

/** The text to show for a failure: the server's message when present, else the screen's default. */
export const errorMessage = (error: unknown, fallback: string): string => (error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback)

/** Side effects the client needs from the browser; swapped in tests. */
export interface ApiEnvironment {
  fetch: typeof fetch
  alert: (message: string) => void
  goToLogin: () => void
  log: (...args: unknown[]) => void
  sleep: (ms: number) => Promise<void>
}

const browserEnv = (): ApiEnvironment => ({
  fetch: (...args) => globalThis.fetch(...args),
  alert: (m) => globalThis.alert?.(m),
  goToLogin: () => {
    // On a public page (login, register, reset...) stay, so its own message remains visible.
    const here = globalThis.location?.pathname
    if (here && !PUBLIC_PATHS.includes(here)) globalThis.location.assign('/login')
  },
  log: (...args) => console.warn(...args),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
})

const codeOf = (data: unknown): string | undefined => {
  const parsed = ErrorBody.safeParse(data)
  return parsed.success ? parsed.data.code : undefined
}

const PUBLIC_PATHS = ['/login', '/register', '/forgot-password', '/reset-password']

/** Calls whose 401 means "this session is gone" (spec §8). */
const SESSION_URL = /\/auth\/|\/auth$|\/login|\/register|\/users\/me(\/|$|\?)|\/stats(\/|$|\?)/

/** What a 401 leads to, by spec §8. Exported for tests. */
export const classify401 = (path: string, body: unknown): 'expired' | 'session' | 'log' => {
  const parsed = ErrorBody.safeParse(body)
  if (parsed.success && parsed.data.expired === true) return 'expired'
  return SESSION_URL.test(path) ? 'session' : 'log'
}

/** What a client needs from the browser to react to a failed call. */
type FailureEnvironment = Pick<ApiEnvironment, 'alert' | 'goToLogin' | 'log'>

/**
 * The error of a non-2xx answer, after the spec's 401 handling (§8): an expired session or a
 * session URL clears the stored session and goes to the login page. Shared by every client.
 */
export function failure(status: number, data: unknown, method: string, path: string, e: FailureEnvironment, retryAfterSeconds?: number): ApiError {
  const parsed = ErrorBody.safeParse(data)
  const serverMessage = parsed.success ? parsed.data.message : undefined
  const code = parsed.success ? parsed.data.code : `http_${status}`
  if (status === 401) {
    const kind = classify401(path, data)
    if (kind === 'expired') {
      clearSession()
      e.alert(MESSAGES.sessionExpired)
      e.goToLogin()
    } else if (kind === 'session') {
      clearSession()
      e.goToLogin()
    } else {
      e.log(`401 from ${method} ${path}`, data)
    }
  }
  return new ApiError(status, code, serverMessage ?? `Request failed (${status})`, data, serverMessage, retryAfterSeconds)
}

/** `Retry-After` as seconds: a number of seconds or an HTTP date; undefined when absent or unreadable. */
export const retryAfterOf = (header: string | null, now = Date.now()): number | undefined => {
  if (!header) return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds
  const at = Date.parse(header)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000))
}

/**
 * Password hashing is bounded (decisions 0020, 0042): a sign-in, registration or reset arriving
 * while the hashes are taken is told `429 busy` with `Retry-After`. The client waits that long and
 * sends it again, as a person would, so a busy moment reads as a slower sign-in, not an error; it
 * gives up (and shows the message) once waiting would pass BUSY_RETRY_BUDGET_MS in all.
 */
export const BUSY_RETRY_BUDGET_MS = 20_000
const BUSY_RETRY_MAX_WAIT_MS = 5_000

/** A 2xx answer's body, checked against `schema` when given (an unexpected shape is an `invalid_response` error). */
export function checked<T>(status: number, data: unknown, schema: z.ZodType<T> | undefined, method: string, path: string, e: FailureEnvironment): T {
  if (!schema) return data as T
  const parsed = schema.safeParse(data)
  if (!parsed.success) {
    e.log(`Unexpected response from ${method} ${path}`, parsed.error)
    throw new ApiError(status, 'invalid_response', 'Unexpected response from server', data)
  }
  return parsed.data
}

export interface RequestOptions<T> {
  body?: unknown
  schema?: z.ZodType<T>
  timeoutMs?: number
  /** `blob`: a 2xx answer is returned as a Blob (a file), not parsed as JSON. */
  as?: 'json' | 'blob'
}

/** Calls that never refresh the session first (sign-in, registration, the refresh itself). */
const AUTH_CALL = /^\/auth(\/|$)/

/**
 * JSON client for `/api` with the bearer token, timeout and the spec's 401 handling. The access
 * token is short-lived: it is refreshed shortly before it ends, and once when a call answers 401
 * expired (then the call is sent again); only when the refresh fails does the 401 handling apply.
 */
export const createApiClient = (base = '/api', env: () => ApiEnvironment = browserEnv) => {
  const send = async (e: ApiEnvironment, method: string, path: string, token: string | null, opts: RequestOptions<unknown>) => {
    const headers: Record<string, string> = { Accept: opts.as === 'blob' ? '*/*' : 'application/json' }
    if (token) headers.Authorization = `Bearer ${token}`
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json'
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(), opts.timeoutMs ?? REQUEST_TIMEOUT_MS)
    let res: Response
    try {
      res = await e.fetch(base + path, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: controller.signal,
      })
    } catch (err) {
      const timedOut = controller.signal.aborted
      throw new ApiError(0, timedOut ? 'timeout' : 'network_error', timedOut ? 'Request timed out' : 'Network error', err)
    } finally {
      clearTimeout(timer)
    }
    if (res.ok && opts.as === 'blob') return { status: res.status, ok: true, data: (await res.blob()) as unknown, retryAfter: undefined }
    const retryAfter = res.ok ? undefined : retryAfterOf(res.headers.get('Retry-After'))
    const text = await res.text()
    let data: unknown = undefined
    if (text) {
      try {
        data = JSON.parse(text)
      } catch {
        data = text
      }
    }
    return { status: res.status, ok: res.ok, data, retryAfter }
  }

  const request = async <T = unknown>(method: string, path: string, opts: RequestOptions<T> = {}): Promise<T> => {
    const e = env()
    let token = getToken()
    const refreshable = token !== null && !AUTH_CALL.test(path)
    let refreshed = false
    if (refreshable && expiresSoon(token!)) {
      refreshed = true
      const outcome = await refreshSession(base, token, e.fetch)
      if (typeof outcome === 'object') token = outcome.token
    }
    let answer = await send(e, method, path, token, opts as RequestOptions<unknown>)
    if (answer.status === 401 && refreshable && !refreshed && classify401(path, answer.data) === 'expired') {
      const outcome = await refreshSession(base, token, e.fetch)
      if (outcome === 'unreachable') throw new ApiError(0, 'network_error', 'Network error', answer.data)
      if (outcome !== 'ended') answer = await send(e, method, path, outcome.token, opts as RequestOptions<unknown>)
    }
    if (AUTH_CALL.test(path)) {
      let waited = 0
      while (answer.status === 429 && codeOf(answer.data) === 'busy' && answer.retryAfter !== undefined) {
        const wait = Math.min(Math.max(answer.retryAfter * 1000, 250), BUSY_RETRY_MAX_WAIT_MS)
        if (waited + wait > BUSY_RETRY_BUDGET_MS) break
        await e.sleep(wait)
        waited += wait
        answer = await send(e, method, path, token, opts as RequestOptions<unknown>)
      }
    }
    if (!answer.ok) throw failure(answer.status, answer.data, method, path, e, answer.retryAfter)
    if (opts.as === 'blob') return answer.data as T
    return checked(answer.status, answer.data, opts.schema, method, path, e)
  }
  return {
    request,
    get: <T>(path: string, schema?: z.ZodType<T>) => request<T>('GET', path, { schema }),
    post: <T>(path: string, body: unknown, schema?: z.ZodType<T>) => request<T>('POST', path, { body, schema }),
    put: <T>(path: string, body: unknown, schema?: z.ZodType<T>) => request<T>('PUT', path, { body, schema }),
    patch: <T>(path: string, body: unknown, schema?: z.ZodType<T>) => request<T>('PATCH', path, { body, schema }),
    delete: <T>(path: string, schema?: z.ZodType<T>) => request<T>('DELETE', path, { schema }),
    /** A file (e.g. a certification proof) as a Blob; failures are ApiErrors as for JSON calls. */
    getFile: (path: string) => request<Blob>('GET', path, { as: 'blob' }),
  }
}

export type ApiClient = ReturnType<typeof createApiClient>

/** The portal's client for `/api` (same origin). */
export const api: ApiClient = createApiClient()
