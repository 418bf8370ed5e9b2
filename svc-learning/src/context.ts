import type { MikroORM } from '@mikro-orm/postgresql'
import type { Logger, OutboxRelay } from '@portal/server-kit'

/** What the services of this deployable share. */
export interface LearningContext {
  orm: MikroORM
  relay: Pick<OutboxRelay, 'kick'>
  logger: Logger
  now: () => Date
}
