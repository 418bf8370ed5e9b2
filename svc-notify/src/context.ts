import type { MikroORM } from '@mikro-orm/postgresql'
import type { Logger } from '@portal/server-kit'
import type { DeliveryRepository } from './deliveries/index.ts'

/** What notify's services share. */
export interface NotifyContext {
  orm: MikroORM
  logger: Logger
  /** Current time (tests move it). */
  now: () => Date
  /** Where mails are queued (in the caller's transaction). */
  deliveries: DeliveryRepository
  /** Tells the sender that mails were queued. */
  kick: () => void
}
