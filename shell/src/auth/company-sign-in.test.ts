import { describe, expect, it } from 'vitest'
import { SIGN_IN_ERRORS } from '@portal/contracts'
import { endPortalSession, isSignInDone, noticeOf, providerSignOutOf } from './company-sign-in.ts'

const providers = [{ key: 'company', display_name: 'Acme Login', start_url: '/api/auth/oidc/company/start' }]

describe('the login page’s notice', () => {
  it('explains a company sign-in’s error by its code, naming the provider', () => {
    expect(noticeOf('?sso_error=domain_not_allowed&provider=company', providers)).toEqual({ tone: 'error', text: SIGN_IN_ERRORS.domain_not_allowed('Acme Login') })
    expect(noticeOf('?sso_error=state_mismatch&provider=company', providers)!.text).toBe(SIGN_IN_ERRORS.state_mismatch())
  })
  it('waits for the providers, then names an unknown one generally', () => {
    expect(noticeOf('?sso_error=denied&provider=company', null)).toBeNull()
    expect(noticeOf('?sso_error=denied&provider=gone', [])!.text).toBe(SIGN_IN_ERRORS.denied('your company sign-in'))
  })
  it('never shows words of the address: an unknown code gets the general message', () => {
    expect(noticeOf('?sso_error=Call%20555-0100%20now&provider=company', providers)!.text).toBe('Signing in with Acme Login did not work. Please try again.')
  })
  it('says so when the provider’s sign-out sent the browser back, and nothing otherwise', () => {
    expect(noticeOf('?signed_out=1', providers)).toEqual({ tone: 'info', text: 'You are signed out.' })
    expect(noticeOf('', providers)).toBeNull()
  })
  it('knows the arrival that finishes a company sign-in', () => {
    expect(isSignInDone('?sso=done')).toBe(true)
    expect(isSignInDone('?sso=other')).toBe(false)
  })
})

describe('the provider’s sign-out after a logout', () => {
  it('is offered when the answer has an end-session address on the web', () => {
    expect(providerSignOutOf({ message: 'Logged out', end_session_url: 'https://idp.test/logout?x=1', provider: 'Acme Login' })).toEqual({
      provider: 'Acme Login',
      url: 'https://idp.test/logout?x=1',
    })
  })
  it('is not offered for a password session, a malformed answer or an address that is not a web page', () => {
    expect(providerSignOutOf({ message: 'Logged out' })).toBeNull()
    expect(providerSignOutOf('nope')).toBeNull()
    expect(providerSignOutOf({ message: 'Logged out', end_session_url: 'javascript:alert(1)', provider: 'X' })).toBeNull()
  })
  it('ends the portal session with POST /api/auth/logout and never fails', async () => {
    const calls: [string, RequestInit | undefined][] = []
    const answer =
      (body: unknown): typeof fetch =>
      async (url, init) => {
        calls.push([String(url), init])
        return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })
      }
    expect(await endPortalSession(answer({ message: 'Logged out', end_session_url: 'https://idp.test/end', provider: 'Acme Login' }))).toEqual({
      provider: 'Acme Login',
      url: 'https://idp.test/end',
    })
    expect(calls[0]).toMatchObject(['/api/auth/logout', { method: 'POST', credentials: 'same-origin', keepalive: true }])
    expect(await endPortalSession(async () => Promise.reject(new TypeError('offline')))).toBeNull()
  })
})
