import * as oidc from 'openid-client'
import type { SignInProviderInput, SignInProviderUpdate } from '@portal/contracts'
import type { z } from 'zod'
import type { IdentityContext } from '../context.ts'
import type { ProviderConfig } from './provider-config.ts'
import { CLIENT_SECRET_COLUMN, providerRepository } from './sign-in.repository.ts'
import { SecretUnreadable, type Logger, type SecretBox } from '@portal/server-kit'

/** Seconds identity waits for a provider's answer (discovery, token, userinfo). */
export const PROVIDER_TIMEOUT_SECONDS = 10
/** A provider's metadata is discovered again after this long (new endpoints, and a fresh key cache). */
const DISCOVERY_TTL_MS = 3600_000
/** After a failed discovery, the next sign-in asks again no sooner than this. */
const DISCOVERY_RETRY_MS = 5_000

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/** The provider of an entry of OIDC_PROVIDERS. */
export function providerFromInput(input: z.output<typeof SignInProviderInput>, source: ProviderConfig['source']): ProviderConfig {
  return {
    key: input.key,
    displayName: input.display_name,
    issuer: input.issuer,
    clientId: input.client_id,
    clientSecret: input.client_secret || undefined,
    scopes: [...new Set(input.scopes)],
    allowedDomains: [...new Set(input.allowed_domains)],
    claims: input.claims,
    roles: input.roles,
    localPasswords: input.local_passwords,
    adminBreakGlass: input.admin_break_glass,
    source,
    createdAt: null,
    updatedAt: null,
  }
}

/** `p` changed by an update; the secret is kept unless a new one is given or it is cleared. */
export function providerUpdated(p: ProviderConfig, body: z.output<typeof SignInProviderUpdate>): ProviderConfig {
  const next = providerFromInput({ ...body, key: p.key }, p.source)
  const replaced = Boolean(body.clear_client_secret || body.client_secret)
  return {
    ...next,
    clientSecret: body.clear_client_secret ? undefined : body.client_secret || p.clientSecret,
    ...(p.clientSecretUnreadable && !replaced ? { clientSecretUnreadable: true } : {}),
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  }
}

/** A fingerprint of what the client configuration is made of: a change makes a new one. */
const fingerprint = (p: ProviderConfig) => JSON.stringify([p.issuer, p.clientId, p.clientSecret ?? null])

/**
 * How identity talks to `p` (openid-client): its metadata discovered from
 * `{issuer}/.well-known/openid-configuration` (the issuer checked against it), the client's
 * authentication (client_secret_basic when offered, else _post; none for a public client), and ID
 * token signatures always checked against the provider's JWKS — openid-client leaves that to TLS
 * by default; checking it also refuses unsigned (`alg: none`) tokens. A token signed with a key the
 * cached JWKS lacks fetches the JWKS again (a rotated key is picked up).
 */
export async function discoverClient(p: ProviderConfig): Promise<oidc.Configuration> {
  if (p.clientSecretUnreadable) throw new SecretUnreadable(CLIENT_SECRET_COLUMN, 'an admin must enter the client secret again')
  const server = new URL(p.issuer)
  const insecure = server.protocol === 'http:' && LOOPBACK.has(server.hostname)
  const execute = insecure ? [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks] : [oidc.enableNonRepudiationChecks]
  const discovered = await oidc.discovery(server, p.clientId, undefined, oidc.None(), { execute, timeout: PROVIDER_TIMEOUT_SECONDS })
  const methods = discovered.serverMetadata().token_endpoint_auth_methods_supported ?? ['client_secret_basic']
  const auth = !p.clientSecret ? oidc.None() : methods.includes('client_secret_basic') ? oidc.ClientSecretBasic(p.clientSecret) : oidc.ClientSecretPost(p.clientSecret)
  const config = new oidc.Configuration(discovered.serverMetadata(), p.clientId, p.clientSecret ? { client_secret: p.clientSecret } : undefined, auth)
  for (const step of execute) step(config)
  config.timeout = PROVIDER_TIMEOUT_SECONDS
  return config
}

/**
 * The providers in force: OIDC_PROVIDERS first (read-only), then those admins configured; and each
 * one's client configuration, discovered once and kept (per instance) until the provider changes
 * or an hour passes.
 */
export function createProviderRegistry(ctx: IdentityContext) {
  const fromEnv = (ctx.settings.OIDC_PROVIDERS ?? []).map((input) => providerFromInput(input, 'environment'))
  const clients = new Map<string, { fingerprint: string; at: number; config?: oidc.Configuration; failed?: unknown }>()

  const list = async (): Promise<ProviderConfig[]> => {
    const stored = await providerRepository.list(ctx.orm.em.fork(), ctx.secrets)
    const envKeys = new Set(fromEnv.map((p) => p.key))
    return [...fromEnv, ...stored.filter((p) => !envKeys.has(p.key))]
  }

  return {
    fromEnv,
    list,
    /** The provider of `key`, or null. */
    async get(key: string): Promise<ProviderConfig | null> {
      return fromEnv.find((p) => p.key === key) ?? (await providerRepository.find(ctx.orm.em.fork(), key, ctx.secrets))
    },
    /** The client configuration of `p` (discovered on first use); throws when the provider cannot be reached. */
    async client(p: ProviderConfig): Promise<oidc.Configuration> {
      const f = fingerprint(p)
      const cached = clients.get(p.key)
      const now = Date.now()
      if (cached && cached.fingerprint === f) {
        if (cached.config && now - cached.at < DISCOVERY_TTL_MS) return cached.config
        if (cached.failed && now - cached.at < DISCOVERY_RETRY_MS) throw cached.failed
      }
      try {
        const config = await discoverClient(p)
        clients.set(p.key, { fingerprint: f, at: now, config })
        return config
      } catch (err) {
        clients.set(p.key, { fingerprint: f, at: now, failed: err })
        throw err
      }
    },
    /** Forgets the client of `key` (the provider was changed or removed). */
    forget: (key: string) => void clients.delete(key),
  }
}
export type ProviderRegistry = ReturnType<typeof createProviderRegistry>

/** At start: client secrets sealed again when stored plain or under a previous key (decision 0055). */
export async function resealClientSecrets(orm: IdentityContext['orm'], secrets: SecretBox, logger: Logger): Promise<void> {
  const { resealed, unreadable } = await providerRepository.reseal(orm.em.fork(), secrets)
  if (resealed) logger.info('sealed stored client secrets under the current secrets key', { providers: resealed })
  if (unreadable.length) logger.error('stored client secrets cannot be read with SECRETS_KEY or SECRETS_KEY_PREVIOUS; an admin must enter them again', { providers: unreadable })
}
