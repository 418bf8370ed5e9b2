import { describe, expect, it } from 'vitest'
import { RegisterBody, ResetPasswordBody, UpdateProfileBody } from './identity.ts'
import { departmentsOf } from './constants.ts'

const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues.map((i) => i.message) ?? []

describe('UpdateProfileBody', () => {
  it('requires a branch and a department, also when the keys are missing', () => {
    expect(messages(UpdateProfileBody.safeParse({}))).toEqual(['Branch is required', 'Department is required'])
    expect(messages(UpdateProfileBody.safeParse({ branch: null, department: 'Service' }))).toEqual(['Branch is required'])
  })
  it('refuses a department the branch does not have', () => {
    expect(UpdateProfileBody.safeParse({ branch: 'Anchorage', department: 'Electricians' }).success).toBe(false)
    expect(UpdateProfileBody.safeParse({ branch: 'Seattle', department: 'Electricians' }).success).toBe(true)
  })
})

describe('departmentsOf', () => {
  it('leaves Electricians out of Anchorage and Tri-Cities', () => {
    expect(departmentsOf('Tri-Cities')).not.toContain('Electricians')
    expect(departmentsOf('Portland')).toContain('Electricians')
  })
})

describe('ResetPasswordBody', () => {
  it('names each missing password rule', () => {
    expect(messages(ResetPasswordBody.safeParse({ token: 't', password: 'abc' }))).toEqual([
      'Password must be at least 8 characters long',
      'Password must contain at least one uppercase letter',
      'Password must contain at least one number',
    ])
  })
})

describe('RegisterBody', () => {
  it('normalises the e-mail and defaults isAdmin to false', () => {
    const r = RegisterBody.parse({ name: ' Ann ', email: ' Ann@Example.COM ', password: 'Passw0rd' })
    expect(r).toMatchObject({ name: 'Ann', email: 'ann@example.com', isAdmin: false })
  })
  it('applies the reset password rules (upper, lower, digit)', () => {
    const messages = (password: string) => RegisterBody.safeParse({ name: 'Ann', email: 'ann@example.com', password }).error?.issues.map((i) => i.message)
    expect(messages('12345678')).toEqual(['Password must contain at least one lowercase letter', 'Password must contain at least one uppercase letter'])
    expect(messages('abcdefgh')).toEqual(['Password must contain at least one uppercase letter', 'Password must contain at least one number'])
    expect(messages('Abcdefg1')).toBeUndefined()
  })
})
