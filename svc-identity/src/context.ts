import type { MikroORM } from '@mikro-orm/postgresql'
import type { Logger, OutboxRelay, PlatformEnv, SecretBox, TokenIssuer } from '@portal/server-kit'
import type { BackgroundTasks } from './background.ts'
import type { ScheduledHasher } from './shared/index.ts'
import type { IdentitySettings } from './settings.ts'

/** Identity's environment: the platform's plus its own optional keys (defaults in settings.ts). */
export type IdentityEnv = PlatformEnv &
  Partial<IdentitySettings> & {
    /** A private Ed25519 JWK (JSON); when absent the key file under DATA_DIR is used. */
    JWT_PRIVATE_JWK?: string
  }

/** What the services of this deployable share. */
export interface IdentityContext {
  orm: MikroORM
  issuer: TokenIssuer
  env: IdentityEnv
  settings: IdentitySettings
  relay: Pick<OutboxRelay, 'kick'>
  /** The password KDF, scheduled (`scheduleKdf`): known browsers first; `KdfBusy` when a hash would wait too long. */
  hasher: ScheduledHasher
  logger: Logger
  now: () => Date
  background: BackgroundTasks
  /** Seals the secrets identity keeps (OIDC client secrets) under a key not in the database (decision 0055). */
  secrets: SecretBox
}
