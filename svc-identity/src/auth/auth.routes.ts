import { Hono } from 'hono'
import {
  ForgotPasswordBody,
  LoginBody,
  RegisterBody,
  ResendVerificationBody,
  ResetPasswordBody,
  VerifyEmailBody,
} from '@portal/contracts'
import { clientAddress, validate, type AppEnv, type TokenIssuer } from '@portal/server-kit'
import type { AuthService } from './auth.service.ts'

export const authRoutes = (svc: AuthService, issuer: TokenIssuer) =>
  new Hono<AppEnv>()
    .get('/config', (c) => c.json(svc.config()))
    .get('/jwks.json', (c) => {
      c.header('Cache-Control', 'public, max-age=300')
      return c.json(issuer.jwks())
    })
    .post('/register', validate('json', RegisterBody), async (c) => c.json(await svc.register(c.req.valid('json')), 201))
    .post('/verify-email', validate('json', VerifyEmailBody), async (c) => c.json(await svc.verifyEmail(c.req.valid('json'))))
    .post('/resend-verification', validate('json', ResendVerificationBody), async (c) =>
      c.json(await svc.resendVerification(c.req.valid('json'))),
    )
    .post('/login', validate('json', LoginBody), async (c) => c.json(await svc.login(c.req.valid('json'), clientAddress(c))))
    .post('/forgot-password', validate('json', ForgotPasswordBody), async (c) =>
      c.json(await svc.forgotPassword(c.req.valid('json'))),
    )
    .post('/reset-password', validate('json', ResetPasswordBody), async (c) =>
      c.json(await svc.resetPassword(c.req.valid('json'))),
    )
