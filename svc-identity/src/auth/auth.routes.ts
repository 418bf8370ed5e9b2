import type { Context } from 'hono'
import { Hono } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import {
  AuthSuccess,
  ForgotPasswordBody,
  JwksResponse,
  LoginBody,
  LogoutResponse,
  MessageResponse,
  PublicConfig,
  RegisterBody,
  RegisterResponse,
  ResendVerificationBody,
  ResetPasswordBody,
  VerifyEmailBody,
} from '@portal/contracts'
import { clientAddress, doc, validate, type AppEnv, type TokenIssuer } from '@portal/server-kit'
import type { AuthService, SignedIn } from './auth.service.ts'
import { DEVICE_COOKIE, DEVICE_COOKIE_PATH } from './known-devices.ts'

/** The refresh token's cookie: HttpOnly (no script reads it), SameSite=Strict, sent only to the auth routes. */
export const REFRESH_COOKIE = 'portal_refresh'
/** Where the browser sends the cookie: the gateway's public path of these routes. */
export const REFRESH_COOKIE_PATH = '/api/auth'
/**
 * An identity from a company sign-in waiting for its account's password sign-in in this browser
 * (decision 0052): set by the sign-in's callback, sent only to the sign-in route. SameSite=Lax: it is
 * set at the end of a navigation that started at the provider.
 */
export const LINK_COOKIE = 'portal_link'

const tags = ['Sign-in']
const roles = 'anyone (no token)'
const session = { description: 'Signed in: the access token and the user; the refresh token is set as the HttpOnly `portal_refresh` cookie', schema: AuthSuccess }

export const authRoutes = (svc: AuthService, issuer: TokenIssuer, opts: { secureCookie: boolean }) => {
  const cookie = { path: REFRESH_COOKIE_PATH, httpOnly: true, sameSite: 'Strict', secure: opts.secureCookie } as const
  const signedIn = (c: Context<AppEnv>, out: SignedIn) => {
    setCookie(c, REFRESH_COOKIE, out.refresh.token, { ...cookie, maxAge: out.refresh.maxAgeSeconds })
    // The browser is known from now on: its sign-ins go first under load (decision 0042).
    if (out.device) setCookie(c, DEVICE_COOKIE, out.device.token, { ...cookie, path: DEVICE_COOKIE_PATH, maxAge: out.device.maxAgeSeconds })
    c.header('Cache-Control', 'no-store')
    return c.json(out.body)
  }
  const endSession = (c: Context<AppEnv>) => deleteCookie(c, REFRESH_COOKIE, cookie)
  return new Hono<AppEnv>()
    .get('/config', doc({ summary: 'Public settings the shell reads at start', tags, roles, responses: { 200: PublicConfig } }), (c) => c.json(svc.config()))
    .get('/jwks.json', doc({ summary: "Identity's public signing keys (the services verify access tokens with them)", tags, roles, responses: { 200: JwksResponse } }), (c) => {
      c.header('Cache-Control', 'public, max-age=300')
      return c.json(issuer.jwks())
    })
    .post(
      '/register',
      doc({
        summary: 'Registers an account (a verification code is e-mailed unless it is signed in at once)',
        tags,
        roles,
        responses: { 201: RegisterResponse, 409: null, 429: null },
      }),
      validate('json', RegisterBody),
      async (c) => c.json(await svc.register(c.req.valid('json'), clientAddress(c)), 201),
    )
    .post(
      '/verify-email',
      doc({ summary: 'Verifies the e-mailed code and signs in', tags, roles, responses: { 200: session, 400: null, 429: null } }),
      validate('json', VerifyEmailBody),
      async (c) => signedIn(c, await svc.verifyEmail(c.req.valid('json'))),
    )
    .post(
      '/resend-verification',
      doc({ summary: 'E-mails a new verification code', tags, roles, responses: { 200: MessageResponse, 400: null, 429: null } }),
      validate('json', ResendVerificationBody),
      async (c) => c.json(await svc.resendVerification(c.req.valid('json'))),
    )
    .post(
      '/login',
      doc({
        summary: 'Signs in with e-mail and password',
        tags,
        roles,
        responses: { 200: session, 401: null, 403: { description: 'The e-mail is not verified yet (`requiresVerification`)' }, 429: null },
      }),
      validate('json', LoginBody),
      async (c) => {
        const out = await svc.login(c.req.valid('json'), clientAddress(c), getCookie(c, DEVICE_COOKIE), getCookie(c, LINK_COOKIE))
        if (out.linked) deleteCookie(c, LINK_COOKIE, { path: DEVICE_COOKIE_PATH, httpOnly: true, sameSite: 'Lax', secure: opts.secureCookie })
        return signedIn(c, out)
      },
    )
    .post(
      '/refresh',
      doc({ summary: 'A new access token from the refresh cookie', tags, roles: 'the browser holding the refresh cookie', responses: { 200: session, 401: null } }),
      async (c) => {
        try {
          return signedIn(c, await svc.refresh(getCookie(c, REFRESH_COOKIE)))
        } catch (err) {
          endSession(c)
          throw err
        }
      },
    )
    .post(
      '/logout',
      doc({
        summary: "Ends the session of the refresh cookie (and names the provider's sign-out, if any)",
        tags,
        roles: 'the browser holding the refresh cookie',
        responses: { 200: LogoutResponse },
      }),
      async (c) => {
        const out = await svc.logout(getCookie(c, REFRESH_COOKIE))
        endSession(c)
        return c.json(out)
      },
    )
    .post(
      '/forgot-password',
      doc({ summary: 'E-mails a password reset link (the same answer for any address)', tags, roles, responses: { 200: MessageResponse, 503: null } }),
      validate('json', ForgotPasswordBody),
      (c) => c.json(svc.forgotPassword(c.req.valid('json'))),
    )
    .post(
      '/reset-password',
      doc({ summary: 'Sets a new password with a reset link', tags, roles, responses: { 200: MessageResponse, 400: null } }),
      validate('json', ResetPasswordBody),
      async (c) => c.json(await svc.resetPassword(c.req.valid('json'))),
    )
}
