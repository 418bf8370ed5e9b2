import { StorageGarbageTable, UserProjectionTables, type MigrationEntry } from '@portal/server-kit'
import { CertificationTables } from './0001-certification-tables.ts'
import { CertificationNotifications } from './0003-certification-notifications.ts'

/** Certs' migrations, in order (the kit prepends the outbox/inbox tables). */
export const migrationsList: MigrationEntry[] = [
  { name: '0001_user_projection', class: UserProjectionTables },
  { name: '0002_storage_garbage', class: StorageGarbageTable },
  { name: '0003_certification_tables', class: CertificationTables },
  { name: '0003_certification_notifications', class: CertificationNotifications },
]
