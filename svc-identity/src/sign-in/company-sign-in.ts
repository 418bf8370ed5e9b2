import * as oidc from 'openid-client'
import { passwordSignInOff } from '@portal/contracts'
import { forbidden } from '@portal/server-kit'
import type { IdentityContext } from '../context.ts'
import { createRefreshTokens, hashToken, sessionEnded, type CompanySignIn } from '../auth/index.ts'
import type { UserEntity } from '../users/index.ts'
import { effectiveDomains, emailInDomains, postLogoutRedirectUri } from './provider-config.ts'
import { providerFailure } from './provider-errors.ts'
import { PROVIDER_TIMEOUT_SECONDS, type ProviderRegistry } from './providers.ts'
import { identityRepository, oidcSessionRepository, pendingLinkRepository, type OidcSessionRow } from './sign-in.repository.ts'

/** How long one re-check may hold a session (a token call and a userinfo call, with their timeouts). */
const LEASE_MS = (2 * PROVIDER_TIMEOUT_SECONDS + 5) * 1000
const WAIT_STEP_MS = 100

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * What company sign-in decides about the password flows and sessions (auth's `CompanySignIn`):
 * who may still use a password, the link an owner's password completes, the provider's word on a
 * session at each refresh, and the provider's sign-out at logout.
 */
export function createCompanySignIn(ctx: IdentityContext, registry: ProviderRegistry): CompanySignIn {
  const { orm, env, now, logger, settings } = ctx
  const refreshTokens = createRefreshTokens({ orm, settings, now, logger })

  /** The provider refused (or can no longer vouch): the session and its refresh tokens end. */
  const end = async (row: OidcSessionRow, reason: string): Promise<never> => {
    await orm.em.fork().transactional(async (em) => {
      await oidcSessionRepository.end(em, row.family_id, now())
      await refreshTokens.revokeFamily(row.family_id, em)
    })
    logger.warn('company sign-in session ended: the provider no longer vouches for it', { provider: row.provider_key, userId: row.user_id, reason })
    throw sessionEnded('provider_refused')
  }

  /** The provider could not be asked: the session lives on within the grace after its last check. */
  const unreachable = async (row: OidcSessionRow, reason: string): Promise<void> => {
    await oidcSessionRepository.release(orm.em.fork(), row.family_id)
    const since = now().getTime() - new Date(row.checked_at).getTime()
    if (since > settings.OIDC_UNREACHABLE_GRACE_SECONDS * 1000) await end(row, `provider unreachable since the last check (${reason})`)
    logger.warn('company sign-in: provider unreachable, session kept within the grace', { provider: row.provider_key, reason })
  }

  /** Asks the provider about the session `row` (leased): a refresh token grant, else userinfo with the access token. */
  const check = async (row: OidcSessionRow): Promise<void> => {
    const p = await registry.get(row.provider_key)
    if (!p || p.issuer !== row.issuer) return end(row, 'provider removed or its issuer changed')
    let config: oidc.Configuration
    try {
      config = await registry.client(p)
    } catch (err) {
      return unreachable(row, `discovery: ${providerFailure(err).detail}`)
    }
    try {
      if (row.refresh_token) {
        const t = await oidc.refreshTokenGrant(config, row.refresh_token)
        const claims = t.claims()
        if (claims && claims.sub !== row.subject) return end(row, 'refreshed ID token names another subject')
        await oidcSessionRepository.vouched(
          orm.em.fork(),
          row.family_id,
          {
            refreshToken: t.refresh_token ?? null,
            accessToken: t.access_token ?? null,
            accessTokenExpiresAt: t.expires_in ? new Date(now().getTime() + t.expires_in * 1000) : null,
            idToken: t.id_token ?? null,
          },
          now(),
        )
        return
      }
      if (row.access_token && config.serverMetadata().userinfo_endpoint) {
        await oidc.fetchUserInfo(config, row.access_token, row.subject)
        await oidcSessionRepository.vouched(orm.em.fork(), row.family_id, { refreshToken: null, accessToken: null, accessTokenExpiresAt: null, idToken: null }, now())
        return
      }
      return end(row, 'the provider gave nothing to ask again with (no refresh token, no userinfo)')
    } catch (err) {
      const failure = providerFailure(err)
      if (failure.kind === 'unreachable') return unreachable(row, failure.detail)
      return end(row, failure.detail)
    }
  }

  return {
    async passwordRefusal(user: { email: string; isAdmin: boolean }) {
      const providers = await registry.list()
      const blocking = providers.find((p) => !p.localPasswords && emailInDomains(user.email, effectiveDomains(p, env.COMPANY_EMAIL_DOMAIN)) && !(user.isAdmin && p.adminBreakGlass))
      return blocking ? forbidden(passwordSignInOff(blocking.displayName), 'password_sign_in_disabled') : null
    },

    async linkPending(user: UserEntity, linkToken: string | undefined) {
      if (!linkToken) return false
      const linked = await orm.em.fork().transactional(async (em) => {
        const pending = await pendingLinkRepository.take(em, user.id, hashToken(linkToken))
        if (!pending || new Date(pending.expires_at).getTime() <= now().getTime()) return null
        await identityRepository.link(em, { issuer: pending.issuer, subject: pending.subject, userId: user.id, providerKey: pending.provider_key }, now())
        return pending.provider_key
      })
      if (linked) logger.info('company sign-in identity linked by the account password', { provider: linked, userId: user.id })
      return linked !== null
    },

    async recheck(familyId: string) {
      const asked = now().getTime()
      const deadline = Date.now() + LEASE_MS
      for (;;) {
        const row = await oidcSessionRepository.find(orm.em.fork(), familyId)
        if (!row) return // a password sign-in's session
        if (row.ended_at) throw sessionEnded('provider_refused')
        // Another request is asking the provider about this session right now: its answer is this one's too.
        if (new Date(row.checked_at).getTime() >= asked && !row.checking_until) return
        const lease = await oidcSessionRepository.lease(orm.em.fork(), familyId, now(), new Date(now().getTime() + LEASE_MS))
        if (lease) return check(lease)
        if (Date.now() > deadline) return unreachable(row, 'another re-check did not finish')
        await sleep(WAIT_STEP_MS)
      }
    },

    async endSession(familyId: string) {
      const row = await oidcSessionRepository.find(orm.em.fork(), familyId)
      if (!row) return null
      const p = await registry.get(row.provider_key)
      if (!p) return null
      await oidcSessionRepository.end(orm.em.fork(), familyId, now())
      try {
        const config = await registry.client(p)
        if (!config.serverMetadata().end_session_endpoint) return { provider: p.displayName }
        const params: Record<string, string> = { post_logout_redirect_uri: postLogoutRedirectUri(env), client_id: p.clientId }
        if (row.id_token) params.id_token_hint = row.id_token
        return { url: oidc.buildEndSessionUrl(config, params).href, provider: p.displayName }
      } catch (err) {
        logger.warn('company sign-in: no sign-out at the provider', { provider: p.key, reason: providerFailure(err).detail })
        return { provider: p.displayName }
      }
    },
  }
}
