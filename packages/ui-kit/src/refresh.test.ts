import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createApiClient, type ApiEnvironment } from './api.ts'
import { expiresSoon, refreshSession, SESSION_REFRESHED_EVENT, tokenTimes } from './refresh.ts'
import { clearSession, getToken, storeSession } from './session.ts'
import { MemoryStorage } from './test-storage.ts'

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url')
/** A token shaped like identity's: only its claims matter to the client. */
const jwt = (secondsLeft: number, lifetime = 900, sub = 'u') => {
  const now = Math.floor(Date.now() / 1000)
  const exp = now + secondsLeft
  return [b64({ alg: 'EdDSA' }), b64({ sub, iat: exp - lifetime, exp }), 'sig'].join('.')
}
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
const user = {
  id: '6f1c2a34-1b2c-4d5e-8f90-123456789abc',
  name: 'Tess',
  email: 'tess@example.com',
  is_admin: false,
  is_manager: false,
  manager_scope: { branches: [], departments: [] },
  branch: null,
  department: null,
  user_group: null,
  employee_id: null,
  hire_date: null,
  email_verified: true,
  created_at: '2025-01-01T00:00:00.000Z',
}
const expiredBody = { message: 'Your session has expired. Please log in again.', code: 'token_expired', expired: true }

let storage: MemoryStorage
let env: ApiEnvironment
let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>
/** Calls seen by the fake server: [path, bearer token]. */
let calls: [string, string | undefined][]
let fresh: string

/** The page's access token (in memory, decision 0019), as a sign-in or an earlier refresh left it. */
const keepToken = (token: string) => storeSession(user, token)

beforeEach(() => {
  storage = new MemoryStorage()
  vi.stubGlobal('localStorage', storage)
  clearSession()
  storage.setItem('user', JSON.stringify(user))
  fresh = jwt(900, 900, 'fresh')
  calls = []
  fetchMock = vi.fn<typeof fetch>()
  env = { fetch: fetchMock, alert: vi.fn(), goToLogin: vi.fn(), log: vi.fn(), sleep: vi.fn(async () => undefined) }
})

/** A server whose refresh answers `refresh` and whose other routes accept only `fresh`. */
const serve = (refresh: () => Response | Promise<Response>) =>
  fetchMock.mockImplementation(async (url, init) => {
    const path = String(url)
    const auth = (init?.headers as Record<string, string> | undefined)?.Authorization?.replace('Bearer ', '')
    calls.push([path, auth])
    if (path === '/api/auth/refresh') return refresh()
    return auth === fresh ? json(200, { ok: true }) : json(401, expiredBody)
  })
const client = () => createApiClient('/api', () => env)

describe('token times', () => {
  it('reads expiry and lifetime from the claims, and says when a token ends soon', () => {
    const t = tokenTimes(jwt(600, 900))!
    expect(t.lifetime).toBe(900_000)
    expect(expiresSoon(jwt(600, 900))).toBe(false)
    expect(expiresSoon(jwt(59, 900))).toBe(true) // within a minute
    expect(expiresSoon(jwt(-5, 900))).toBe(true)
    expect(expiresSoon(jwt(2, 10))).toBe(true) // within a quarter of a short lifetime
    expect(expiresSoon(jwt(8, 10))).toBe(false)
    expect(expiresSoon('not-a-jwt')).toBe(false)
  })
})

