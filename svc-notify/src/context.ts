import type { MikroORM } from '@mikro-orm/postgresql'
import type { Logger } from '@portal/server-kit'

/** What notify's services share. */
export interface NotifyContext {
  orm: MikroORM
  logger: Logger
  /** Current time (tests move it). */
  now: () => Date
}
