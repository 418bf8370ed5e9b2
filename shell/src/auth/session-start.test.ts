import { describe, expect, it } from 'vitest'
import { decideStart } from './session-start.ts'

describe('decideStart', () => {
  it('validates a stored token and a user with id, email and name', () => {
    expect(decideStart('t', { id: '1', email: 'a@b.c', name: 'A' })).toBe('validate')
  })
  it('treats a missing token or an incomplete user as signed out', () => {
    expect(decideStart(null, { id: '1', email: 'a@b.c', name: 'A' })).toBe('anonymous')
    expect(decideStart('t', { id: '1', email: 'a@b.c' })).toBe('anonymous')
    expect(decideStart('t', null)).toBe('anonymous')
  })
})
