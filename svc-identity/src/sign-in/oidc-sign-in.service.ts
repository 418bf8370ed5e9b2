import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/postgresql'
import * as oidc from 'openid-client'
import type { PublicSignInProvider } from '@portal/contracts'
import { recordEvent } from '@portal/server-kit'
import type { IdentityContext } from '../context.ts'
import { createLimits, hashToken, newSecretToken, safeEqual, verificationCodeRepository, type AuthService, type SignedIn } from '../auth/index.ts'
import { UserEntity, toUserDto, userFacts, userRepository } from '../users/index.ts'
import { readClaims, rolesOf, type MappedProfile } from './claims.ts'
import { effectiveDomains, emailInDomains, oidcPaths, redirectUri, type ProviderConfig } from './provider-config.ts'
import { providerFailure, SignInRefused } from './provider-errors.ts'
import type { ProviderRegistry } from './providers.ts'
import { attemptRepository, identityRepository, oidcSessionRepository, pendingLinkRepository } from './sign-in.repository.ts'

const MINUTE = 60_000
/** Limits of company sign-in (kept together so they are easy to review). */
export const SIGN_IN_LIMITS = {
  /** How long a "Sign in with ..." click may take at the provider. */
  attemptMs: 10 * MINUTE,
  /** How long an identity waits for its account's password sign-in. */
  pendingLinkMs: 30 * MINUTE,
  /** Sign-ins started from one client address per 10 minutes (each stores an attempt). */
  startsPerAddress: 60,
  startsWindowMs: 10 * MINUTE,
} as const

/** What a successful callback leads to: a session, or an identity waiting for its account's password. */
export type CallbackOutcome = { kind: 'signed-in'; session: SignedIn } | { kind: 'link-pending'; linkToken: string; linkMaxAgeSeconds: number }

/** The facts of the person the provider vouched for. */
interface Vouched {
  provider: ProviderConfig
  issuer: string
  subject: string
  profile: MappedProfile & { email: string }
  tokens: oidc.TokenEndpointResponse
}

/**
 * The relying party's flow (authorization code with PKCE, state and nonce, decision 0052): `start`
 * sends the browser to the provider, `callback` checks what comes back and signs the person in with
 * the same session a password sign-in makes. Every refusal is a `SignInRefused` (the login page
 * shows its code's message); nothing of a token reaches a log.
 */
