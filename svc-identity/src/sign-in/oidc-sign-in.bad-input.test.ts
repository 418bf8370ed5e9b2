import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { SignJWT, decodeJwt, decodeProtectedHeader, generateKeyPair } from 'jose'
import { CALLBACK, readCallback, signInThroughProvider, startSignIn, startSignInWorld, type SignInWorld } from './sign-in.test-support.ts'

let w: SignInWorld
beforeAll(async () => {
  w = await startSignInWorld()
})
afterAll(async () => {
  await w?.close()
})
afterEach(() => {
  w.provider.tamperTokens(null)
  vi.useRealTimers()
})

/** The last refusal the service logged. */
const lastRefusal = () => w.logs.findLast((l) => l.msg === 'company sign-in refused')

const userCount = async () => (await w.h.sql<{ n: number }>('select count(*)::int as n from users'))[0]!.n
const sessionCount = async () => (await w.h.sql<{ n: number }>('select count(*)::int as n from oidc_sessions'))[0]!.n

/** Secrets of one sign-in that must never reach a log line. */
const secretsSeen: string[] = []
const expectNothingSecretLogged = () => {
  const logged = JSON.stringify(w.logs)
  for (const s of secretsSeen) expect(logged).not.toContain(s)
  expect(logged).not.toMatch(/eyJ[\w-]+\.[\w-]+/)
}

/** A sign-in whose token endpoint answer is changed by `tamper`; expects a refusal with `code` and no trace. */
async function refusedWith(code: string, login: string, tamper?: Parameters<SignInWorld['provider']['tamperTokens']>[0]) {
  const users = await userCount()
  const sessions = await sessionCount()
  if (tamper)
    w.provider.tamperTokens(async (body, p) => {
      secretsSeen.push(String(body.id_token), String(body.access_token), String(body.refresh_token))
      return tamper(body, p)
    })
  const out = await signInThroughProvider(w, login)
  secretsSeen.push(new URLSearchParams(out.callbackQuery).get('code') ?? 'no-code')
  expect(out).toMatchObject({ status: 303, location: `/login?sso_error=${code}&provider=company`, refreshCookie: undefined, linkCookie: undefined })
  expect(await userCount()).toBe(users)
  expect(await sessionCount()).toBe(sessions)
  expect(lastRefusal()).toMatchObject({ level: 'warn', fields: { provider: 'company', code } })
  expectNothingSecretLogged()
  return out
}

const resign =
  (claims: Record<string, unknown>, header: Record<string, unknown> = {}) =>
  async (body: Record<string, unknown>) => ({
    ...body,
    id_token: await w.provider.resign(String(body.id_token), { claims, header }),
  })

