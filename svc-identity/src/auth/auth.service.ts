import { LockMode, UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql'
import {
  MESSAGES,
  RESET_TOKEN_TTL_MINUTES,
  VERIFICATION_CODE_MAX_TRIES,
  VERIFICATION_CODE_TTL_MINUTES,
  VERIFICATION_RESEND_SECONDS,
  type AuthSuccess,
  type PublicConfig,
} from '@portal/contracts'
import { AppError, badRequest, conflict, forbidden, notFound, publicUrl, recordEvent, tooManyRequests, unauthorized } from '@portal/server-kit'
import type { IdentityContext } from '../context.ts'
import { UserEntity, toUserDto, userFacts } from '../users/user.entity.ts'
import { userRepository } from '../users/user.repository.ts'
import { PasswordResetTokenEntity, VerificationCodeEntity } from './auth.entity.ts'
import { resetTokenRepository, throttleRepository, verificationCodeRepository } from './auth.repository.ts'
import { hashCode, hashToken, newResetToken, newSalt, newVerificationCode, safeEqual } from './secrets.ts'

const MINUTE = 60_000
/** Limits of the abuse-prone flows (kept together so they are easy to review). */
export const LIMITS = {
  resendMinIntervalMs: VERIFICATION_RESEND_SECONDS * 1000,
  resendPerHour: 5,
  loginWindowMs: 15 * MINUTE,
  loginFailuresPerAccount: 5,
  loginFailuresPerAddress: 20,
  resetRequestsPerHour: 3,
} as const

export const AUTH_MESSAGES = {
  registered: 'Registration successful. Please check your email for the 6-digit verification code.',
  emailTaken: 'An account with this email already exists',
  adminRegistrationDisabled: 'Admin registration is disabled',
  invalidCode: 'Invalid verification code',
  codeExpired: 'Verification code has expired. Please request a new one.',
  codeExhausted: 'Too many incorrect attempts. Please request a new verification code.',
  noPendingCode: 'No verification code is pending. Please request a new one.',
  alreadyVerified: 'This email is already verified. Please log in.',
  codeResent: 'A new verification code has been sent to your email.',
  invalidCredentials: 'Invalid email or password',
  verificationRequired: 'Please verify your email before logging in.',
  tooManyLogins: 'Too many failed login attempts. Please try again later.',
  tooManyCodes: 'Please wait before requesting another verification code.',
  forgot: 'If an account exists for that email, a reset link has been sent.',
  invalidResetToken: 'Invalid or expired reset link. Please request a new password reset.',
  passwordReset: 'Password has been reset successfully',
} as const

const accountKey = (email: string) => `account:${email.toLowerCase()}`
const addressKey = (address: string) => `address:${address}`
const secondsUntil = (at: number, now: Date) => Math.max(1, Math.ceil((at - now.getTime()) / 1000))

export function createAuthService(ctx: IdentityContext) {
  const { orm, env, issuer, hasher, now } = ctx

  const sign = (u: UserEntity) =>
    issuer.sign({
      userId: u.id,
      email: u.email,
      name: u.name,
      isAdmin: u.isAdmin,
      isManager: u.isManager,
      managerScope: toUserDto(u).manager_scope,
    })
  const authSuccess = async (u: UserEntity): Promise<AuthSuccess> => ({ token: await sign(u), user: toUserDto(u) })

  /** Seconds to wait before another code may be sent to this user, or 0. */
  const resendWait = (existing: VerificationCodeEntity | null, at: Date): number => {
    if (!existing) return 0
    const sinceLast = at.getTime() - existing.lastSentAt.getTime()
    if (sinceLast < LIMITS.resendMinIntervalMs) return secondsUntil(existing.lastSentAt.getTime() + LIMITS.resendMinIntervalMs, at)
    const windowEnd = existing.sendWindowStartedAt.getTime() + 3600_000
    if (windowEnd > at.getTime() && existing.sendsInWindow >= LIMITS.resendPerHour) return secondsUntil(windowEnd, at)
    return 0
  }

  /** Replaces the user's code with a new one and records the event that e-mails it. */
  const issueCode = async (em: EntityManager, user: UserEntity, existing: VerificationCodeEntity | null) => {
    const at = now()
    const code = newVerificationCode()
    const salt = newSalt()
    const expiresAt = new Date(at.getTime() + VERIFICATION_CODE_TTL_MINUTES * MINUTE)
    const sameWindow = existing && existing.sendWindowStartedAt.getTime() + 3600_000 > at.getTime()
    const fields = {
      codeHash: hashCode(code, salt),
      salt,
      expiresAt,
      attempts: 0,
      lastSentAt: at,
      sendWindowStartedAt: sameWindow ? existing.sendWindowStartedAt : at,
      sendsInWindow: sameWindow ? existing.sendsInWindow + 1 : 1,
    }
    if (existing) Object.assign(existing, fields)
    else em.create(VerificationCodeEntity, { userId: user.id, ...fields })
    recordEvent(em, 'identity.verification.requested.v1', {
      userId: user.id,
      name: user.name,
      email: user.email,
      code,
      expiresAt: expiresAt.toISOString(),
    })
  }

  const lockCode = (em: EntityManager, userId: string) =>
    em.findOne(VerificationCodeEntity, { userId }, { lockMode: LockMode.PESSIMISTIC_WRITE })

  return {
    config(): PublicConfig {
      return { companyEmailDomain: env.COMPANY_EMAIL_DOMAIN, adminRegistrationEnabled: Boolean(env.ADMIN_REGISTRATION_CODE) }
    },

    async register(body: { name: string; email: string; password: string; isAdmin: boolean; adminCode?: string }) {
      const domain = env.COMPANY_EMAIL_DOMAIN
      if (!body.email.toLowerCase().endsWith(`@${domain}`)) throw badRequest(MESSAGES.domain(domain), 'email_domain_not_allowed')
      if (body.isAdmin) {
        const expected = env.ADMIN_REGISTRATION_CODE
        if (!expected) throw forbidden(AUTH_MESSAGES.adminRegistrationDisabled, 'admin_registration_disabled')
        if (!body.adminCode || !safeEqual(body.adminCode, expected)) throw badRequest(MESSAGES.invalidAdminCode, 'invalid_admin_code')
      }
      const passwordHash = await hasher.hash(body.password)
      let userId: string
      try {
        userId = await orm.em.fork().transactional(async (em) => {
          if (await userRepository.findByEmail(em, body.email)) throw conflict(AUTH_MESSAGES.emailTaken, 'email_taken')
          const at = now()
          const user = em.create(UserEntity, {
            id: crypto.randomUUID(),
            name: body.name,
            email: body.email.toLowerCase(),
            passwordHash,
            isAdmin: body.isAdmin,
            isManager: false,
            managerScope: { branches: [], departments: [] },
            branch: null,
            department: null,
            userGroup: null,
            employeeId: null,
            hireDate: null,
            emailVerified: false,
            createdAt: at,
            updatedAt: at,
          })
          recordEvent(em, 'identity.user.registered.v1', userFacts(user))
          await em.flush() // the user row must exist before its code row (foreign key)
          await issueCode(em, user, null)
          return user.id
        })
      } catch (err) {
        if (err instanceof UniqueConstraintViolationException) throw conflict(AUTH_MESSAGES.emailTaken, 'email_taken')
        throw err
      }
      ctx.relay.kick()
      return { requiresVerification: true as const, userId, message: AUTH_MESSAGES.registered }
    },

    async verifyEmail(body: { userId: string; verificationCode: string }): Promise<AuthSuccess> {
      const outcome = await orm.em.fork().transactional(async (em): Promise<UserEntity | AppError> => {
        const user = await userRepository.findById(em, body.userId)
        if (!user) return badRequest(AUTH_MESSAGES.invalidCode, 'invalid_code')
        if (user.emailVerified) return badRequest(AUTH_MESSAGES.alreadyVerified, 'already_verified')
        const code = await lockCode(em, user.id)
        if (!code) return badRequest(AUTH_MESSAGES.noPendingCode, 'code_missing')
        if (code.attempts >= VERIFICATION_CODE_MAX_TRIES) return badRequest(AUTH_MESSAGES.codeExhausted, 'code_exhausted')
        if (code.expiresAt.getTime() <= now().getTime()) return badRequest(AUTH_MESSAGES.codeExpired, 'code_expired')
        if (!safeEqual(hashCode(body.verificationCode, code.salt), code.codeHash)) {
          code.attempts += 1 // committed: the try counts even though the call fails
          return code.attempts >= VERIFICATION_CODE_MAX_TRIES
            ? badRequest(AUTH_MESSAGES.codeExhausted, 'code_exhausted')
            : badRequest(AUTH_MESSAGES.invalidCode, 'invalid_code')
        }
        user.emailVerified = true
        user.updatedAt = now()
        em.remove(code)
        return user
      })
      if (outcome instanceof AppError) throw outcome
      return authSuccess(outcome)
    },

    async resendVerification(body: { userId: string }) {
      await orm.em.fork().transactional(async (em) => {
        const user = await userRepository.findById(em, body.userId)
        if (!user) throw notFound('User not found', 'user_not_found')
        if (user.emailVerified) throw badRequest(AUTH_MESSAGES.alreadyVerified, 'already_verified')
        const existing = await lockCode(em, user.id)
        const wait = resendWait(existing, now())
        if (wait > 0) throw tooManyRequests(wait, AUTH_MESSAGES.tooManyCodes)
        await issueCode(em, user, existing)
      })
      ctx.relay.kick()
      return { message: AUTH_MESSAGES.codeResent }
    },

    async login(body: { email: string; password: string }, address: string): Promise<AuthSuccess> {
      const em = orm.em.fork()
      const at = now()
      const windowStart = new Date(at.getTime() - LIMITS.loginWindowMs)
      const keys = [
        [accountKey(body.email), LIMITS.loginFailuresPerAccount],
        [addressKey(address), LIMITS.loginFailuresPerAddress],
      ] as const
      for (const [key, limit] of keys) {
        const state = await throttleRepository.current(em, key, windowStart)
        if (state && state.failures >= limit)
          throw tooManyRequests(secondsUntil(state.windowStartedAt.getTime() + LIMITS.loginWindowMs, at), AUTH_MESSAGES.tooManyLogins)
      }
      const user = await userRepository.findByEmail(em, body.email)
      let ok = false
      if (user) ok = await hasher.verify(body.password, user.passwordHash)
      else await hasher.dummyVerify(body.password)
      if (!user || !ok) {
        for (const [key] of keys) await throttleRepository.addFailure(em, key, at, windowStart)
        if (Math.random() < 0.02) await throttleRepository.prune(em, windowStart)
        throw unauthorized(AUTH_MESSAGES.invalidCredentials, 'invalid_credentials')
      }
      await throttleRepository.reset(em, keys[0][0])
      if (!user.emailVerified) {
        // The old code may have expired or been used up: send a fresh one when allowed.
        const sent = await orm.em.fork().transactional(async (tx) => {
          const existing = await lockCode(tx, user.id)
          const usable = existing && existing.expiresAt.getTime() > at.getTime() && existing.attempts < VERIFICATION_CODE_MAX_TRIES
          if (usable || resendWait(existing, at) > 0) return false
          await issueCode(tx, user, existing)
          return true
        })
        if (sent) ctx.relay.kick()
        throw forbidden(AUTH_MESSAGES.verificationRequired, 'verification_required', { requiresVerification: true, userId: user.id })
      }
      return authSuccess(user)
    },

    async forgotPassword(body: { email: string }) {
      const em = orm.em.fork()
      const user = await userRepository.findByEmail(em, body.email)
      if (user) {
        const recorded = await em.transactional(async (tx) => {
          const at = now()
          // Serialize concurrent requests of one user so the bound holds.
          await tx.findOne(UserEntity, { id: user.id }, { lockMode: LockMode.PESSIMISTIC_WRITE })
          const recent = await resetTokenRepository.countCreatedSince(tx, user.id, new Date(at.getTime() - 3600_000))
          if (recent >= LIMITS.resetRequestsPerHour) return false
          await resetTokenRepository.invalidateAll(tx, user.id, at)
          const token = newResetToken()
          const expiresAt = new Date(at.getTime() + RESET_TOKEN_TTL_MINUTES * MINUTE)
          tx.create(PasswordResetTokenEntity, {
            id: crypto.randomUUID(),
            userId: user.id,
            tokenHash: hashToken(token),
            expiresAt,
            usedAt: null,
            createdAt: at,
          })
          // The launchers set PUBLIC_URL from the gateway's port; run alone, the gateway's default port.
          const base = publicUrl(env)
          recordEvent(tx, 'identity.password-reset.requested.v1', {
            userId: user.id,
            name: user.name,
            email: user.email,
            resetUrl: `${base}/reset-password?token=${encodeURIComponent(token)}`,
            expiresAt: expiresAt.toISOString(),
          })
          return true
        })
        if (recorded) ctx.relay.kick()
        else ctx.logger.warn('password reset requests bounded', { userId: user.id })
      }
      return { message: AUTH_MESSAGES.forgot }
    },

    async resetPassword(body: { token: string; password: string }) {
      const invalid = () => badRequest(AUTH_MESSAGES.invalidResetToken, 'invalid_reset_token')
      const tokenHash = hashToken(body.token)
      const usable = (t: PasswordResetTokenEntity | null): t is PasswordResetTokenEntity =>
        Boolean(t && !t.usedAt && t.expiresAt.getTime() > now().getTime())
      // Check first, so an invalid token costs no key derivation.
      if (!usable(await resetTokenRepository.findByHash(orm.em.fork(), tokenHash))) throw invalid()
      const passwordHash = await hasher.hash(body.password)
      await orm.em.fork().transactional(async (em) => {
        const token = await em.findOne(PasswordResetTokenEntity, { tokenHash }, { lockMode: LockMode.PESSIMISTIC_WRITE })
        if (!usable(token)) throw invalid()
        const user = await userRepository.findById(em, token.userId)
        if (!user) throw invalid()
        const at = now()
        token.usedAt = at
        await resetTokenRepository.invalidateAll(em, user.id, at)
        user.passwordHash = passwordHash
        // The link reached the mailbox, which proves the address.
        if (!user.emailVerified) {
          user.emailVerified = true
          await verificationCodeRepository.deleteByUser(em, user.id)
        }
        user.updatedAt = at
        await throttleRepository.reset(em, accountKey(user.email))
      })
      return { message: AUTH_MESSAGES.passwordReset }
    },
  }
}
export type AuthService = ReturnType<typeof createAuthService>