export function createOidcSignIn(ctx: IdentityContext, registry: ProviderRegistry, auth: Pick<AuthService, 'startSession'>) {
  const { orm, env, now, logger } = ctx
  const limits = createLimits(orm, now)

  const refuse = (code: SignInRefused['code'], reason: string, provider: string) => {
    logger.warn('company sign-in refused', { provider, code, reason })
    return new SignInRefused(code, reason)
  }

  /** The client of `p`, or a refusal when the provider cannot be reached. */
  const clientOf = async (p: ProviderConfig) => {
    try {
      return await registry.client(p)
    } catch (err) {
      throw refuse('provider_unavailable', `discovery failed: ${providerFailure(err).detail}`, p.key)
    }
  }

  const maybePrune = async () => {
    if (Math.random() >= 0.02) return
    const em = orm.em.fork()
    const at = now()
    await attemptRepository.prune(em, new Date(at.getTime() - 86400_000))
    await pendingLinkRepository.prune(em, at)
    await oidcSessionRepository.prune(em, at)
  }

  /** The claims of the ID token, completed by the userinfo answer (the ID token's own claims win). */
  const claimsOf = async (config: oidc.Configuration, p: ProviderConfig, tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers) => {
    const id = tokens.claims()
    if (!id) throw refuse('token_invalid', 'no ID token', p.key)
    let info: Record<string, unknown> = {}
    if (config.serverMetadata().userinfo_endpoint && tokens.access_token) {
      try {
        info = await oidc.fetchUserInfo(config, tokens.access_token, id.sub)
      } catch (err) {
        // The ID token alone may carry what is mapped; a missing e-mail is refused below.
        logger.warn('company sign-in: userinfo failed', { provider: p.key, reason: providerFailure(err).detail })
      }
    }
    return { id, claims: { ...info, ...id } as Record<string, unknown> }
  }

  /** The code exchanged and every check passed: who the provider vouches for. */
  const exchange = async (p: ProviderConfig, query: URLSearchParams, attempt: { state: string; nonce: string; code_verifier: string }): Promise<Vouched> => {
    const config = await clientOf(p)
    const current = new URL(redirectUri(env, p.key))
    current.search = query.toString()
    let tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers
    try {
      tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: attempt.code_verifier,
        expectedState: attempt.state,
        expectedNonce: attempt.nonce,
        idTokenExpected: true,
      })
    } catch (err) {
      const failure = providerFailure(err)
      if (failure.kind === 'unreachable') throw refuse('provider_unavailable', `token endpoint: ${failure.detail}`, p.key)
      if (failure.kind === 'refused') {
        const oauthError = err instanceof oidc.ResponseBodyError ? err.error : ''
        throw refuse(oauthError === 'invalid_grant' ? 'code_rejected' : 'provider_error', `token endpoint: ${failure.detail}`, p.key)
      }
      throw refuse('token_invalid', failure.detail, p.key)
    }
    const { id, claims } = await claimsOf(config, p, tokens)
    const profile = readClaims(claims, p.claims)
    if (profile.unusable.length > 0) logger.warn('company sign-in: claims not usable', { provider: p.key, fields: profile.unusable })
    if (!profile.email) throw refuse('email_missing', `no usable ${p.claims.email} claim`, p.key)
    if (!profile.emailVerified) throw refuse('email_unverified', 'email_verified is false', p.key)
    if (!emailInDomains(profile.email, effectiveDomains(p, env.COMPANY_EMAIL_DOMAIN))) throw refuse('domain_not_allowed', 'e-mail outside the allowed domains', p.key)
    return { provider: p, issuer: id.iss, subject: id.sub, profile: { ...profile, email: profile.email }, tokens }
  }

  /**
   * Applies what the provider says to `u` (mapped fields it sent; roles when a group claim is
   * mapped); true when a fact changed. Roles or scope changed: older tokens stop working.
   */
  const applyProfile = async (em: EntityManager, u: UserEntity, v: Vouched): Promise<boolean> => {
    const before = JSON.stringify(userFacts(u))
    const previousBranch = u.branch
    const { profile, provider } = v
    if (profile.name) u.name = profile.name
    if (profile.email !== u.email && !(await userRepository.findByEmail(em, profile.email))) u.email = profile.email
    if (profile.employeeId) u.employeeId = profile.employeeId
    if (profile.hireDate) u.hireDate = profile.hireDate
    if (profile.branch) {
      u.branch = profile.branch
      // A branch without the department the person had: they choose again (Complete Your Profile).
      if (!profile.department && u.department && u.branch !== previousBranch) u.department = null
    }
    if (profile.department) u.department = profile.department
    const roles = rolesOf(profile, provider.roles)
    if (roles?.refused) logger.warn('company sign-in: manager role not given', { provider: provider.key, reason: roles.refused })
    if (roles) {
      const scope = { branches: roles.managerScope.branches, departments: roles.managerScope.departments }
      const rolesChanged = u.isAdmin !== roles.isAdmin || u.isManager !== roles.isManager || JSON.stringify(toUserDto(u).manager_scope) !== JSON.stringify(scope)
      u.isAdmin = roles.isAdmin
      u.isManager = roles.isManager
      u.managerScope = scope
      if (rolesChanged) u.authVersion += 1
    }
    return JSON.stringify(userFacts(u)) !== before
  }

  /** The person's user: theirs by identity, made now (just in time), or an identity left waiting for an existing account. */
  const resolveUser = async (v: Vouched): Promise<{ user: UserEntity } | { pending: string }> =>
    orm.em.fork().transactional(async (em) => {
      const at = now()
      const link = { issuer: v.issuer, subject: v.subject, providerKey: v.provider.key }
      const knownId = await identityRepository.userOf(em, v.issuer, v.subject)
      let user = knownId ? await userRepository.findById(em, knownId) : null
      if (user) {
        if (await applyProfile(em, user, v)) {
          user.updatedAt = at
          recordEvent(em, 'identity.user.updated.v1', userFacts(user))
        }
        await identityRepository.link(em, { ...link, userId: user.id }, at)
        return { user }
      }
      const owner = await userRepository.findByEmail(em, v.profile.email)
      if (owner && owner.emailVerified) {
        // No silent takeover: the account's owner proves it with their password, from this browser.
        const linkToken = newSecretToken()
        await pendingLinkRepository.put(em, { ...link, userId: owner.id, bindingHash: hashToken(linkToken), expiresAt: new Date(at.getTime() + SIGN_IN_LIMITS.pendingLinkMs) }, at)
        return { pending: linkToken }
      }
      if (owner) {
        // A registration never verified proved nothing; the provider proves the address: the account
        // becomes this person's, and the password someone chose for it stops working.
        user = owner
        user.passwordHash = ''
        user.emailVerified = true
        user.authVersion += 1
        await verificationCodeRepository.deleteByUser(em, user.id)
        await applyProfile(em, user, v)
        user.updatedAt = at
        recordEvent(em, 'identity.user.updated.v1', userFacts(user))
      } else {
        const { profile } = v
        user = em.create(UserEntity, {
          id: crypto.randomUUID(),
          name: profile.name ?? profile.email,
          email: profile.email,
          passwordHash: '', // no portal password: the provider signs this person in
          isAdmin: false,
          isManager: false,
          managerScope: { branches: [], departments: [] },
          branch: null,
          department: null,
          userGroup: null,
          employeeId: null,
          hireDate: null,
          emailVerified: true,
          authVersion: 0,
          createdAt: at,
          updatedAt: at,
        })
        await applyProfile(em, user, v)
        recordEvent(em, 'identity.user.registered.v1', userFacts(user))
      }
      await em.flush() // the user row before its identity (foreign key)
      await identityRepository.link(em, { ...link, userId: user.id }, at)
      return { user }
    })

  return {
    /** The providers the login page offers (GET /auth/oidc/providers). */
    async publicList(): Promise<PublicSignInProvider[]> {
      return (await registry.list()).map((p) => ({ key: p.key, display_name: p.displayName, start_url: oidcPaths(p.key).start }))
    },

    /**
     * GET /auth/oidc/{key}/start: the provider's authorization URL (PKCE S256, state, nonce) and the
     * token of the browser's attempt cookie; what the callback checks stays here, bound to that cookie.
     */
    async start(key: string, address: string): Promise<{ location: string; attemptToken: string; maxAgeSeconds: number }> {
      const p = await registry.get(key)
      if (!p) throw refuse('unknown_provider', 'no such provider', key)
      const allowed = await limits.tryReserve({ key: `oidc-start:address:${address}`, limit: SIGN_IN_LIMITS.startsPerAddress, windowMs: SIGN_IN_LIMITS.startsWindowMs })
      if (!allowed) throw refuse('too_many', 'sign-in starts bounded', key)
      const config = await clientOf(p)
      const state = oidc.randomState()
      const nonce = oidc.randomNonce()
      const codeVerifier = oidc.randomPKCECodeVerifier()
      const attemptToken = newSecretToken()
      const at = now()
      await attemptRepository.insert(
        orm.em.fork(),
        { bindingHash: hashToken(attemptToken), providerKey: p.key, state, nonce, codeVerifier, expiresAt: new Date(at.getTime() + SIGN_IN_LIMITS.attemptMs) },
        at,
      )
      await maybePrune()
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri(env, p.key),
        scope: p.scopes.join(' '),
        state,
        nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      })
      return { location: url.href, attemptToken, maxAgeSeconds: SIGN_IN_LIMITS.attemptMs / 1000 }
    },

    /**
     * GET /auth/oidc/{key}/callback: the attempt of this browser's cookie (once, in time, the same
     * state), the provider's error if it sent one, then the code exchanged and the ID token checked
     * (signature, issuer, audience, expiry, nonce), the e-mail and its domain; then the person's user
     * and a session, or their identity left waiting for their password.
     */
    async callback(key: string, query: URLSearchParams, attemptToken: string | undefined): Promise<CallbackOutcome> {
      const p = await registry.get(key)
      if (!p) throw refuse('unknown_provider', 'no such provider', key)
      if (!attemptToken) throw refuse('state_mismatch', 'no attempt cookie', key)
      const at = now()
      const attempt = await orm.em.fork().transactional((em) => attemptRepository.take(em, hashToken(attemptToken), at))
      if (!attempt) throw refuse('state_mismatch', 'no attempt for this cookie', key)
      if (attempt.provider_key !== p.key) throw refuse('state_mismatch', 'attempt of another provider', key)
      if (attempt.used_at) throw refuse('expired', 'attempt already used (callback replayed)', key)
      if (new Date(attempt.expires_at).getTime() <= at.getTime()) throw refuse('expired', 'attempt expired', key)
      if (!safeEqual(query.get('state') ?? '', attempt.state)) throw refuse('state_mismatch', 'state differs from the attempt', key)
      const error = query.get('error')
      if (error) {
        const unavailable = error === 'temporarily_unavailable' || error === 'server_error'
        throw refuse(unavailable ? 'provider_unavailable' : 'denied', `provider answered ${error.slice(0, 64)}`, key)
      }
      const vouched = await exchange(p, query, attempt)
      let resolved: Awaited<ReturnType<typeof resolveUser>>
      try {
        resolved = await resolveUser(vouched)
      } catch (err) {
        // Two first sign-ins of one person at once: the other made the user; this one finds it.
        if (!(err instanceof UniqueConstraintViolationException)) throw err
        resolved = await resolveUser(vouched)
      }
      ctx.relay.kick()
      if ('pending' in resolved) {
        logger.info('company sign-in: identity waits for the account password', { provider: key })
        return { kind: 'link-pending', linkToken: resolved.pending, linkMaxAgeSeconds: SIGN_IN_LIMITS.pendingLinkMs / 1000 }
      }
      const { tokens } = vouched
      const session = await auth.startSession(resolved.user, (em, refresh) =>
        oidcSessionRepository
          .insert(
            em,
            {
              familyId: refresh.familyId,
              userId: resolved.user.id,
              providerKey: p.key,
              issuer: vouched.issuer,
              subject: vouched.subject,
              refreshToken: tokens.refresh_token ?? null,
              accessToken: tokens.access_token ?? null,
              accessTokenExpiresAt: tokens.expires_in ? new Date(at.getTime() + tokens.expires_in * 1000) : null,
              idToken: tokens.id_token ?? null,
              expiresAt: refresh.familyExpiresAt,
            },
            now(),
          )
          .then(() => undefined),
      )
      logger.info('company sign-in', { provider: key, userId: resolved.user.id })
      return { kind: 'signed-in', session }
    },
  }
}
export type OidcSignIn = ReturnType<typeof createOidcSignIn>
