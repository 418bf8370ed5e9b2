import type { MigrationEntry } from '@portal/server-kit'
import { EmailDeliveries } from './0001-email-deliveries.ts'
import { AdminEmailsAndGroupReports } from './0002-admin-emails-and-group-reports.ts'
import { NoticeDeliveries } from './0003-notice-deliveries.ts'
import { DeliveryAttemptsInFlight } from './0004-delivery-attempts-in-flight.ts'
import { AssignmentReminders } from './0005-assignment-reminders.ts'

/** Notify's migrations, applied in order after the kit's platform tables. */
export const migrationsList: MigrationEntry[] = [
  { name: '0001_email_deliveries', class: EmailDeliveries },
  { name: '0002_admin_emails_and_group_reports', class: AdminEmailsAndGroupReports },
  { name: '0003_notice_deliveries', class: NoticeDeliveries },
  { name: '0004_delivery_attempts_in_flight', class: DeliveryAttemptsInFlight },
  { name: '0005_assignment_reminders', class: AssignmentReminders },
]
