import type { MikroORM } from '@mikro-orm/postgresql'
import { createLogger, createServiceApp, type Logger, type OutboxRelay, type TokenIssuer, type TokenVerifier } from '@portal/server-kit'
import { authRoutes } from './auth/auth.routes.ts'
import { createAuthService } from './auth/auth.service.ts'
import { createPasswordHasher, DEFAULT_KDF, type KdfParams } from './auth/password.ts'
import type { IdentityContext, IdentityEnv } from './context.ts'
import { groupRoutes } from './groups/group.routes.ts'
import { createGroupService } from './groups/group.service.ts'
import { userRoutes } from './users/user.routes.ts'
import { createUserService } from './users/user.service.ts'

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
}

/** Identity's Hono app: auth, users and user groups (paths without the gateway's `/api`). */
export function createApp(deps: AppDeps) {
  const logger = deps.logger ?? createLogger('identity', deps.env.LOG_LEVEL)
  const ctx: IdentityContext = {
    orm: deps.orm,
    issuer: deps.issuer,
    env: deps.env,
    relay: deps.relay,
    hasher: createPasswordHasher(deps.kdf ?? DEFAULT_KDF),
    logger,
    now: deps.clock ?? (() => new Date()),
  }
  const app = createServiceApp({
    service: 'identity',
    logger,
    maxBodyBytes: 64 * 1024,
    ready: async () => {
      await deps.orm.em.getConnection().execute('select 1')
    },
  })
  app.route('/auth', authRoutes(createAuthService(ctx), deps.issuer))
  app.route('/users', userRoutes(createUserService(ctx), deps.verifier))
  app.route('/admin/user-groups', groupRoutes(createGroupService(ctx), deps.verifier))
  return app
}
