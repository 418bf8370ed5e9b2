import type { SignInProvider, SignInProviderInput, SignInProviderUpdate } from '@portal/contracts'
import { auditTrail, badRequest, conflict, notFound, type Actor } from '@portal/server-kit'
import type { z } from 'zod'
import type { IdentityContext } from '../context.ts'
import { toProviderDto, type ProviderConfig } from './provider-config.ts'
import { discoverClient, providerFromInput, providerUpdated, type ProviderRegistry } from './providers.ts'
import { providerRepository } from './sign-in.repository.ts'

const providerNotFound = () => notFound('Sign-in provider not found', 'provider_not_found')
const readOnly = (key: string) => conflict(`The provider "${key}" is configured by the environment (OIDC_PROVIDERS): change it there.`, 'provider_read_only')

/** What the audit trail keeps of a provider: its settings, never its secret (only whether there is one). */
const facts = (p: ProviderConfig) => ({
  key: p.key,
  issuer: p.issuer,
  client_id: p.clientId,
  client_secret: p.clientSecret ? 'set' : 'none',
  scopes: p.scopes,
  allowed_domains: p.allowedDomains,
  claims: p.claims,
  roles: p.roles,
  local_passwords: p.localPasswords,
  admin_break_glass: p.adminBreakGlass,
})

/** The names of the settings that differ between two versions of a provider (the secret as a name, never a value). */
const changedFields = (before: ProviderConfig, after: ProviderConfig) => {
  const a = facts(before) as Record<string, unknown>
  const b = facts(after) as Record<string, unknown>
  const names = Object.keys(b).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
  if (before.displayName !== after.displayName) names.unshift('display_name')
  if (before.clientSecret && after.clientSecret && before.clientSecret !== after.clientSecret) names.push('client_secret')
  return names
}

/** The admin console's Sign-in section: providers listed, added, changed and removed (admins only, audited). */
export function createProviderService(ctx: IdentityContext, registry: ProviderRegistry) {
  const { orm, now, env } = ctx
  const dto = (p: ProviderConfig) => toProviderDto(p, env)

  /** Refuses an issuer that does not answer as an OpenID provider (its discovery document, issuer checked). */
  const checkIssuer = async (p: ProviderConfig) => {
    try {
      await discoverClient(p)
    } catch (err) {
      ctx.logger.warn('sign-in provider discovery failed', { provider: p.key, reason: (err as Error).message })
      const message = `No OpenID provider answers at ${p.issuer} (its /.well-known/openid-configuration, with this exact issuer): check the issuer URL`
      throw badRequest(message, 'issuer_not_openid', { details: [{ path: 'issuer', message }] })
    }
  }

  return {
    async list(): Promise<SignInProvider[]> {
      return (await registry.list()).map(dto)
    },

    async create(actor: Actor, body: z.output<typeof SignInProviderInput>): Promise<SignInProvider> {
      if (registry.fromEnv.some((p) => p.key === body.key)) throw readOnly(body.key)
      const p = providerFromInput(body, 'admin')
      await checkIssuer(p)
      const at = now()
      await orm.em.fork().transactional(async (em) => {
        if (!(await providerRepository.insert(em, p, ctx.secrets, at))) throw conflict(`A sign-in provider with the key "${p.key}" exists already`, 'provider_key_taken')
        await auditTrail.record(em, actor, 'sign_in_provider.created', p.displayName, facts(p))
      })
      registry.forget(p.key)
      return dto({ ...p, createdAt: at, updatedAt: at })
    },

    async update(actor: Actor, key: string, body: z.output<typeof SignInProviderUpdate>): Promise<SignInProvider> {
      if (registry.fromEnv.some((p) => p.key === key)) throw readOnly(key)
      const current = await providerRepository.find(orm.em.fork(), key, ctx.secrets)
      if (!current) throw providerNotFound()
      const next = providerUpdated(current, body)
      if (next.issuer !== current.issuer || next.clientId !== current.clientId) await checkIssuer(next)
      const at = now()
      const saved = await orm.em.fork().transactional(async (em) => {
        const before = await providerRepository.find(em, key, ctx.secrets, true)
        if (!before) throw providerNotFound()
        const after = providerUpdated(before, body)
        await providerRepository.update(em, after, ctx.secrets, at)
        const changed = changedFields(before, after)
        const secret = body.clear_client_secret ? 'cleared' : body.client_secret ? 'replaced' : 'kept'
        await auditTrail.record(em, actor, 'sign_in_provider.updated', after.displayName, { key, changed, client_secret: secret, after: facts(after) })
        if (before.adminBreakGlass && !after.adminBreakGlass && !after.localPasswords)
          ctx.logger.warn('admins lost password sign-in (break-glass off)', { provider: key, actor: actor.userId })
        return { ...after, updatedAt: at }
      })
      registry.forget(key)
      return dto(saved)
    },

    async remove(actor: Actor, key: string) {
      if (registry.fromEnv.some((p) => p.key === key)) throw readOnly(key)
      await orm.em.fork().transactional(async (em) => {
        const before = await providerRepository.find(em, key, ctx.secrets, true)
        if (!before) throw providerNotFound()
        await providerRepository.remove(em, key)
        await auditTrail.record(em, actor, 'sign_in_provider.deleted', before.displayName, facts(before))
      })
      registry.forget(key)
      return { message: 'Sign-in provider deleted' }
    },
  }
}
export type ProviderService = ReturnType<typeof createProviderService>
