import type { MigrationEntry } from '@portal/server-kit'
import { IdentityTables } from './0001-identity-tables.ts'

/** Identity's migrations, in order (the kit prepends the outbox/inbox tables). */
export const migrationsList: MigrationEntry[] = [{ name: '0001_identity_tables', class: IdentityTables }]