describe('session refresh in the API client', () => {
  it('refreshes a token about to end before the call, stores the new one and tells the page', async () => {
    keepToken(jwt(30))
    serve(() => json(200, { token: fresh, user: { ...user, name: 'Tess Renamed' } }))
    // The page (window) the shell listens on.
    const page = new EventTarget()
    vi.stubGlobal('dispatchEvent', page.dispatchEvent.bind(page))
    const seen: unknown[] = []
    page.addEventListener(SESSION_REFRESHED_EVENT, (e) => seen.push((e as CustomEvent).detail))
    await expect(client().get('/exams')).resolves.toEqual({ ok: true })
    vi.unstubAllGlobals()
    expect(calls).toEqual([
      ['/api/auth/refresh', undefined],
      ['/api/exams', fresh],
    ])
    expect(fetchMock.mock.calls[0]![1]).toMatchObject({ method: 'POST', credentials: 'same-origin' })
    expect(getToken()).toBe(fresh)
    // Only the user is stored; the token stays in memory.
    expect(storage.getItem('token')).toBeNull()
    expect(JSON.parse(storage.getItem('user')!).name).toBe('Tess Renamed')
    expect(seen).toEqual([expect.objectContaining({ name: 'Tess Renamed' })])
  })

  it('on a 401 expired refreshes once and sends the call again, without alert or sign-out', async () => {
    keepToken(jwt(600)) // looks fine, but the server says stale (roles changed)
    serve(() => json(200, { token: fresh, user }))
    await expect(client().post('/exams/1/attempts', {})).resolves.toEqual({ ok: true })
    expect(calls.map((c) => c[0])).toEqual(['/api/exams/1/attempts', '/api/auth/refresh', '/api/exams/1/attempts'])
    expect(env.alert).not.toHaveBeenCalled()
    expect(env.goToLogin).not.toHaveBeenCalled()
  })

  it('shares one refresh among concurrent calls, also of separate clients (each remote bundles its own)', async () => {
    keepToken(jwt(-10))
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    serve(async () => (await gate, json(200, { token: fresh, user })))
    const pending = [client().get('/a'), client().get('/b'), createApiClient('/api', () => env).get('/c'), client().get('/users/me')]
    await new Promise((r) => setTimeout(r, 10))
    release()
    await expect(Promise.all(pending)).resolves.toHaveLength(4)
    expect(calls.filter((c) => c[0] === '/api/auth/refresh')).toHaveLength(1)
    expect(calls.filter((c) => c[0] !== '/api/auth/refresh').every((c) => c[1] === fresh)).toBe(true)
  })

  it('uses a token another call of the page already refreshed instead of presenting the old refresh cookie again', async () => {
    const stale = jwt(-10)
    keepToken(fresh)
    serve(() => json(500, {}))
    await expect(refreshSession('/api', stale, env.fetch)).resolves.toEqual({ token: fresh })
    expect(calls).toEqual([])
  })

  it('takes turns with other tabs through a Web Lock when the browser has one', async () => {
    keepToken(jwt(-10))
    const names: string[] = []
    vi.stubGlobal('navigator', { locks: { request: async <T>(name: string, cb: () => Promise<T>) => (names.push(name), cb()) } })
    serve(() => json(200, { token: fresh, user }))
    await client().get('/exams')
    vi.stubGlobal('navigator', undefined)
    expect(names).toEqual(['portal.session-refresh'])
  })

  it('when the refresh is refused, handles the call’s 401 exactly as the spec says (clear, alert, login)', async () => {
    keepToken(jwt(600))
    serve(() => json(401, { message: 'Your session has expired. Please log in again.', code: 'refresh_invalid', expired: true }))
    await expect(client().get('/exams')).rejects.toMatchObject({ status: 401, code: 'token_expired' })
    expect(calls.map((c) => c[0])).toEqual(['/api/exams', '/api/auth/refresh'])
    expect(getToken()).toBeNull()
    expect(storage.getItem('user')).toBeNull()
    expect(env.alert).toHaveBeenCalledWith('Your session has expired. Please log in again.')
    expect(env.goToLogin).toHaveBeenCalledTimes(1)
  })

  it('does not refresh again after a refused refresh before the call', async () => {
    keepToken(jwt(-10))
    serve(() => json(401, { message: 'x', code: 'refresh_invalid', expired: true }))
    await expect(client().get('/exams')).rejects.toMatchObject({ status: 401 })
    expect(calls.map((c) => c[0])).toEqual(['/api/auth/refresh', '/api/exams'])
    expect(env.goToLogin).toHaveBeenCalledTimes(1)
  })

  it('keeps the session when the refresh cannot reach the server (a network error, not a sign-out)', async () => {
    keepToken(jwt(600))
    fetchMock.mockImplementation(async (url) => {
      if (String(url) === '/api/auth/refresh') throw new TypeError('offline')
      return json(401, expiredBody)
    })
    await expect(client().get('/exams')).rejects.toMatchObject({ status: 0, code: 'network_error' })
    expect(getToken()).not.toBeNull()
    expect(env.goToLogin).not.toHaveBeenCalled()
  })

  it('never refreshes for a 401 without the expired flag, nor for the auth calls themselves', async () => {
    keepToken(jwt(-10))
    fetchMock.mockImplementation(async () => json(401, { message: 'Invalid email or password', code: 'invalid_credentials' }))
    await expect(client().post('/auth/login', {})).rejects.toMatchObject({ status: 401 })
    keepToken(jwt(600))
    await expect(client().get('/admin/user-groups')).rejects.toMatchObject({ status: 401 })
    expect(fetchMock.mock.calls.map((c) => String(c[0]))).toEqual(['/api/auth/login', '/api/admin/user-groups'])
  })
})

describe('a page loaded anew', () => {
  it('has no token until the refresh cookie brings one, with the user as identity has them now (the shell asks at start)', async () => {
    expect(getToken()).toBeNull()
    serve(() => json(200, { token: fresh, user: { ...user, is_manager: true } }))
    await expect(refreshSession('/api', null, env.fetch)).resolves.toEqual({ token: fresh })
    expect(calls).toEqual([['/api/auth/refresh', undefined]])
    expect(getToken()).toBe(fresh)
    expect(storage.getItem('token')).toBeNull()
    expect(JSON.parse(storage.getItem('user')!).is_manager).toBe(true)
  })

  it('says when the session is over, and when the server cannot be reached', async () => {
    serve(() => json(401, { message: 'Your session has expired. Please log in again.', code: 'refresh_invalid', expired: true }))
    await expect(refreshSession('/api', null, env.fetch)).resolves.toBe('ended')
    fetchMock.mockImplementation(async () => {
      throw new TypeError('offline')
    })
    await expect(refreshSession('/api', null, env.fetch)).resolves.toBe('unreachable')
    expect(getToken()).toBeNull()
  })
})
