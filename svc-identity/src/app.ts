import type { MikroORM } from '@mikro-orm/postgresql'
import {
  auditAdminChanges,
  auditTrailRoutes,
  createLogger,
  createServiceApp,
  serveOpenApi,
  createTokenCheck,
  withTokenCheck,
  type Logger,
  type SecretBox,
  type OutboxRelay,
  type TokenIssuer,
  type TokenVerifier,
} from '@portal/server-kit'
import { authRoutes, createAuthService, createKdfScheduler, createPasswordHasher, DEFAULT_KDF, scheduleKdf, type KdfParams, type PasswordHasher } from './auth/index.ts'
import { IDENTITY_AUDITED, IdentityAuditAnswer } from './audit.ts'
import { createBackgroundTasks, type BackgroundTasks } from './background.ts'
import type { IdentityContext, IdentityEnv } from './context.ts'
import { groupRoutes, createGroupService } from './groups/index.ts'
import { identitySettings } from './settings.ts'
import { createCompanySignIn, createOidcSignIn, createProviderRegistry, createProviderService, oidcSignInRoutes, providerRoutes } from './sign-in/index.ts'
import { userRoutes, userRepository, createUserService } from './users/index.ts'

export interface AppDeps {
  orm: MikroORM
  issuer: TokenIssuer
  verifier: TokenVerifier
  env: IdentityEnv
  relay: Pick<OutboxRelay, 'kick'>
  /** Current time (tests move it to expire codes and tokens). */
  clock?: () => Date
  logger?: Logger
  /** Password KDF cost; tests pass cheap values. */
  kdf?: KdfParams
  /** The password KDF itself (tests count or slow its calls); bounded by the KDF settings either way. */
  hasher?: PasswordHasher
  /** Work started by requests and not waited for (tests wait for it). */
  background?: BackgroundTasks
  /** How long a user's auth version is remembered between token checks (default 1 s; tests 0). */
  tokenCheckTtlMs?: number
  /** Seals stored secrets (`loadServiceSecretBox`). */
  secrets: SecretBox
}

/** Identity's Hono app: auth (passwords and company sign-in), users and user groups (paths without the gateway's `/api`). */
export function createApp(deps: AppDeps) {
  const logger = deps.logger ?? createLogger('identity', deps.env.LOG_LEVEL)
  const settings = identitySettings(deps.env)
  const ctx: IdentityContext = {
    orm: deps.orm,
    issuer: deps.issuer,
    env: deps.env,
    settings,
    relay: deps.relay,
    hasher: scheduleKdf(
      deps.hasher ?? createPasswordHasher(deps.kdf ?? DEFAULT_KDF),
      createKdfScheduler({
        concurrency: settings.KDF_CONCURRENCY,
        queue: { known: settings.KDF_QUEUE, unknown: settings.KDF_QUEUE_UNKNOWN },
        maxWaitMs: settings.KDF_MAX_WAIT_MS,
      }),
    ),
    logger,
    now: deps.clock ?? (() => new Date()),
    background: deps.background ?? createBackgroundTasks(logger),
    secrets: deps.secrets,
  }
  // Identity's own table is the truth: a token of a deleted user, or older than the user's auth
  // version (roles changed, password reset), is refused at once.
  const verifier = withTokenCheck(
    deps.verifier,
    createTokenCheck(
      async (id) => {
        const version = await userRepository.authVersion(deps.orm.em.fork(), id)
        return version === null ? { deleted: true, authVersion: 0 } : { deleted: false, authVersion: version }
      },
      { ttlMs: deps.tokenCheckTtlMs },
    ),
  )
  const app = createServiceApp({
    service: 'identity',
    logger,
    maxBodyBytes: 64 * 1024,
    ready: async () => {
      await deps.orm.em.getConnection().execute('select 1')
    },
  })
  const secureCookie = (deps.env.PUBLIC_URL ?? '').startsWith('https:')
  app.use(auditAdminChanges(deps.orm, IDENTITY_AUDITED, IdentityAuditAnswer))
  // Company sign-in (decision 0052): providers from the environment and the admin console.
  const providers = createProviderRegistry(ctx)
  const auth = createAuthService(ctx, createCompanySignIn(ctx, providers))
  app.route('/auth/oidc', oidcSignInRoutes(createOidcSignIn(ctx, providers, auth), { secureCookie }))
  app.route('/auth', authRoutes(auth, deps.issuer, { secureCookie }))
  app.route('/admin/sign-in/providers', providerRoutes(createProviderService(ctx, providers), verifier))
  app.route('/users', userRoutes(createUserService(ctx), verifier))
  app.route('/admin/user-groups', groupRoutes(createGroupService(ctx), verifier))
  app.route('/admin/audit/identity', auditTrailRoutes(deps.orm, 'identity', verifier))
  serveOpenApi(app, {
    service: 'identity',
    title: 'svc-identity',
    description: 'Accounts and sign-in (password and company providers), access and refresh tokens, users, their roles and groups.',
  })
  return app
}
