import {
  CERT_NOTIFICATIONS,
  CERT_NOTIFICATION_MESSAGES,
  CERT_NOTIFICATION_TYPE_LABELS,
  NotificationConfigInput,
  complianceColour,
  type DashboardItem,
  type NotificationConfig,
  type NotificationLog,
  type NotificationStatus,
  type TriggerResponse,
} from '@portal/contracts'
import { errorMessage } from '@portal/ui-kit'
import type { Tone } from '../shared/index.ts'

/** The screen's title and its route (the Notification Settings card opens it). */
export const NOTIFICATIONS_TITLE = 'Certification Notification Management'
export const NOTIFICATIONS_ROUTE = '/admin/certification-notifications'

export const NOTIFICATION_TABS = ['Email Configurations', 'Notification Logs', 'Expired Certifications'] as const
export type NotificationTab = (typeof NOTIFICATION_TABS)[number]

/** Default of a failed reminder when the server gives no message (the spec names none). */
export const REMINDER_FAILED = 'Failed to send reminder'

/**
 * A manual run's success (admin §8): the spec's message exactly ("Daily notification check
 * triggered successfully", "Weekly management report triggered successfully") and the run's
 * figures as a sentence of their own.
 */
export function triggerAnnouncement(run: TriggerResponse['run']): { text: string; detail: string } {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  return run.kind === 'daily'
    ? { text: CERT_NOTIFICATION_MESSAGES.dailyTriggered, detail: `${plural(run.published, 'notice')} sent, ${run.paused} withheld (notifications paused).` }
    : { text: CERT_NOTIFICATION_MESSAGES.weeklyTriggered, detail: `${plural(run.published, 'report')} sent.` }
}

/** A compliance percentage's colour (admin §9): ≥ 90 green, ≥ 75 yellow, else red. */
export const complianceTone = (percent: number): Tone => complianceColour(percent)

/** A log status as a badge: sent green, failed red, paused grey, queued (awaiting delivery) blue. */
export const LOG_STATUS: Record<NotificationStatus, { tone: Tone; text: string }> = {
  sent: { tone: 'green', text: 'Sent' },
  failed: { tone: 'red', text: 'Failed' },
  paused: { tone: 'grey', text: 'Paused' },
  queued: { tone: 'blue', text: 'Queued' },
}

export const typeLabel = (log: Pick<NotificationLog, 'notification_type'>): string => CERT_NOTIFICATION_TYPE_LABELS[log.notification_type]

/** The first 20 of the 50 fetched entries (admin §9) and the line that says so. */
export function shownLogs(logs: readonly NotificationLog[]): { rows: NotificationLog[]; caption: string } {
  const rows = logs.slice(0, CERT_NOTIFICATIONS.logsShown)
  const caption =
    logs.length === 0 ? 'No notifications have been logged yet.' : `Showing the latest ${rows.length} of ${logs.length} fetched entr${logs.length === 1 ? 'y' : 'ies'}.`
  return { rows, caption }
}

// ---------------------------------------------------------------------------------------------
// The Email configuration form (admin §2)

export interface ConfigForm {
  manager_email: string
  operations_manager_email: string
  additional_email_1: string
  additional_email_2: string
  is_active: boolean
}
export type ConfigEmailField = Exclude<keyof ConfigForm, 'is_active'>

/** The form's e-mail fields with the spec's labels. */
export const CONFIG_EMAIL_FIELDS: readonly { key: ConfigEmailField; label: string }[] = [
  { key: 'manager_email', label: 'Manager Email (7-day escalation)' },
  { key: 'operations_manager_email', label: 'Operations Manager Email (expired escalation)' },
  { key: 'additional_email_1', label: 'Additional Email 1 (expired notifications)' },
  { key: 'additional_email_2', label: 'Additional Email 2 (expired notifications)' },
]

export const configLabel = (c: Pick<NotificationConfig, 'branch' | 'department'>): string => `${c.branch} · ${c.department}`

export const formFromConfig = (c: NotificationConfig): ConfigForm => ({
  manager_email: c.manager_email ?? '',
  operations_manager_email: c.operations_manager_email ?? '',
  additional_email_1: c.additional_email_1 ?? '',
  additional_email_2: c.additional_email_2 ?? '',
  is_active: c.is_active,
})

/** The form checked with the contract's schema (blank e-mails become null): the body, or the errors by field. */
export function validateConfigForm(form: ConfigForm): { body: NotificationConfigInput } | { errors: Partial<Record<keyof ConfigForm, string>> } {
  const parsed = NotificationConfigInput.safeParse(form)
  if (parsed.success) return { body: parsed.data }
  const errors: Partial<Record<keyof ConfigForm, string>> = {}
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] as keyof ConfigForm | undefined
    if (key && !errors[key]) errors[key] = issue.message
  }
  return { errors }
}

/** The configuration save alert (admin §8): "Failed to save configuration: {message or Unknown error}". */
export const saveConfigFailed = (error: unknown): string => `Failed to save configuration: ${errorMessage(error, 'Unknown error')}`

// ---------------------------------------------------------------------------------------------
// Expired certifications and reminders

/** The expired items of a branch ('' for all branches), most overdue first. */
export const expiredOfBranch = (items: readonly DashboardItem[], branch: string): DashboardItem[] =>
  items.filter((i) => !branch || i.user.branch === branch).sort((a, b) => a.days_until_expiry - b.days_until_expiry)

/** A row's name for its controls and messages: the e-mail beside the name tells two people of the same name apart (issue 30 item 3). */
export const itemLabel = (i: DashboardItem): string => `${i.user.name} (${i.user.email}): ${i.certification.name} (${i.certification.code})`

export interface BulkOutcome {
  succeeded: DashboardItem[]
  failed: { item: DashboardItem; message: string }[]
}

/**
 * The bulk reminder (admin §7): the single call repeated per item, one after the other, counting
 * successes and failures (a failure does not stop the rest).
 */
export async function sendReminders(items: readonly DashboardItem[], send: (id: number) => Promise<unknown>): Promise<BulkOutcome> {
  const outcome: BulkOutcome = { succeeded: [], failed: [] }
  for (const item of items) {
    try {
      await send(item.technician_certification_id)
      outcome.succeeded.push(item)
    } catch (error) {
      outcome.failed.push({ item, message: errorMessage(error, REMINDER_FAILED) })
    }
  }
  return outcome
}

/** "Reminders sent: 3 succeeded, 1 failed." */
export const bulkSummary = (o: BulkOutcome): string => `Reminders sent: ${o.succeeded.length} succeeded, ${o.failed.length} failed.`
