import { LogoutResponse, signInErrorMessage, type PublicSignInProvider } from '@portal/contracts'

/** What the login page says when a company sign-in or a sign-out brought the browser back to it. */
export type LoginNotice = { tone: 'error' | 'info'; text: string } | null

/** The provider's own sign-out the portal offers after its logout. */
export interface ProviderSignOut {
  provider: string
  url: string
}

/**
 * The notice of the login page's address: `sso_error` (a code the contract explains, naming the
 * provider of `provider`), or `signed_out` (back from the provider's sign-out). Null while the
 * providers load, so the message names the provider the first time it shows.
 */
export function noticeOf(search: string, providers: readonly PublicSignInProvider[] | null): LoginNotice {
  const params = new URLSearchParams(search)
  const code = params.get('sso_error')
  if (code) {
    if (providers === null) return null
    const key = params.get('provider')
    const name = providers.find((p) => p.key === key)?.display_name ?? 'your company sign-in'
    return { tone: 'error', text: signInErrorMessage(code, name) }
  }
  if (params.get('signed_out') !== null) return { tone: 'info', text: 'You are signed out.' }
  return null
}

/** Whether the login page finishes a company sign-in (the callback sent the browser here with the session in its cookie). */
export const isSignInDone = (search: string) => new URLSearchParams(search).get('sso') === 'done'

const isWebAddress = (url: string) => {
  try {
    const { protocol } = new URL(url)
    return protocol === 'https:' || protocol === 'http:'
  } catch {
    return false
  }
}

/** The provider's sign-out of a logout's answer, when it offers one (a web address only). */
export function providerSignOutOf(body: unknown): ProviderSignOut | null {
  const parsed = LogoutResponse.safeParse(body)
  if (!parsed.success || !parsed.data.end_session_url || !parsed.data.provider || !isWebAddress(parsed.data.end_session_url)) return null
  return { provider: parsed.data.provider, url: parsed.data.end_session_url }
}

/**
 * Ends the session on the server (revokes its refresh token, clears the cookie) and returns the
 * provider's sign-out it offers, if any; never fails (offline, the refresh token expires on its own).
 */
export async function endPortalSession(fetchImpl: typeof fetch = (...a) => globalThis.fetch(...a)): Promise<ProviderSignOut | null> {
  try {
    const res = await fetchImpl('/api/auth/logout', { method: 'POST', headers: { Accept: 'application/json' }, credentials: 'same-origin', keepalive: true })
    return providerSignOutOf(await res.json().catch(() => null))
  } catch {
    return null
  }
}
