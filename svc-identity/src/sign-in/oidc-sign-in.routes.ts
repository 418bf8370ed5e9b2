import type { Context } from 'hono'
import { Hono } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import { PublicSignInProvidersResponse, SIGN_IN_PROVIDER_KEY } from '@portal/contracts'
import { clientAddress, doc, type AppEnv } from '@portal/server-kit'
import { LINK_COOKIE, REFRESH_COOKIE, REFRESH_COOKIE_PATH } from '../auth/index.ts'
import type { OidcSignIn } from './oidc-sign-in.service.ts'
import { SignInRefused } from './provider-errors.ts'

/**
 * The attempt cookie: binds a "Sign in with ..." click to the browser that made it. HttpOnly, sent
 * only to these routes; SameSite=Lax, since the callback is a navigation that starts at the provider.
 */
export const ATTEMPT_COOKIE = 'portal_oidc'
const ATTEMPT_COOKIE_PATH = '/api/auth/oidc'

/** Where the login page finishes a company sign-in (it fetches the session with the refresh cookie). */
const tags = ['Company sign-in']
const roles = 'anyone (a browser navigation)'

const DONE = '/login?sso=done'
const failed = (code: string, key: string) => `/login?${new URLSearchParams({ sso_error: code, provider: key })}`

/**
 * `/auth/oidc`: the public list of providers, and the flow's two browser navigations. They answer
 * with redirects only, to the provider or back to the login page (an error as a code the page
 * explains), never with an error page.
 */
export const oidcSignInRoutes = (svc: OidcSignIn, opts: { secureCookie: boolean }) => {
  const attemptCookie = { path: ATTEMPT_COOKIE_PATH, httpOnly: true, sameSite: 'Lax', secure: opts.secureCookie } as const
  const back = (c: Context<AppEnv>, location: string) => {
    c.header('Cache-Control', 'no-store')
    return c.redirect(location, 303)
  }
  const refused = (c: Context<AppEnv>, key: string, err: unknown) => {
    if (err instanceof SignInRefused) return back(c, failed(err.code, key))
    c.get('logger').error('company sign-in failed', { err: err as Error, provider: key })
    return back(c, failed('failed', key))
  }
  const validKey = (key: string) => SIGN_IN_PROVIDER_KEY.test(key)

  return new Hono<AppEnv>()
    .get(
      '/providers',
      doc({ summary: 'The company sign-in providers the login page offers', tags, roles: 'anyone (no token)', responses: { 200: PublicSignInProvidersResponse } }),
      async (c) => {
        c.header('Cache-Control', 'no-store')
        return c.json({ providers: await svc.publicList() })
      },
    )
    .get(
      '/:key/start',
      doc({
        summary: "Starts a company sign-in: to the provider's sign-in page",
        tags,
        roles,
        responses: { 303: { description: 'To the provider, or back to the login page with `sso_error`' } },
      }),
      async (c) => {
        const key = c.req.param('key')
        if (!validKey(key)) return back(c, failed('unknown_provider', ''))
        try {
          const out = await svc.start(key, clientAddress(c))
          setCookie(c, ATTEMPT_COOKIE, out.attemptToken, { ...attemptCookie, maxAge: out.maxAgeSeconds })
          return back(c, out.location)
        } catch (err) {
          return refused(c, key, err)
        }
      },
    )
    .get(
      '/:key/callback',
      doc({
        summary: "The provider's answer: signs in and goes back to the login page",
        tags,
        roles,
        responses: { 303: { description: 'To the login page: `sso=done` (the refresh cookie set) or `sso_error`' } },
      }),
      async (c) => {
        const key = c.req.param('key')
        if (!validKey(key)) return back(c, failed('unknown_provider', ''))
        const query = new URL(c.req.url).searchParams
        const attempt = getCookie(c, ATTEMPT_COOKIE)
        // The attempt is over whatever happens next: its cookie goes.
        deleteCookie(c, ATTEMPT_COOKIE, attemptCookie)
        try {
          const out = await svc.callback(key, query, attempt)
          if (out.kind === 'link-pending') {
            setCookie(c, LINK_COOKIE, out.linkToken, {
              path: `${REFRESH_COOKIE_PATH}/login`,
              httpOnly: true,
              sameSite: 'Lax',
              secure: opts.secureCookie,
              maxAge: out.linkMaxAgeSeconds,
            })
            return back(c, failed('link_required', key))
          }
          const { refresh } = out.session
          setCookie(c, REFRESH_COOKIE, refresh.token, { path: REFRESH_COOKIE_PATH, httpOnly: true, sameSite: 'Strict', secure: opts.secureCookie, maxAge: refresh.maxAgeSeconds })
          return back(c, DONE)
        } catch (err) {
          return refused(c, key, err)
        }
      },
    )
}
