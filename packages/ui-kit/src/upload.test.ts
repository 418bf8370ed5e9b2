import { beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { ApiError, errorMessage } from './api.ts'
import { createUploader, UPLOAD_TIMEOUT_MS, type UploadEnvironment, type UploadXhr } from './upload.ts'
import { clearSession, getToken, storeSession, type StoredUser } from './session.ts'
import { MemoryStorage } from './test-storage.ts'

/** An XMLHttpRequest stand-in that the test drives: progress, answer, abort, timeout, network error. */
class FakeXhr implements UploadXhr {
  method = ''
  url = ''
  headers: Record<string, string> = {}
  body: FormData | null = null
  timeout = 0
  status = 0
  responseText = ''
  aborted = false
  upload: UploadXhr['upload'] = { onprogress: null }
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  onabort: (() => void) | null = null
  ontimeout: (() => void) | null = null
  open(method: string, url: string) {
    this.method = method
    this.url = url
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value
  }
  send(body: FormData) {
    this.body = body
  }
  abort() {
    // Like the browser: abort() fires the abort event synchronously.
    this.aborted = true
    this.onabort?.()
  }
  progress(loaded: number, total: number, lengthComputable = true) {
    this.upload.onprogress?.({ loaded, total, lengthComputable })
  }
  answer(status: number, body: unknown) {
    this.status = status
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body)
    this.onload?.()
  }
}

let storage: MemoryStorage
let xhr: FakeXhr
let env: UploadEnvironment

beforeEach(() => {
  storage = new MemoryStorage()
  vi.stubGlobal('localStorage', storage)
  clearSession()
  storeSession({ id: 'u' } as StoredUser, 'tkn')
  xhr = new FakeXhr()
  env = { createXhr: () => xhr, alert: vi.fn(), goToLogin: vi.fn(), log: vi.fn() }
})

const upload = createUploader('/api', () => env)
const form = () => {
  const f = new FormData()
  f.append('title', 'T')
  return f
}

describe('uploadWithProgress', () => {
  it('sends the form to /api with the method, the bearer token and no fixed content type', async () => {
    const f = form()
    const p = upload('PUT', '/courses/3', f)
    expect(xhr.method).toBe('PUT')
    expect(xhr.url).toBe('/api/courses/3')
    expect(xhr.headers.Authorization).toBe('Bearer tkn')
    expect(xhr.headers['Content-Type']).toBeUndefined()
    expect(xhr.body).toBe(f)
    xhr.answer(200, { id: 3 })
    await expect(p).resolves.toEqual({ id: 3 })
  })

  it('uses the 10-minute course upload timeout unless told otherwise', () => {
    void upload('POST', '/courses', form())
    expect(xhr.timeout).toBe(UPLOAD_TIMEOUT_MS)
    expect(UPLOAD_TIMEOUT_MS).toBe(600_000)
    xhr = new FakeXhr()
    void upload('POST', '/courses', form(), { timeoutMs: 5_000 })
    expect(xhr.timeout).toBe(5_000)
  })

  it('reports upload progress as loaded and total bytes', async () => {
    const onProgress = vi.fn()
    const p = upload('POST', '/courses', form(), { onProgress })
    xhr.progress(10, 100)
    xhr.progress(100, 100)
    xhr.progress(5, 0, false)
    xhr.answer(201, { id: 1 })
    await p
    expect(onProgress.mock.calls).toEqual([
      [10, 100],
      [100, 100],
      [5, 0],
    ])
  })

  it('parses the answer with the given schema and rejects an unexpected one', async () => {
    const schema = z.object({ id: z.number() })
    const ok = upload('POST', '/courses', form(), { schema })
    xhr.answer(201, { id: 7, extra: true })
    await expect(ok).resolves.toEqual({ id: 7 })
    xhr = new FakeXhr()
    const bad = upload('POST', '/courses', form(), { schema })
    xhr.answer(201, { id: 'seven' })
    await expect(bad).rejects.toMatchObject({ code: 'invalid_response', status: 201 })
  })

  it('turns an error body into an ApiError with the server message and code', async () => {
    const p = upload('POST', '/courses', form())
    xhr.answer(415, { message: 'File type not supported: notes.txt', code: 'unsupported_file_type' })
    const err = await p.catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({ status: 415, code: 'unsupported_file_type', serverMessage: 'File type not supported: notes.txt' })
    expect(errorMessage(err, 'Failed to create course. Please try again.')).toBe('File type not supported: notes.txt')
  })

  it('falls back to the screen default when the error body is not JSON', async () => {
    const p = upload('POST', '/courses', form())
    xhr.answer(413, '<html>Request Entity Too Large</html>')
    const err = await p.catch((e: unknown) => e)
    expect(err).toMatchObject({ status: 413, code: 'http_413', serverMessage: undefined })
    expect(errorMessage(err, 'Failed to create course. Please try again.')).toBe('Failed to create course. Please try again.')
  })

  it('aborts the request when the signal fires and rejects with code aborted', async () => {
    const controller = new AbortController()
    const p = upload('POST', '/courses', form(), { signal: controller.signal })
    xhr.progress(30, 100)
    controller.abort()
    expect(xhr.aborted).toBe(true)
    await expect(p).rejects.toMatchObject({ status: 0, code: 'aborted' })
  })

  it('does not start when the signal is already aborted', async () => {
    const controller = new AbortController()
    controller.abort()
    const createXhr = vi.fn(() => xhr)
    env.createXhr = createXhr
    await expect(upload('POST', '/courses', form(), { signal: controller.signal })).rejects.toMatchObject({ code: 'aborted' })
    expect(createXhr).not.toHaveBeenCalled()
  })

  it('rejects with code timeout when the request takes too long', async () => {
    const p = upload('POST', '/courses', form())
    xhr.ontimeout?.()
    await expect(p).rejects.toMatchObject({ status: 0, code: 'timeout' })
  })

  it('rejects with code network_error when the connection fails', async () => {
    const p = upload('POST', '/courses', form())
    xhr.onerror?.()
    await expect(p).rejects.toMatchObject({ status: 0, code: 'network_error' })
  })

  it('on an expired session clears it, tells the user and goes to the login page', async () => {
    const p = upload('POST', '/courses', form())
    xhr.answer(401, { message: 'Token expired', code: 'token_expired', expired: true })
    await expect(p).rejects.toMatchObject({ status: 401 })
    expect(getToken()).toBeNull()
    expect(storage.getItem('user')).toBeNull()
    expect(env.alert).toHaveBeenCalledWith('Your session has expired. Please log in again.')
    expect(env.goToLogin).toHaveBeenCalled()
  })

  it('on another 401 of a non-session call only logs it and keeps the session', async () => {
    const p = upload('PUT', '/courses/1', form())
    xhr.answer(401, { message: 'Unauthorized', code: 'unauthorized' })
    await expect(p).rejects.toMatchObject({ status: 401, code: 'unauthorized' })
    expect(getToken()).toBe('tkn')
    expect(env.goToLogin).not.toHaveBeenCalled()
    expect(env.log).toHaveBeenCalled()
  })

  it('stops listening to the signal once the answer is in', async () => {
    const controller = new AbortController()
    const p = upload('POST', '/courses', form(), { signal: controller.signal })
    xhr.answer(201, { id: 1 })
    await p
    controller.abort()
    expect(xhr.aborted).toBe(false)
  })
})
