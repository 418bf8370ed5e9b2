import { z } from 'zod'
import { wholeNumberParam } from './params.ts'

/**
 * Admin e-mails and group notification rules (admin §2, §3, §4, §5, §7, §8, §9). Served by
 * svc-notify; paths below are without the gateway's `/api`.
 */

/** What a global admin e-mail is told about (admin §3). */
export const NOTIFICATION_TYPES = ['exam_completion', 'course_completion'] as const
export const NotificationType = z.enum(NOTIFICATION_TYPES)
export type NotificationType = z.infer<typeof NotificationType>
export const NOTIFICATION_TYPE_LABELS: Record<NotificationType, string> = {
  exam_completion: 'Exam Completion',
  course_completion: 'Course Completion',
}

/** Report frequencies (admin §4); the day of week counts only for weekly. */
export const REPORT_FREQUENCIES = ['immediate', 'daily', 'weekly', 'monthly'] as const
export const ReportFrequency = z.enum(REPORT_FREQUENCIES)
export type ReportFrequency = z.infer<typeof ReportFrequency>
export const REPORT_FREQUENCY_LABELS: Record<ReportFrequency, string> = { immediate: 'Immediate', daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' }
/** Day names by stored value, Sunday 0 through Saturday 6 (admin §9); default Monday. */
export const DAYS_OF_WEEK = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const
/** The days as the form lists them: "Monday 1 through Saturday 6, Sunday 0" (admin §9). */
export const DAY_OF_WEEK_OPTIONS = [1, 2, 3, 4, 5, 6, 0].map((value) => ({ value, label: DAYS_OF_WEEK[value]! }))
export const DEFAULT_REPORT = { frequency: 'weekly', dayOfWeek: 1 } as const

export const NOTIFY_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  emailTaken: 'This email is already registered',
  typesRequired: 'Select at least one notification type',
  emailNotFound: 'Admin email not found',
  ruleNotFound: 'Notification rule not found',
  groupNotFound: 'User group not found',
  dayOfWeekWeeklyOnly: 'A day of week is set only for weekly reports',
  recipientInvalid: (email: string) => `Invalid recipient email: ${email}`,
  reportSent: 'Test report sent successfully!',
  /** Why a group's test report was not sent: everything it still lacks, in plain words (issue 30 item 5). */
  reportNotReady: (missing: readonly ReportMissing[]) => `Nothing sent yet: this group has ${joinWords(missing.map((m) => REPORT_MISSING_WORDS[m]))}.`,
} as const

