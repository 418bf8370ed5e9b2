import { LockMode, UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql'
import {
  MESSAGES,
  RESET_TOKEN_TTL_MINUTES,
  VERIFICATION_CODE_MAX_TRIES,
  VERIFICATION_CODE_TTL_MINUTES,
  VERIFICATION_RESEND_SECONDS,
  type AuthSuccess,
  type LogoutResponse,
  type PublicConfig,
} from '@portal/contracts'
import { AppError, badRequest, forbidden, publicUrl, recordEvent, tooManyRequests, unauthorized } from '@portal/server-kit'
import type { IdentityContext } from '../context.ts'
import { UserEntity, toUserDto, userFacts, userRepository } from '../users/index.ts'
import { PasswordResetTokenEntity, VerificationCodeEntity, VerificationDecoyEntity, type KnownDeviceEntity } from './auth.entity.ts'
import { resetTokenRepository, verificationCodeRepository, verificationDecoyRepository } from './auth.repository.ts'
import { createLimits, LimitReached, type LimitRule } from './limits.ts'
import { KdfBusy } from './kdf-scheduler.ts'
import type { HashingTurn, KdfLane } from '../shared/index.ts'
import { createKnownDevices, type IssuedDeviceToken } from './known-devices.ts'
import { createRefreshTokens, type IssuedRefreshToken } from './refresh-tokens.ts'
import { hashCode, hashToken, newSalt, newSecretToken, newVerificationCode, safeEqual } from './secrets.ts'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
/** Limits of the abuse-prone flows that are not settings (kept together so they are easy to review). */
export const LIMITS = {
  resendMinIntervalMs: VERIFICATION_RESEND_SECONDS * 1000,
  resendPerHour: 5,
  loginWindowMs: 15 * MINUTE,
  /** First lockout of an account-and-address pair; each further one lasts twice as long, at most maxMs. */
  loginLockout: { baseMs: MINUTE, maxMs: HOUR },
  resetRequestsPerHour: 3,
  /** "Someone tried to register with your address" e-mails per account and hour. */
  registrationNoticesPerHour: 1,
} as const

export const AUTH_MESSAGES = {
  registered: 'Registration successful. Please check your email for the 6-digit verification code.',
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
  tooManyRegistrations: 'Too many registrations from your network. Please try again later.',
  tooManyAdminCodes: 'Too many wrong admin codes. Please try again later.',
  tooManyCodes: 'Please wait before requesting another verification code.',
  busy: 'The service is busy. Please try again in a moment.',
  forgot: 'If an account exists for that email, a reset link has been sent.',
  invalidResetToken: 'Invalid or expired reset link. Please request a new password reset.',
  passwordReset: 'Password has been reset successfully',
  loggedOut: 'Logged out',
} as const

/** 429 for work shed before it started (password hashing would keep it waiting too long). */
const busy = (retryAfterSeconds: number) => new AppError(429, 'busy', AUTH_MESSAGES.busy, {}, { 'Retry-After': String(retryAfterSeconds) })

const secondsUntil = (at: number, now: Date) => Math.max(1, Math.ceil((at - now.getTime()) / 1000))

/** A code row: a pending registration's, or a decoy's (same counters, a hash no code matches). */
type CodeState = VerificationCodeEntity | VerificationDecoyEntity

/** A sign-in: the answer's body, the refresh token to set as a cookie, and the browser's new device cookie. */
export interface SignedIn {
  body: AuthSuccess
  refresh: IssuedRefreshToken
  device?: IssuedDeviceToken
  /** The password sign-in linked an identity waiting in this browser (its cookie is cleared). */
  linked?: boolean
}

/**
 * What company sign-in (sign-in/) decides about the password flows and sessions (decision 0052).
 * The auth flows ask; they do not know about providers.
 */
export interface CompanySignIn {
  /** Why `user` may not sign in (or register) with a password: their company signs in with a provider; null when they may. */
  passwordRefusal(user: { email: string; isAdmin: boolean }): Promise<AppError | null>
  /** Links the identity waiting in this browser (`linkToken`, its cookie) to `user`, whose password just matched; true when linked. */
  linkPending(user: UserEntity, linkToken: string | undefined): Promise<boolean>
  /** Asks the provider whether the session (refresh token family) still stands; throws 401 and ends it when the provider refuses. */
  recheck(familyId: string): Promise<void>
  /** The provider's own sign-out for the session, when it was a company sign-in. */
  endSession(familyId: string): Promise<{ url?: string; provider: string } | null>
}

export function createAuthService(ctx: IdentityContext, company?: CompanySignIn) {
  const { orm, env, settings, issuer, hasher, now } = ctx
  const limits = createLimits(orm, now)
  const refreshTokens = createRefreshTokens({ orm, settings, now, logger: ctx.logger })
  const devices = createKnownDevices({ orm, now })

  const loginRules = (email: string, address: string) => {
    const pair: LimitRule = {
      key: `login:pair:${email}|${address}`,
      limit: settings.LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS,
      windowMs: LIMITS.loginWindowMs,
      lockout: LIMITS.loginLockout,
    }
    const account: LimitRule = { key: `login:account:${email}`, limit: settings.LOGIN_FAILURES_PER_ACCOUNT, windowMs: LIMITS.loginWindowMs }
    const fromAddress: LimitRule = { key: `login:address:${address}`, limit: settings.LOGIN_FAILURES_PER_ADDRESS, windowMs: LIMITS.loginWindowMs }
    // Always reserved in this order (see `Limits.reserve`).
    return { pair, account, fromAddress, all: [pair, account, fromAddress] }
  }

  /**
   * A known browser's failures count on its device alone, with the lockout of an account-and-address
   * pair: it is not held up by the account's or the address's counts, which unknown clients fill.
   */
  const deviceRule = (device: KnownDeviceEntity): LimitRule => ({
    key: `login:device:${device.id}`,
    limit: settings.LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS,
    windowMs: LIMITS.loginWindowMs,
    lockout: LIMITS.loginLockout,
  })

  /** Reserves the rules or answers 429 with `message` and the seconds until they free up. */
  const reserve = async (rules: readonly LimitRule[], message: string) => {
    try {
      await limits.reserve(rules)
    } catch (err) {
      if (err instanceof LimitReached) throw tooManyRequests(err.retryAfterSeconds, message)
      throw err
    }
  }

  /** Runs password hashing; when it is at capacity, gives `reserved` back and answers 429. */
  const withKdf = async <T>(reserved: readonly LimitRule[], work: () => Promise<T>): Promise<T> => {
    try {
      return await work()
    } catch (err) {
      await limits.release(reserved)
      throw err instanceof KdfBusy ? busy(err.retryAfterSeconds) : err
    }
  }

  /** A place for one hash in `lane`, taken before the request's other work; 429 at once when hashing is too busy. */
  const enterKdf = (lane: KdfLane): HashingTurn => {
    try {
      return hasher.enter(lane)
    } catch (err) {
      throw err instanceof KdfBusy ? busy(err.retryAfterSeconds) : err
    }
  }

  /** Now and then drops counters, decoys and refresh tokens long over (keeps the tables small). */
  const maybePrune = async () => {
    if (Math.random() >= 0.02) return
    const em = orm.em.fork()
    await limits.prune(HOUR)
    await refreshTokens.prune(em)
    await devices.prune(em)
    await em.nativeDelete(VerificationDecoyEntity, { createdAt: { $lt: new Date(now().getTime() - 24 * HOUR) } })
  }

  const sign = (u: UserEntity) =>
    issuer.sign({
      userId: u.id,
      email: u.email,
      name: u.name,
      isAdmin: u.isAdmin,
      isManager: u.isManager,
      managerScope: toUserDto(u).manager_scope,
      tokenVersion: u.authVersion,
    })
  /**
   * A new session: an access token and the first refresh token of a new family; the browser becomes
   * a known device of the user (a new device cookie, replacing the `device` it presented).
   */
  const signIn = async (u: UserEntity, device?: KnownDeviceEntity | null): Promise<SignedIn> => {
    const em = orm.em.fork()
    const refresh = refreshTokens.issue(em, u.id)
    const known = await devices.issue(em, u.id, device)
    await em.flush()
    return { body: { token: await sign(u), user: toUserDto(u) }, refresh, device: known }
  }

  /**
   * A new session as a password sign-in makes it (access token, first refresh token of a new
   * family), for company sign-in: `within` stores what belongs to the session in the same transaction.
   */
  const startSession = async (u: UserEntity, within?: (em: EntityManager, refresh: IssuedRefreshToken) => Promise<void>): Promise<SignedIn> => {
    const refresh = await orm.em.fork().transactional(async (em) => {
      const issued = refreshTokens.issue(em, u.id)
      await em.flush()
      await within?.(em, issued)
      return issued
    })
    return { body: { token: await sign(u), user: toUserDto(u) }, refresh }
  }

  /** Seconds to wait before another code may be sent, or 0. */
  const resendWait = (existing: CodeState | null, at: Date): number => {
    if (!existing) return 0
    const sinceLast = at.getTime() - existing.lastSentAt.getTime()
    if (sinceLast < LIMITS.resendMinIntervalMs) return secondsUntil(existing.lastSentAt.getTime() + LIMITS.resendMinIntervalMs, at)
    const windowEnd = existing.sendWindowStartedAt.getTime() + HOUR
    if (windowEnd > at.getTime() && existing.sendsInWindow >= LIMITS.resendPerHour) return secondsUntil(windowEnd, at)
    return 0
  }

  /** The counters of a code sent now, after `existing` (send window and count carried on). */
  const sentNow = (existing: CodeState | null, at: Date) => {
    const sameWindow = existing && existing.sendWindowStartedAt.getTime() + HOUR > at.getTime()
    return {
      salt: newSalt(),
      expiresAt: new Date(at.getTime() + VERIFICATION_CODE_TTL_MINUTES * MINUTE),
      attempts: 0,
      lastSentAt: at,
      sendWindowStartedAt: sameWindow ? existing.sendWindowStartedAt : at,
      sendsInWindow: sameWindow ? existing.sendsInWindow + 1 : 1,
    }
  }

  /** Replaces the user's code with a new one and records the event that e-mails it. */
  const issueCode = async (em: EntityManager, user: UserEntity, existing: VerificationCodeEntity | null) => {
    const code = newVerificationCode()
    const fields = sentNow(existing, now())
    const row = { ...fields, codeHash: hashCode(code, fields.salt) }
    if (existing) Object.assign(existing, row)
    else em.create(VerificationCodeEntity, { userId: user.id, ...row })
    recordEvent(em, 'identity.verification.requested.v1', {
      userId: user.id,
      name: user.name,
      email: user.email,
      code,
      expiresAt: fields.expiresAt.toISOString(),
    })
  }

  /** A decoy "sends" a code: the same counters move, nothing is mailed and no code matches. */
  const issueDecoyCode = (decoy: VerificationDecoyEntity) => Object.assign(decoy, sentNow(decoy, now()), { codeHash: '' })

  /** The code's answer to `given`: null when it matches; a wrong try is counted on the row. */
  const tryCode = (code: CodeState, given: string): AppError | null => {
    if (code.attempts >= VERIFICATION_CODE_MAX_TRIES) return badRequest(AUTH_MESSAGES.codeExhausted, 'code_exhausted')
    if (code.expiresAt.getTime() <= now().getTime()) return badRequest(AUTH_MESSAGES.codeExpired, 'code_expired')
    if (code.codeHash && safeEqual(hashCode(given, code.salt), code.codeHash)) return null
    code.attempts += 1 // committed: the try counts even though the call fails
    return code.attempts >= VERIFICATION_CODE_MAX_TRIES ? badRequest(AUTH_MESSAGES.codeExhausted, 'code_exhausted') : badRequest(AUTH_MESSAGES.invalidCode, 'invalid_code')
  }

  const lockCode = (em: EntityManager, userId: string) => em.findOne(VerificationCodeEntity, { userId }, { lockMode: LockMode.PESSIMISTIC_WRITE })

  /**
   * The decoy of an id no user has, locked; created on first sight as a registration whose code
   * went out a while ago, so any id answers like a pending registration's.
   */
  const lockDecoy = async (em: EntityManager, userId: string) => {
    const at = now()
    const longAgo = new Date(at.getTime() - HOUR)
    await verificationDecoyRepository.insertIfMissing(em, {
      userId,
      salt: newSalt(),
      expiresAt: new Date(at.getTime() + VERIFICATION_CODE_TTL_MINUTES * MINUTE),
      sentAt: longAgo,
      createdAt: at,
    })
    return em.findOneOrFail(VerificationDecoyEntity, { userId }, { lockMode: LockMode.PESSIMISTIC_WRITE })
  }

  /**
   * A registration with an address already taken: the answer of a new registration, with the id
   * of a decoy that behaves like one; the owner is told by e-mail (at most hourly).
   */
  const answerTaken = async (owner: UserEntity): Promise<string> => {
    const notify = await limits.tryReserve({ key: `register-notice:${owner.id}`, limit: LIMITS.registrationNoticesPerHour, windowMs: HOUR })
    const decoyId = crypto.randomUUID()
    await orm.em.fork().transactional(async (em) => {
      const at = now()
      em.create(VerificationDecoyEntity, { userId: decoyId, ...sentNow(null, at), codeHash: '', createdAt: at })
      if (notify) {
        const base = publicUrl(env) // the launchers set PUBLIC_URL from the gateway's port
        recordEvent(em, 'identity.registration.attempted.v1', {
          userId: owner.id,
          name: owner.name,
          email: owner.email,
          loginUrl: `${base}/login`,
          resetUrl: `${base}/forgot-password`,
        })
      }
    })
    if (notify) ctx.relay.kick()
    return decoyId
  }

  /** Creates the reset token and its e-mail event for the account of `email`, if any (bounded per hour). */
  const requestReset = async (email: string) => {
    const user = await userRepository.findByEmail(orm.em.fork(), email)
    if (!user) return
    const recorded = await orm.em.fork().transactional(async (tx) => {
      const at = now()
      // Serialize concurrent requests of one user so the bound holds.
      await tx.findOne(UserEntity, { id: user.id }, { lockMode: LockMode.PESSIMISTIC_WRITE })
      const recent = await resetTokenRepository.countCreatedSince(tx, user.id, new Date(at.getTime() - HOUR))
      if (recent >= LIMITS.resetRequestsPerHour) return false
      await resetTokenRepository.invalidateAll(tx, user.id, at)
      const token = newSecretToken()
      const expiresAt = new Date(at.getTime() + RESET_TOKEN_TTL_MINUTES * MINUTE)
      tx.create(PasswordResetTokenEntity, { id: crypto.randomUUID(), userId: user.id, tokenHash: hashToken(token), expiresAt, usedAt: null, createdAt: at })
      const base = publicUrl(env) // the launchers set PUBLIC_URL from the gateway's port
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

  /** The session of a user whose password matched; one who never verified the e-mail gets a code instead (403). */
  const signInVerified = async (user: UserEntity, device: KnownDeviceEntity | null): Promise<SignedIn> => {
    if (!user.emailVerified) {
      const at = now()
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
    return signIn(user, device)
  }

  return {
    startSession,

    config(): PublicConfig {
      return { companyEmailDomain: env.COMPANY_EMAIL_DOMAIN, adminRegistrationEnabled: Boolean(env.ADMIN_REGISTRATION_CODE) }
    },

    async register(body: { name: string; email: string; password: string; isAdmin: boolean; adminCode?: string }, address: string) {
      const domain = env.COMPANY_EMAIL_DOMAIN
      if (!body.email.toLowerCase().endsWith(`@${domain}`)) throw badRequest(MESSAGES.domain(domain), 'email_domain_not_allowed')
      // A company that signs in with a provider does not make portal passwords (admins' break-glass aside).
      const refusal = await company?.passwordRefusal({ email: body.email.toLowerCase(), isAdmin: body.isAdmin })
      if (refusal) throw badRequest(refusal.message, refusal.code)
      const turn = enterKdf('unknown')
      let passwordHash: string
      try {
        const perAddress: LimitRule = { key: `register:address:${address}`, limit: settings.REGISTRATIONS_PER_ADDRESS_PER_HOUR, windowMs: HOUR }
        await reserve([perAddress], AUTH_MESSAGES.tooManyRegistrations)
        if (body.isAdmin) {
          const expected = env.ADMIN_REGISTRATION_CODE
          if (!expected) throw forbidden(AUTH_MESSAGES.adminRegistrationDisabled, 'admin_registration_disabled')
          // Every guess is reserved before it is compared; only a right one is given back.
          const guesses: LimitRule[] = [
            { key: `admin-code:address:${address}`, limit: settings.ADMIN_CODE_FAILURES_PER_ADDRESS_PER_HOUR, windowMs: HOUR },
            { key: 'admin-code:all', limit: settings.ADMIN_CODE_FAILURES_PER_HOUR, windowMs: HOUR },
          ]
          await reserve(guesses, AUTH_MESSAGES.tooManyAdminCodes)
          if (!body.adminCode || !safeEqual(body.adminCode, expected)) throw badRequest(MESSAGES.invalidAdminCode, 'invalid_admin_code')
          await limits.release(guesses)
        }
        // Hashed whether or not the address is taken: both answers cost the same.
        passwordHash = await withKdf([perAddress], () => turn.hash(body.password))
      } finally {
        turn.leave()
      }
      const email = body.email.toLowerCase()
      let created: string | null
      try {
        created = await orm.em.fork().transactional(async (em) => {
          if (await userRepository.findByEmail(em, email)) return null
          const at = now()
          const user = em.create(UserEntity, {
            id: crypto.randomUUID(),
            name: body.name,
            email,
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
            authVersion: 0,
            createdAt: at,
            updatedAt: at,
          })
          recordEvent(em, 'identity.user.registered.v1', userFacts(user))
          await em.flush() // the user row must exist before its code row (foreign key)
          await issueCode(em, user, null)
          return user.id
        })
      } catch (err) {
        if (!(err instanceof UniqueConstraintViolationException)) throw err
        created = null // registered by a concurrent request
      }
      let userId = created
      if (!userId) {
        const owner = await userRepository.findByEmail(orm.em.fork(), email)
        if (!owner) throw new Error('registration lost its conflicting user')
        userId = await answerTaken(owner)
      } else ctx.relay.kick()
      await maybePrune()
      return { requiresVerification: true as const, userId, message: AUTH_MESSAGES.registered }
    },

    async verifyEmail(body: { userId: string; verificationCode: string }): Promise<SignedIn> {
      const outcome = await orm.em.fork().transactional(async (em): Promise<UserEntity | AppError> => {
        const user = await userRepository.findById(em, body.userId)
        if (!user) return tryCode(await lockDecoy(em, body.userId), body.verificationCode) ?? badRequest(AUTH_MESSAGES.invalidCode, 'invalid_code')
        if (user.emailVerified) return badRequest(AUTH_MESSAGES.alreadyVerified, 'already_verified')
        const code = await lockCode(em, user.id)
        if (!code) return badRequest(AUTH_MESSAGES.noPendingCode, 'code_missing')
        const refused = tryCode(code, body.verificationCode)
        if (refused) return refused
        user.emailVerified = true
        user.updatedAt = now()
        em.remove(code)
        return user
      })
      if (outcome instanceof AppError) throw outcome
      return signIn(outcome)
    },

    async resendVerification(body: { userId: string }) {
      const sent = await orm.em.fork().transactional(async (em) => {
        const user = await userRepository.findById(em, body.userId)
        if (!user) {
          const decoy = await lockDecoy(em, body.userId)
          const wait = resendWait(decoy, now())
          if (wait > 0) throw tooManyRequests(wait, AUTH_MESSAGES.tooManyCodes)
          issueDecoyCode(decoy)
          return false
        }
        if (user.emailVerified) throw badRequest(AUTH_MESSAGES.alreadyVerified, 'already_verified')
        const existing = await lockCode(em, user.id)
        const wait = resendWait(existing, now())
        if (wait > 0) throw tooManyRequests(wait, AUTH_MESSAGES.tooManyCodes)
        await issueCode(em, user, existing)
        return true
      })
      if (sent) ctx.relay.kick()
      return { message: AUTH_MESSAGES.codeResent }
    },

    /**
     * Signs in with `body`'s password. `deviceToken` is the browser's device cookie: when it is this
     * user's (and its device not locked), the password is hashed ahead of unknown clients' and the
     * device's failures alone count (OWASP device cookies); anyone else is an unknown client, shed at
     * once when unknown clients' hashing is full, and subject to the account's and address's limits.
     */
    async login(body: { email: string; password: string }, address: string, deviceToken?: string, linkToken?: string): Promise<SignedIn> {
      const email = body.email.toLowerCase()
      const rules = loginRules(email, address)
      // Without a device cookie, the place in unknown clients' hashing is taken before any other
      // work: a flood costs a check each, and a burst arriving at once is shed at once.
      let turn = deviceToken ? undefined : enterKdf('unknown')
      try {
        const [device, user] = await Promise.all([devices.find(deviceToken), userRepository.findByEmail(orm.em.fork(), email)])
        const ownDevice = user && device?.userId === user.id ? device : null
        // Reserved before the password is checked: however many arrive at once, at most the limit are checked.
        let reserved: readonly LimitRule[] = []
        if (ownDevice) {
          const rule = deviceRule(ownDevice)
          if (await limits.tryReserve(rule)) reserved = [rule] // a locked device counts as unknown
        }
        const lane: KdfLane = reserved.length > 0 ? 'known' : 'unknown'
        if (lane === 'unknown') {
          turn ??= enterKdf('unknown') // another user's browser, or locked
          await reserve(rules.all, AUTH_MESSAGES.tooManyLogins)
          reserved = rules.all
        }
        // An unknown account costs the same key derivation (no timing difference).
        const ok = await withKdf(reserved, async () => {
          const t = (turn ??= hasher.enter(lane))
          // An account made by company sign-in has no password: it costs the same as an unknown one.
          if (user?.passwordHash) return t.verify(body.password, user.passwordHash)
          await t.dummyVerify(body.password)
          return false
        })
        if (!user || !ok) {
          await limits.fail(reserved)
          await maybePrune()
          throw unauthorized(AUTH_MESSAGES.invalidCredentials, 'invalid_credentials')
        }
        const counting = lane === 'known' ? limits.clear(reserved) : limits.clear([rules.pair]).then(() => limits.release([rules.account, rules.fromAddress]))
        // The owner's password links an identity waiting in this browser (verified accounts only);
        // a company that signs in with a provider refuses the password otherwise.
        const linked = company && user.emailVerified ? await company.linkPending(user, linkToken) : false
        const refusal = linked ? null : await company?.passwordRefusal(user)
        if (refusal) {
          await counting
          throw refusal
        }
        // The counters and the session are written side by side (a known browser waits for neither twice).
        const [counted, session] = await Promise.allSettled([counting, signInVerified(user, device)])
        if (counted.status === 'rejected') throw counted.reason
        if (session.status === 'rejected') throw session.reason
        return { ...session.value, linked }
      } finally {
        turn?.leave()
      }
    },

    /** A new access token for the session of `refreshToken`, whose successor replaces it. */
    async refresh(refreshToken: string | undefined): Promise<SignedIn> {
      const { user, refresh } = await refreshTokens.rotate(refreshToken)
      // A company sign-in's session lasts only while its provider still vouches for the person.
      await company?.recheck(refresh.familyId)
      return { body: { token: await sign(user), user: toUserDto(user) }, refresh }
    },

    /** Ends the session; a company sign-in's answer offers the provider's own sign-out when it has one. */
    async logout(refreshToken: string | undefined): Promise<LogoutResponse> {
      const family = company ? await refreshTokens.familyOf(refreshToken) : null
      const offer = family && company ? await company.endSession(family) : null
      await refreshTokens.revoke(refreshToken)
      return { message: AUTH_MESSAGES.loggedOut, ...(offer?.url ? { end_session_url: offer.url, provider: offer.provider } : {}) }
    },

    /**
     * Answers at once, the same for every address: the lookup and the reset link are made in the
     * background, so a known address takes no longer than an unknown one.
     */
    forgotPassword(body: { email: string }) {
      if (!ctx.background.tryRun('password-reset request', () => requestReset(body.email))) throw busy(1)
      return { message: AUTH_MESSAGES.forgot }
    },

    async resetPassword(body: { token: string; password: string }) {
      const invalid = () => badRequest(AUTH_MESSAGES.invalidResetToken, 'invalid_reset_token')
      const tokenHash = hashToken(body.token)
      const usable = (t: PasswordResetTokenEntity | null): t is PasswordResetTokenEntity => Boolean(t && !t.usedAt && t.expiresAt.getTime() > now().getTime())
      // Check first, so an invalid token costs no key derivation.
      if (!usable(await resetTokenRepository.findByHash(orm.em.fork(), tokenHash))) throw invalid()
      const passwordHash = await withKdf([], async () => hasher.enter('unknown').hash(body.password))
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
        // Every session and token from before the reset stops working (a stolen one included);
        // browsers are known again once they sign in with the new password.
        user.authVersion += 1
        await refreshTokens.revokeAllOf(em, user.id)
        await devices.forgetAllOf(em, user.id)
        user.updatedAt = at
        recordEvent(em, 'identity.user.updated.v1', userFacts(user))
        // The owner holds the mailbox: their sign-in counters start over.
        const { account, pair } = loginRules(user.email, '')
        await limits.clear([account], em)
        await limits.clearPrefix(pair.key, em) // every address's pair key of this account
      })
      ctx.relay.kick()
      return { message: AUTH_MESSAGES.passwordReset }
    },
  }
}
export type AuthService = ReturnType<typeof createAuthService>
