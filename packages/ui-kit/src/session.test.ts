import { beforeEach, describe, expect, it, vi } from 'vitest'
import { clearSession, dropStoredToken, getStoredUser, getToken, hasIdentity, onSignedOutElsewhere, readStoredUser, storeSession } from './session.ts'
import { MemoryStorage } from './test-storage.ts'

const user = {
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  name: 'Ada',
  email: 'ada@example.com',
  is_admin: false,
  is_manager: false,
  manager_scope: { branches: [], departments: [] },
  branch: null,
  department: null,
  user_group: null,
  employee_id: null,
  hire_date: null,
  email_verified: true,
  created_at: '2026-01-01T00:00:00.000Z',
}

let storage: MemoryStorage
beforeEach(() => {
  storage = new MemoryStorage()
  vi.stubGlobal('localStorage', storage)
  clearSession()
})

describe('session', () => {
  it('keeps the token in memory only and the user in localStorage', () => {
    storeSession(user, 'abc')
    expect(getToken()).toBe('abc')
    expect(getStoredUser()).toEqual(user)
    expect([...storage.map.keys()]).toEqual(['user'])
    // A profile change keeps the token.
    storeSession({ ...user, name: 'Ada L.' })
    expect(getToken()).toBe('abc')
    clearSession()
    expect(getToken()).toBeNull()
    expect(getStoredUser()).toBeNull()
  })

  it('shares the token among the copies of this module each remote bundles', async () => {
    storeSession(user, 'abc')
    vi.resetModules()
    const copy = await import('./session.ts')
    expect(copy.getToken()).toBe('abc')
    copy.clearSession()
    expect(getToken()).toBeNull()
  })

  it('never reads a token an earlier version left in localStorage, and removes it', () => {
    storage.setItem('token', 'left-over')
    storage.setItem('user', JSON.stringify(user))
    expect(getToken()).toBeNull()
    dropStoredToken()
    expect(storage.getItem('token')).toBeNull()
    expect(getStoredUser()).toEqual(user)
    storage.setItem('token', 'left-over')
    clearSession()
    expect(storage.getItem('token')).toBeNull()
  })

  it('clears the session when the stored user is corrupt JSON', () => {
    storeSession(user, 'abc')
    storage.setItem('user', '{not json')
    expect(readStoredUser()).toBeNull()
    expect(getToken()).toBeNull()
    expect(storage.getItem('user')).toBeNull()
  })

  it('accepts a user only with id, email and name', () => {
    expect(hasIdentity(user)).toBe(true)
    expect(hasIdentity({ id: 'x', email: 'e' })).toBe(false)
    expect(hasIdentity({ id: '', email: 'e', name: 'n' })).toBe(false)
    expect(hasIdentity(null)).toBe(false)
  })

  it('drops the token when another tab signs out (its logout removes the stored user), not when it stores the user anew', () => {
    const page = new EventTarget()
    vi.stubGlobal('addEventListener', page.addEventListener.bind(page))
    vi.stubGlobal('removeEventListener', page.removeEventListener.bind(page))
    const ended = vi.fn()
    const off = onSignedOutElsewhere(ended)
    storeSession(user, 'abc')
    const storageEvent = (key: string | null) => Object.assign(new Event('storage'), { key })
    page.dispatchEvent(storageEvent('user')) // another tab refreshed: the user is still there
    expect([getToken(), ended.mock.calls.length]).toEqual(['abc', 0])
    storage.removeItem('user') // another tab signed out
    page.dispatchEvent(storageEvent('user'))
    expect([getToken(), ended.mock.calls.length]).toEqual([null, 1])
    off()
    storeSession(user, 'def')
    storage.removeItem('user')
    page.dispatchEvent(storageEvent(null))
    expect(getToken()).toBe('def')
  })
})
