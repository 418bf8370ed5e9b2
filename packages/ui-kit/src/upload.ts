import type { z } from 'zod'
import { ApiError, checked, failure } from './api.ts'
import { expiresSoon, refreshSession } from './refresh.ts'
import { getToken } from './session.ts'

/** Whole percent of an upload, or null while the total is unknown. */
export const uploadPercent = (loaded: number, total: number): number | null => (total > 0 ? Math.min(100, Math.max(0, Math.round((loaded / total) * 100))) : null)

/** Course upload timeout (learner §9, admin §9). */
export const UPLOAD_TIMEOUT_MS = 600_000

/** The part of XMLHttpRequest an upload uses (fetch reports no upload progress); faked in tests. */
export interface UploadXhr {
  open(method: string, url: string): void
  setRequestHeader(name: string, value: string): void
  send(body: FormData): void
  abort(): void
  timeout: number
  readonly status: number
  readonly responseText: string
  readonly upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null }
  onload: (() => void) | null
  onerror: (() => void) | null
  onabort: (() => void) | null
  ontimeout: (() => void) | null
}

/** Side effects an upload needs from the browser; swapped in tests. */
export interface UploadEnvironment {
  createXhr: () => UploadXhr
  alert: (message: string) => void
  goToLogin: () => void
  log: (...args: unknown[]) => void
}

export interface UploadOptions<T> {
  /** Bytes of the request body sent so far, and its total. */
  onProgress?: (loaded: number, total: number) => void
  /** Aborting rejects with an ApiError of code `aborted`. */
  signal?: AbortSignal
  /** Default 600 000 ms; exceeding it rejects with an ApiError of code `timeout`. */
  timeoutMs?: number
  schema?: z.ZodType<T>
}

const browserEnv = (): UploadEnvironment => ({
  createXhr: () => new XMLHttpRequest() as unknown as UploadXhr,
  alert: (m) => globalThis.alert?.(m),
  // Uploads happen only on signed-in pages, so the login page is always the way out.
  goToLogin: () => globalThis.location?.assign('/login'),
  log: (...args) => console.warn(...args),
})

const parseBody = (text: string): unknown => {
  if (!text) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/**
 * Multipart uploads to `/api` with progress, cancel and timeout: the bearer token, JSON answers,
 * the same `ApiError` and the same 401 handling as the JSON client.
 */
export const createUploader =
  (base = '/api', env: () => UploadEnvironment = browserEnv) =>
  async <T = unknown>(method: 'POST' | 'PUT', path: string, form: FormData, opts: UploadOptions<T> = {}): Promise<T> => {
    // A token about to end is refreshed first (the body cannot be sent twice cheaply).
    const current = getToken()
    if (current && expiresSoon(current)) await refreshSession(base, current, (...a) => globalThis.fetch(...a))
    return new Promise<T>((resolve, reject) => {
      const e = env()
      if (opts.signal?.aborted) {
        reject(new ApiError(0, 'aborted', 'Upload cancelled', undefined))
        return
      }
      const xhr = e.createXhr()
      const onAbortSignal = () => xhr.abort()
      const done = () => opts.signal?.removeEventListener('abort', onAbortSignal)
      xhr.open(method, base + path)
      xhr.setRequestHeader('Accept', 'application/json')
      const token = getToken()
      if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`)
      // No Content-Type: the browser writes the multipart boundary itself.
      xhr.timeout = opts.timeoutMs ?? UPLOAD_TIMEOUT_MS
      xhr.upload.onprogress = (ev) => {
        if (opts.onProgress) opts.onProgress(ev.loaded, ev.lengthComputable ? ev.total : 0)
      }
      xhr.onabort = () => {
        done()
        reject(new ApiError(0, 'aborted', 'Upload cancelled', undefined))
      }
      xhr.ontimeout = () => {
        done()
        reject(new ApiError(0, 'timeout', 'Request timed out', undefined))
      }
      xhr.onerror = () => {
        done()
        reject(new ApiError(0, 'network_error', 'Network error', undefined))
      }
      xhr.onload = () => {
        done()
        const status = xhr.status
        const data = parseBody(xhr.responseText)
        try {
          if (status < 200 || status >= 300) throw failure(status, data, method, path, e)
          resolve(checked(status, data, opts.schema, method, path, e))
        } catch (err) {
          reject(err)
        }
      }
      opts.signal?.addEventListener('abort', onAbortSignal, { once: true })
      xhr.send(form)
    })
  }

/** Uploads a multipart form to `/api{path}` with progress, cancel (signal) and a 10-minute default timeout. */
export const uploadWithProgress: <T = unknown>(method: 'POST' | 'PUT', path: string, form: FormData, opts?: UploadOptions<T>) => Promise<T> = createUploader()
