import type { MikroORM } from '@mikro-orm/postgresql'
import type { GarbageCleaner, Logger, Storage } from '@portal/server-kit'

/** What the services of this deployable share. */
export interface CertsContext {
  orm: MikroORM
  logger: Logger
  now: () => Date
  /** The company's time zone (COMPANY_TIME_ZONE). */
  timeZone: string
  /** The company's calendar date now (`YYYY-MM-DD`): "today" of every figure, badge, export and e-mail. */
  today: () => string
  /** Certification proofs. */
  storage: Storage
  /** Removes proof files nothing refers to any more (failed uploads, replaced or deleted proofs). */
  garbage: Pick<GarbageCleaner, 'collect'>
}
