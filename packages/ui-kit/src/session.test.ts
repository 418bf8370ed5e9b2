import { beforeEach, describe, expect, it, vi } from 'vitest'
import { clearSession, getStoredUser, getToken, hasIdentity, readStoredUser, storeSession } from './session.ts'

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

beforeEach(() => {
  const map = new Map<string, string>()
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => map.set(k, v),
    removeItem: (k: string) => map.delete(k),
  })
})

describe('stored session', () => {
  it('keeps and returns the token and the user', () => {
    storeSession(user, 'abc')
    expect(getToken()).toBe('abc')
    expect(getStoredUser()).toEqual(user)
    clearSession()
    expect(getToken()).toBeNull()
    expect(getStoredUser()).toBeNull()
  })

  it('clears both items when the stored user is corrupt JSON', () => {
    localStorage.setItem('token', 'abc')
    localStorage.setItem('user', '{not json')
    expect(readStoredUser()).toBeNull()
    expect(getToken()).toBeNull()
  })

  it('accepts a user only with id, email and name', () => {
    expect(hasIdentity(user)).toBe(true)
    expect(hasIdentity({ id: 'x', email: 'e' })).toBe(false)
    expect(hasIdentity({ id: '', email: 'e', name: 'n' })).toBe(false)
    expect(hasIdentity(null)).toBe(false)
  })
})
