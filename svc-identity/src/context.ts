import type { MikroORM } from '@mikro-orm/postgresql'
import type { Logger, OutboxRelay, PlatformEnv, TokenIssuer } from '@portal/server-kit'
import type { PasswordHasher } from './auth/password.ts'

/** Identity's environment: the platform's plus its own optional keys. */
export type IdentityEnv = PlatformEnv & {
  /** A private Ed25519 JWK (JSON); when absent the key file under DATA_DIR is used. */
  JWT_PRIVATE_JWK?: string
}

/** What the services of this deployable share. */
export interface IdentityContext {
  orm: MikroORM
  issuer: TokenIssuer
  env: IdentityEnv
  relay: Pick<OutboxRelay, 'kick'>
  hasher: PasswordHasher
  logger: Logger
  now: () => Date
}

export const TOKEN_TTL_SECONDS = 8 * 3600
