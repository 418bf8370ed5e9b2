import { AuditTrailTable, type MigrationEntry } from '@portal/server-kit'
import { IdentityTables } from './0001-identity-tables.ts'
import { AnnounceUsers } from './0002-announce-users.ts'
import { SessionsAndLimits } from './0003-sessions-and-limits.ts'
import { KnownDevices } from './0005-known-devices.ts'
import { CompanySignIn } from './0006-company-sign-in.ts'

/** Identity's migrations, in order (the kit prepends the outbox/inbox tables). */
export const migrationsList: MigrationEntry[] = [
  { name: '0001_identity_tables', class: IdentityTables },
  { name: '0002_announce_users', class: AnnounceUsers },
  { name: '0003_sessions_and_limits', class: SessionsAndLimits },
  // The server kit's audit trail of admin changes (decision 0030).
  { name: '0004_audit_trail', class: AuditTrailTable },
  { name: '0005_known_devices', class: KnownDevices },
  { name: '0006_company_sign_in', class: CompanySignIn },
]
