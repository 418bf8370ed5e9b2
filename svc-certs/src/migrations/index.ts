import { StorageGarbageTable, UserProjectionTables, type MigrationEntry } from '@portal/server-kit'
import { CertificationTables } from './0001-certification-tables.ts'
import { TeamAndRevenueTables } from './0004-team-and-revenue.ts'
import { CertificationNotifications } from './0005-certification-notifications.ts'
import { TeamFiguresAndAudit } from './0006-team-figures-and-audit.ts'
import { CertificationPeriods } from './0007-certification-periods.ts'
import { KeptBranchFigures } from './0008-kept-branch-figures.ts'
import { AssignmentsAndRenewals } from './0009-assignments-and-renewals.ts'
import { AnnounceNotificationSettings } from './0010-announce-notification-settings.ts'

/** Certs' migrations, in order (the kit prepends the outbox/inbox tables). */
export const migrationsList: MigrationEntry[] = [
  { name: '0001_user_projection', class: UserProjectionTables },
  { name: '0002_storage_garbage', class: StorageGarbageTable },
  { name: '0003_certification_tables', class: CertificationTables },
  { name: '0004_team_and_revenue', class: TeamAndRevenueTables },
  { name: '0005_certification_notifications', class: CertificationNotifications },
  { name: '0006_team_figures_and_audit', class: TeamFiguresAndAudit },
  { name: '0007_certification_periods', class: CertificationPeriods },
  { name: '0008_kept_branch_figures', class: KeptBranchFigures },
  { name: '0009_assignments_and_renewals', class: AssignmentsAndRenewals },
  { name: '0010_announce_notification_settings', class: AnnounceNotificationSettings },
]