describe('the callback refuses, creates no user and logs nothing of the tokens', () => {
  it('a tampered state', async () => {
    const start = await startSignIn(w.h)
    const back = await w.provider.browse(start.location, { login: 'tina' })
    const q = new URLSearchParams(back.search)
    q.set('state', `${q.get('state')}x`)
    const users = await userCount()
    const out = readCallback(await w.h.call('GET', `/auth/oidc/company/callback?${q}`, { headers: { cookie: start.attemptCookie } }))
    expect(out.error).toBe('state_mismatch')
    expect(await userCount()).toBe(users)
  })

  it('a callback without the attempt cookie, or with another attempt’s (login CSRF)', async () => {
    const mine = await startSignIn(w.h)
    const theirs = await startSignIn(w.h)
    const back = await w.provider.browse(theirs.location, { login: 'tina' })
    expect(readCallback(await w.h.call('GET', `/auth/oidc/company/callback${back.search}`)).error).toBe('state_mismatch')
    expect(readCallback(await w.h.call('GET', `/auth/oidc/company/callback${back.search}`, { headers: { cookie: mine.attemptCookie } })).error).toBe('state_mismatch')
    expect(readCallback(await w.h.call('GET', `/auth/oidc/company/callback${back.search}`, { headers: { cookie: 'portal_oidc=forged' } })).error).toBe('state_mismatch')
  })

  it('a replayed callback (the attempt is used once)', async () => {
    const start = await startSignIn(w.h)
    const back = await w.provider.browse(start.location, { login: 'tina' })
    const first = readCallback(await w.h.call('GET', `/auth/oidc/company/callback${back.search}`, { headers: { cookie: start.attemptCookie } }))
    expect(first.error).toBeNull()
    const again = readCallback(await w.h.call('GET', `/auth/oidc/company/callback${back.search}`, { headers: { cookie: start.attemptCookie } }))
    expect(again).toMatchObject({ error: 'expired', refreshCookie: undefined })
  })

  it('a replayed code in a new attempt: the provider refuses it', async () => {
    const first = await startSignIn(w.h)
    const used = await w.provider.browse(first.location, { login: 'tina' })
    expect(readCallback(await w.h.call('GET', `/auth/oidc/company/callback${used.search}`, { headers: { cookie: first.attemptCookie } })).error).toBeNull()
    const second = await startSignIn(w.h)
    const q = new URLSearchParams(used.search)
    q.set('state', new URL(second.location).searchParams.get('state')!)
    const out = readCallback(await w.h.call('GET', `/auth/oidc/company/callback?${q}`, { headers: { cookie: second.attemptCookie } }))
    expect(out).toMatchObject({ error: 'code_rejected', refreshCookie: undefined })
    expect(lastRefusal()!.fields).toMatchObject({ code: 'code_rejected', reason: 'token endpoint: invalid_grant (HTTP 400)' })
  })

  it('an expired code (the provider’s codes live a minute)', async () => {
    const start = await startSignIn(w.h)
    const back = await w.provider.browse(start.location, { login: 'tina' })
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * 60_000 })
    const out = readCallback(await w.h.call('GET', `/auth/oidc/company/callback${back.search}`, { headers: { cookie: start.attemptCookie } }))
    expect(out.error).toBe('code_rejected')
  })

  it('an attempt older than ten minutes', async () => {
    const start = await startSignIn(w.h)
    const back = await w.provider.browse(start.location, { login: 'tina' })
    w.h.advance(11 * 60_000)
    try {
      expect(readCallback(await w.h.call('GET', `/auth/oidc/company/callback${back.search}`, { headers: { cookie: start.attemptCookie } })).error).toBe('expired')
    } finally {
      w.h.advance(-11 * 60_000)
    }
  })

  it('an ID token from another issuer', async () => {
    await refusedWith('token_invalid', 'eve', resign({ iss: 'https://login.evil.test' }))
    expect(lastRefusal()!.fields!.reason).toContain('"iss"')
  })

  it('an ID token for another audience', async () => {
    await refusedWith('token_invalid', 'eve', resign({ aud: 'another-client' }))
    expect(lastRefusal()!.fields!.reason).toContain('"aud"')
  })

  it('an ID token with another nonce', async () => {
    await refusedWith('token_invalid', 'eve', resign({ nonce: 'not-the-one-sent' }))
    expect(lastRefusal()!.fields!.reason).toContain('"nonce"')
  })

  it('an expired ID token', async () => {
    const past = Math.floor(Date.now() / 1000) - 3600
    await refusedWith('token_invalid', 'eve', resign({ iat: past - 60, exp: past }))
    expect(lastRefusal()!.fields!.reason).toContain('"exp"')
  })

  it('an unsigned ID token (alg: none)', async () => {
    await refusedWith('token_invalid', 'eve', resign({}, { alg: 'none' }))
    expect(lastRefusal()!.fields!.reason).toContain('alg')
  })

  it('an ID token signed with a key the provider does not publish (under its key id)', async () => {
    const { privateKey } = await generateKeyPair('RS256')
    await refusedWith('token_invalid', 'eve', async (body) => {
      const token = String(body.id_token)
      return { ...body, id_token: await new SignJWT(decodeJwt(token)).setProtectedHeader(decodeProtectedHeader(token) as { alg: string }).sign(privateKey) }
    })
    expect(lastRefusal()!.fields!.reason).toContain('signature verification failed')
  })

  it('an e-mail outside the allowed domains', async () => {
    await refusedWith('domain_not_allowed', 'eve')
  })

  it('a missing e-mail claim', async () => {
    await refusedWith('email_missing', 'nomail')
  })

  it('an e-mail the provider says is not verified', async () => {
    await refusedWith('email_unverified', 'unverified')
  })

  it('denied consent (the person cancels at the provider)', async () => {
    const users = await userCount()
    const out = await signInThroughProvider(w, 'cancel')
    expect(out).toMatchObject({ error: 'denied', refreshCookie: undefined })
    expect(await userCount()).toBe(users)
  })

  it('an unknown provider, or a key that is not one', async () => {
    for (const path of ['/auth/oidc/nobody/start', '/auth/oidc/nobody/callback?code=x&state=y', '/auth/oidc/BAD%20KEY/start']) {
      const res = await w.h.call('GET', path)
      expect(res.status, path).toBe(303)
      expect(new URL(res.headers.get('location')!, CALLBACK).searchParams.get('sso_error')).toBe('unknown_provider')
    }
  })
})

describe('a provider that cannot be reached', () => {
  it('sends the browser back to the login page with a message, not an error page', async () => {
    const down = await startSignInWorld()
    try {
      await down.provider.stop()
      const res = await down.h.call('GET', '/auth/oidc/company/start')
      expect(res.status).toBe(303)
      expect(res.headers.get('location')).toBe('/login?sso_error=provider_unavailable&provider=company')
    } finally {
      await down.h.close()
    }
  })
})
