import type { MigrationEntry } from '@portal/server-kit'
import { EmailDeliveries } from './0001-email-deliveries.ts'
import { NoticeDeliveries } from './0003-notice-deliveries.ts'

/** Notify's migrations, applied in order after the kit's platform tables. */
export const migrationsList: MigrationEntry[] = [
  { name: '0001_email_deliveries', class: EmailDeliveries },
  { name: '0003_notice_deliveries', class: NoticeDeliveries },
]
