import { describe, expect, it } from 'vitest'
import { decideStart } from './session-start.ts'

describe('decideStart', () => {
  it('validates the session of a stored user with id, email and name (the token is not stored: the refresh cookie brings one)', () => {
    expect(decideStart({ id: '1', email: 'a@b.c', name: 'A' })).toBe('validate')
  })
  it('treats a missing or incomplete user as signed out', () => {
    expect(decideStart({ id: '1', email: 'a@b.c' })).toBe('anonymous')
    expect(decideStart({ id: '', email: 'a@b.c', name: 'A' })).toBe('anonymous')
    expect(decideStart(null)).toBe('anonymous')
  })
})
