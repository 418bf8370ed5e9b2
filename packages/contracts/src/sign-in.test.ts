import { describe, expect, it } from 'vitest'
import { SIGN_IN_ERRORS, SignInProviderInput, isAcceptableIssuer, signInErrorMessage } from './sign-in.ts'

describe('isAcceptableIssuer', () => {
  it('takes https, and http only on the machine itself', () => {
    expect(isAcceptableIssuer('https://login.microsoftonline.com/tenant/v2.0')).toBe(true)
    expect(isAcceptableIssuer('http://127.0.0.1:4100')).toBe(true)
    expect(isAcceptableIssuer('http://localhost:8080/realms/acme')).toBe(true)
    expect(isAcceptableIssuer('http://login.example.com')).toBe(false)
    expect(isAcceptableIssuer('https://login.example.com/?a=1')).toBe(false)
    expect(isAcceptableIssuer('https://user:pw@login.example.com')).toBe(false)
    expect(isAcceptableIssuer('javascript:alert(1)')).toBe(false)
    expect(isAcceptableIssuer('not a url')).toBe(false)
  })
})

describe('SignInProviderInput', () => {
  it('fills the defaults: the usual scopes, e-mail and name claims, the company domain, passwords kept', () => {
    expect(SignInProviderInput.parse({ key: 'Okta', display_name: 'Okta', issuer: 'https://acme.okta.com', client_id: 'c' })).toEqual({
      key: 'okta',
      display_name: 'Okta',
      issuer: 'https://acme.okta.com',
      client_id: 'c',
      scopes: ['openid', 'profile', 'email', 'offline_access'],
      allowed_domains: [],
      claims: { name: 'name', email: 'email', employee_id: null, branch: null, department: null, hire_date: null, groups: null },
      roles: { admin_values: [], manager_values: [], manager_scope: 'own_branch' },
      local_passwords: true,
      admin_break_glass: true,
    })
  })
})

describe('signInErrorMessage', () => {
  it('names the provider in its message, and has a general one for a code it does not know', () => {
    expect(signInErrorMessage('domain_not_allowed', 'Acme Login')).toBe(SIGN_IN_ERRORS.domain_not_allowed('Acme Login'))
    expect(signInErrorMessage('<script>', 'Acme Login')).toBe('Signing in with Acme Login did not work. Please try again.')
  })
})