/** What a group's report can lack: someone to send it to, something to report on, someone to report about. */
export const ReportMissing = z.enum(['recipients', 'tracked_items', 'members'])
export type ReportMissing = z.infer<typeof ReportMissing>
const REPORT_MISSING_WORDS: Record<ReportMissing, string> = {
  recipients: 'no recipients (add them with Edit Recipients)',
  tracked_items: 'nothing tracked (choose exams or courses with Configure Tracking)',
  members: 'no members yet (people join it from the Users tab)',
}
const joinWords = (words: string[]) => (words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`)

const email = z
  .string({ error: NOTIFY_MESSAGES.emailRequired })
  .trim()
  .min(1, NOTIFY_MESSAGES.emailRequired)
  .max(254, NOTIFY_MESSAGES.emailInvalid)
  .toLowerCase()
  .pipe(z.email(NOTIFY_MESSAGES.emailInvalid))

/** A global admin e-mail (admin §3). */
export const AdminEmail = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string().nullable(),
  notification_types: z.array(NotificationType),
  is_active: z.boolean(),
  created_at: z.string(),
})
export type AdminEmail = z.infer<typeof AdminEmail>
export const AdminEmailsResponse = z.array(AdminEmail)

/** POST /admin/emails, PUT /admin/emails/{id}: email, name or null, notification_types (§7). */
export const AdminEmailInput = z.object({
  email,
  name: z
    .string()
    .trim()
    .max(200)
    .nullish()
    .transform((n) => n || null),
  notification_types: z
    .array(NotificationType)
    .max(NOTIFICATION_TYPES.length)
    .default([...NOTIFICATION_TYPES])
    .transform((types) => NOTIFICATION_TYPES.filter((t) => types.includes(t)))
    .refine((types) => types.length > 0, NOTIFY_MESSAGES.typesRequired),
})
export type AdminEmailInput = z.input<typeof AdminEmailInput>

/** A tracked exam or course of a rule (admin §3). */
export const TrackingItemType = z.enum(['exam', 'course'])
export const TrackingItem = z.object({
  type: TrackingItemType,
  id: z.number().int().positive().max(2_147_483_647),
  name: z.string().trim().min(1).max(300),
})
export type TrackingItem = z.infer<typeof TrackingItem>

/** A group's notification rule (admin §3); `trackingItems` as the spec's API names them. */
export const NotificationRule = z.object({
  id: z.number().int(),
  user_group: z.string(),
  notification_type: z.literal('group_report'),
  is_active: z.boolean(),
  recipient_emails: z.array(z.string()),
  report_frequency: ReportFrequency,
  report_day_of_week: z.number().int().min(0).max(6).nullable(),
  last_report_sent: z.string().nullable(),
  trackingItems: z.array(
    z.object({
      item_type: TrackingItemType,
      item_id: z.number().int(),
      exam: z.object({ id: z.number().int(), name: z.string() }).nullable(),
      course: z.object({ id: z.number().int(), title: z.string() }).nullable(),
    }),
  ),
})
export type NotificationRule = z.infer<typeof NotificationRule>
export const NotificationRulesResponse = z.array(NotificationRule)

/** PUT /admin/notification-rules/{id}: is_active or recipient_emails (§7). */
export const UpdateNotificationRuleBody = z
  .object({
    is_active: z.boolean().optional(),
    recipient_emails: z
      .array(z.string().trim().toLowerCase().max(254))
      .max(50)
      .transform((list) => [...new Set(list.filter(Boolean))])
      .superRefine((list, ctx) => {
        for (const e of list) if (!z.email().safeParse(e).success) ctx.addIssue({ code: 'custom', message: NOTIFY_MESSAGES.recipientInvalid(e) })
      })
      .optional(),
  })
  .refine((b) => b.is_active !== undefined || b.recipient_emails !== undefined, 'Nothing to update: send is_active or recipient_emails')

/** GET /email-reports/groups/{group}/tracking. */
export const TrackingConfig = z.object({
  rule: NotificationRule,
  trackingItems: z.array(TrackingItem),
})
export type TrackingConfig = z.infer<typeof TrackingConfig>

/** PUT /email-reports/groups/{group}/tracking (§7). */
export const SaveTrackingBody = z
  .object({
    ruleId: z.number().int().positive(),
    trackingItems: z.array(TrackingItem).max(500),
    reportFrequency: ReportFrequency,
    reportDayOfWeek: z.number().int().min(0).max(6).nullish(),
  })
  .transform((b) => ({ ...b, reportDayOfWeek: b.reportFrequency === 'weekly' ? (b.reportDayOfWeek ?? DEFAULT_REPORT.dayOfWeek) : null }))

/** POST /email-reports/groups/{group}/send-report (§7): a test report now. */
export const SendReportBody = z.object({ reportType: ReportFrequency.or(z.literal('test')).default('test') })
export const SendReportResponse = z.object({ message: z.string(), recipients: z.array(z.string()) })

/** One admin change of the audit trail (issue 13): who, what, when; each service keeps its own. */
export const AuditEntry = z.object({
  id: z.number().int(),
  service: z.string(),
  at: z.string(),
  actor_id: z.string(),
  actor_name: z.string(),
  action: z.string(),
  target: z.string(),
  details: z.record(z.string(), z.unknown()),
})
export type AuditEntry = z.infer<typeof AuditEntry>
export const AuditEntriesResponse = z.array(AuditEntry)
/** The services that keep an audit trail, each at `/admin/audit/{service}`. */
export const AUDITED_SERVICES = ['identity', 'learning', 'notify', 'certs'] as const
/** GET /admin/audit/{service}: by who (name or id), what (action or target), when (from, to). */
export const AuditQuery = z.object({
  actor: z.string().trim().max(200).optional(),
  action: z.string().trim().max(200).optional(),
  from: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
  to: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
  limit: wholeNumberParam('limit', 1, 500).default(200),
})
