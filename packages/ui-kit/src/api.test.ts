import { beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { ApiError, classify401, createApiClient, errorMessage, type ApiEnvironment } from './api.ts'
import { clearSession, getToken, storeSession, type StoredUser } from './session.ts'
import { MemoryStorage } from './test-storage.ts'

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

let storage: MemoryStorage
let env: ApiEnvironment
let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>

beforeEach(() => {
  storage = new MemoryStorage()
  vi.stubGlobal('localStorage', storage)
  clearSession()
  storeSession({ id: 'u' } as StoredUser, 'tkn')
  fetchMock = vi.fn<typeof fetch>()
  env = { fetch: fetchMock, alert: vi.fn(), goToLogin: vi.fn(), log: vi.fn(), sleep: vi.fn(async () => undefined) }
})

const client = () => createApiClient('/api', () => env)

const busy = (retryAfter: string) =>
  new Response(JSON.stringify({ message: 'The server is busy, please try again in a moment', code: 'busy' }), {
    status: 429,
    headers: { 'Content-Type': 'application/json', 'Retry-After': retryAfter },
  })

describe('a sign-in told the hashes are busy (429 busy, Retry-After)', () => {
  it('waits what the server asks and sends it again, so the person only sees a slower sign-in', async () => {
    fetchMock
      .mockResolvedValueOnce(busy('2'))
      .mockResolvedValueOnce(busy('1'))
      .mockResolvedValueOnce(json(200, { token: 't' }))
    await expect(client().post('/auth/login', { email: 'a@b.c', password: 'x' })).resolves.toEqual({ token: 't' })
    expect(fetchMock).toHaveBeenCalledTimes(3)
    expect(vi.mocked(env.sleep).mock.calls.map(([ms]) => ms)).toEqual([2000, 1000])
  })

  it('gives up with the server message and its Retry-After once waiting would pass the budget', async () => {
    fetchMock.mockImplementation(async () => busy('5'))
    const err = await client()
      .post('/auth/login', {})
      .catch((e: unknown) => e)
    expect(err).toMatchObject({ status: 429, code: 'busy', retryAfterSeconds: 5, serverMessage: 'The server is busy, please try again in a moment' })
    expect(vi.mocked(env.sleep).mock.calls.reduce((sum, [ms]) => sum + ms, 0)).toBeLessThanOrEqual(20_000)
    expect(fetchMock).toHaveBeenCalledTimes(5)
  })

  it('does not resend other 429s or calls outside /auth', async () => {
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ message: 'Too many attempts', code: 'too_many_attempts' }), { status: 429, headers: { 'Retry-After': '60' } }))
    await expect(client().post('/auth/login', {})).rejects.toMatchObject({ status: 429, retryAfterSeconds: 60 })
    fetchMock.mockResolvedValue(busy('1'))
    await expect(client().post('/exams/1/submit', {})).rejects.toMatchObject({ status: 429, code: 'busy' })
    expect(fetchMock).toHaveBeenCalledTimes(2)
    expect(env.sleep).not.toHaveBeenCalled()
  })
})

describe('api client', () => {
  it('sends the bearer token and JSON body', async () => {
    fetchMock.mockResolvedValue(json(200, { ok: true }))
    await client().post('/x', { a: 1 })
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit & { headers: Record<string, string> }]
    expect(url).toBe('/api/x')
    expect(init.headers.Authorization).toBe('Bearer tkn')
    expect(init.headers['Content-Type']).toBe('application/json')
    expect(init.body).toBe('{"a":1}')
  })

  it('parses the answer with the given schema', async () => {
    fetchMock.mockResolvedValue(json(200, { n: 1 }))
    await expect(client().get('/x', z.object({ n: z.number() }))).resolves.toEqual({ n: 1 })
    fetchMock.mockResolvedValue(json(200, { n: 'one' }))
    await expect(client().get('/x', z.object({ n: z.number() }))).rejects.toMatchObject({ code: 'invalid_response' })
  })

  it('returns a file answer as a Blob with the bearer token', async () => {
    fetchMock.mockResolvedValue(new Response(new Uint8Array([37, 80, 68, 70]), { status: 200, headers: { 'Content-Type': 'application/pdf' } }))
    const blob = await client().getFile('/technician/certifications/1/file')
    expect(blob.type).toBe('application/pdf')
    expect(blob.size).toBe(4)
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit & { headers: Record<string, string> }]
    expect(init.headers.Authorization).toBe('Bearer tkn')
  })

  it('turns a failed file answer into an ApiError with the server message', async () => {
    fetchMock.mockResolvedValue(json(404, { message: 'No file has been uploaded for this certification', code: 'not_found' }))
    await expect(client().getFile('/technician/certifications/1/file')).rejects.toMatchObject({ status: 404, serverMessage: 'No file has been uploaded for this certification' })
  })

  it('turns an error body into an ApiError with the server message', async () => {
    fetchMock.mockResolvedValue(json(409, { message: 'Email already registered', code: 'email_taken' }))
    const err = await client()
      .post('/auth/register', {})
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({ status: 409, code: 'email_taken', serverMessage: 'Email already registered' })
    expect(errorMessage(err, 'Registration failed. Please try again.')).toBe('Email already registered')
  })

  it('falls back to the default text when the server sent no message', async () => {
    fetchMock.mockResolvedValue(new Response('oops', { status: 502 }))
    const err = await client()
      .get('/users')
      .catch((e: unknown) => e)
    expect(errorMessage(err, 'Failed to fetch users')).toBe('Failed to fetch users')
    fetchMock.mockRejectedValue(new TypeError('network'))
    const err2 = await client()
      .get('/users')
      .catch((e: unknown) => e)
    expect(err2).toMatchObject({ status: 0, code: 'network_error' })
  })

  it('on a 401 with expired:true clears the session, alerts and goes to /login', async () => {
    fetchMock.mockResolvedValue(json(401, { message: 'Token expired', code: 'token_expired', expired: true }))
    await expect(client().get('/users')).rejects.toBeInstanceOf(ApiError)
    expect(getToken()).toBeNull()
    expect(storage.getItem('user')).toBeNull()
    expect(env.alert).toHaveBeenCalledWith('Your session has expired. Please log in again.')
    expect(env.goToLogin).toHaveBeenCalled()
  })

  it('on a 401 from /users/me clears the session and goes to /login without an alert', async () => {
    fetchMock.mockResolvedValue(json(401, { message: 'Unauthorized', code: 'unauthorized' }))
    await expect(client().get('/users/me')).rejects.toBeInstanceOf(ApiError)
    expect(getToken()).toBeNull()
    expect(env.alert).not.toHaveBeenCalled()
    expect(env.goToLogin).toHaveBeenCalled()
  })

  it('only logs any other 401', async () => {
    fetchMock.mockResolvedValue(json(401, { message: 'Unauthorized', code: 'unauthorized' }))
    await expect(client().get('/admin/user-groups')).rejects.toBeInstanceOf(ApiError)
    expect(getToken()).toBe('tkn')
    expect(env.goToLogin).not.toHaveBeenCalled()
    expect(env.log).toHaveBeenCalled()
  })
})

describe('classify401', () => {
  it('names the session URLs of spec §8', () => {
    expect(classify401('/auth/login', {})).toBe('session')
    expect(classify401('/auth/register', {})).toBe('session')
    expect(classify401('/users/me', {})).toBe('session')
    expect(classify401('/users/5/stats', {})).toBe('session')
    expect(classify401('/users', {})).toBe('log')
    expect(classify401('/users', { message: 'x', code: 'y', expired: true })).toBe('expired')
  })
})
