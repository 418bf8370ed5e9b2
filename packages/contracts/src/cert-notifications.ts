import { z } from 'zod'
import { Branch, Department } from './identity.ts'
import { IsoDate } from './certs.ts'
import { RECERTIFICATION_WINDOW_DAYS, type NoticeBand } from './cert-rules.ts'
import { numericId, wholeNumberParam } from './params.ts'

/**
 * Certification expiry notifications (admin §2 Certification Notification Management screen and
 * Email configuration form; §3 config, log, dashboard; §4; §7 `/certification-notifications/...`;
 * §8; §9; learner §4, §9 escalation and pause). Served by svc-certs; paths below are without the
 * gateway's `/api`. The e-mails themselves are sent by svc-notify from the events at the end.
 */

// ---------------------------------------------------------------------------------------------
// Constants

/**
 * Days before expiry at which the technician is told; 0 is the `expired` band, once the expiration
 * date has passed (admin §9 "expired below 0"): on the date itself the 7-day band still holds.
 */

/** Log notification types (admin §4), plus the two the manual actions add. */
export const CERT_NOTIFICATION_TYPES = ['30_day', '14_day', '7_day', 'expired', 'manager_escalation', 'ops_escalation', 'manual_reminder', 'weekly_report'] as const
export const CertNotificationType = z.enum(CERT_NOTIFICATION_TYPES)
export type CertNotificationType = z.infer<typeof CertNotificationType>
export const CERT_NOTIFICATION_TYPE_LABELS: Record<CertNotificationType, string> = {
  '30_day': '30-day warning',
  '14_day': '14-day warning',
  '7_day': '7-day warning',
  expired: 'Expired',
  manager_escalation: 'Manager escalation (7-day)',
  ops_escalation: 'Operations manager escalation (expired)',
  manual_reminder: 'Manual reminder',
  weekly_report: 'Weekly management report',
}

/** The technician's notice type of a band. */
export const bandNotificationType = (band: NoticeBand): '30_day' | '14_day' | '7_day' | 'expired' => (band === 0 ? 'expired' : (`${band}_day` as '30_day' | '14_day' | '7_day'))

/**
 * Log statuses (admin §4: sent, failed, paused). `queued` is the state between the notice being
 * published and svc-notify reporting the delivery's outcome.
 */
export const NOTIFICATION_STATUSES = ['queued', 'sent', 'failed', 'paused'] as const
export const NotificationStatus = z.enum(NOTIFICATION_STATUSES)
export type NotificationStatus = z.infer<typeof NotificationStatus>

/** Dashboard groups by days to expiry (admin §9): expired < 0, critical ≤ 10, warning ≤ 30, notice ≤ 60. */
export const DASHBOARD_GROUPS = ['expired', 'critical', 'warning', 'notice'] as const
export type DashboardGroup = (typeof DASHBOARD_GROUPS)[number]

export const CERT_NOTIFICATIONS = {
  /** Entries the screen fetches and the first it shows (admin §9). */
  logsFetched: 50,
  logsShown: 20,
  logsMax: 500,
  /** Default and largest dashboard window in days. */
  dashboardDays: 60,
  /** Items per group the management screen asks for (`limit`); the counts are always the totals. */
  dashboardListed: 100,
  dashboardListedMax: 10_000,
  dashboardDaysMax: 365,
  /** Forecast horizons in days (beyond the spec). */
  forecastHorizons: [30, 60, 90] as const,
  /** Renewing from this many days before expiry extends from the old expiry (beyond the spec). */
  recertificationWindowDays: RECERTIFICATION_WINDOW_DAYS,
  /** Largest stats range in days. */
  statsMaxDays: 366,
} as const

export const CERT_NOTIFICATION_MESSAGES = {
  // Admin §8 defaults and successes.
  dailyFailed: 'Failed to trigger daily check',
  weeklyFailed: 'Failed to trigger weekly report',
  statusFailed: 'Failed to update configuration status',
  saveFailed: (message?: string) => `Failed to save configuration: ${message || 'Unknown error'}`,
  dailyTriggered: 'Daily notification check triggered successfully',
  weeklyTriggered: 'Weekly management report triggered successfully',
  configUpdated: 'Configuration updated successfully!',
  // Server answers.
  invalidEmail: 'Please enter a valid email address',
  activateWithoutEmail: 'Add a manager or operations manager email before activating this configuration',
  configNotFound: 'Configuration not found',
  certificationNotFound: 'Technician certification not found',
  noExpiry: 'This certification does not expire',
  reminderSent: 'Reminder sent',
  reminderPaused: 'Notifications are paused for this technician',
  runInProgress: 'This run is already in progress on another instance; try again shortly',
  invalidDateRange: 'The start date must not be after the end date',
  rangeTooLong: 'The date range may span at most 366 days',
  ackInvalid: 'This acknowledgement link is invalid or has expired',
  ackUsed: 'This escalation has already been acknowledged',
  acknowledged: 'Escalation acknowledged. Thank you.',
} as const

// ---------------------------------------------------------------------------------------------
// Configurations (admin §2 form, §3 entity): one per branch and department

/** An optional e-mail field: blank becomes null (admin §3), otherwise a valid address. */
const optionalEmail = z
  .union([z.string(), z.null()])
  .optional()
  .transform((v) => (typeof v === 'string' ? v.trim() : v))
  .transform((v) => (v ? v.toLowerCase() : v === undefined ? undefined : null))
  .refine((v) => v == null || z.email().safeParse(v).success, CERT_NOTIFICATION_MESSAGES.invalidEmail)

export const NotificationConfig = z.object({
  id: z.number().int(),
  branch: Branch,
  department: Department,
  /** 7-day escalation. */
  manager_email: z.string().nullable(),
  /** Expired escalation. */
  operations_manager_email: z.string().nullable(),
  /** Expired notifications. */
  additional_email_1: z.string().nullable(),
  additional_email_2: z.string().nullable(),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
})
export type NotificationConfig = z.infer<typeof NotificationConfig>

/**
 * PUT /certification-notifications/configs/{id}: any subset of the form's fields (the active
 * toggle sends `is_active` alone). Absent fields keep their value; blank e-mails become null.
 * Activating needs a manager or operations manager e-mail.
 */
export const NotificationConfigInput = z.object({
  manager_email: optionalEmail,
  operations_manager_email: optionalEmail,
  additional_email_1: optionalEmail,
  additional_email_2: optionalEmail,
  is_active: z.boolean().optional(),
})
export type NotificationConfigInput = z.input<typeof NotificationConfigInput>

/** GET configs: every branch × department combination, Portland first, in the spec's order. */
export const NotificationConfigsResponse = z.object({ configs: z.array(NotificationConfig) })
/** GET configs/{branch}/{department}, PUT configs/{id}. */
export const NotificationConfigResponse = z.object({ message: z.string().optional(), config: NotificationConfig })
export const ConfigPathParams = z.object({ branch: Branch, department: Department })

// ---------------------------------------------------------------------------------------------
// Logs (admin §3)

export const NotificationLogsQuery = z.object({
  limit: wholeNumberParam('limit', 1, CERT_NOTIFICATIONS.logsMax).default(CERT_NOTIFICATIONS.logsFetched),
  branch: Branch.optional(),
  notification_type: CertNotificationType.optional(),
  status: NotificationStatus.optional(),
})

export const NotificationLog = z.object({
  id: z.number().int(),
  /** When the notice was published (or, for `paused`, withheld). */
  sent_at: z.string(),
  technician: z
    .object({
      id: z.uuid(),
      name: z.string(),
      branch: Branch.nullable(),
      department: Department.nullable(),
    })
    .nullable(),
  certification: z.object({ id: z.number().int(), code: z.string(), name: z.string() }).nullable(),
  technician_certification_id: z.number().int().nullable(),
  notification_type: CertNotificationType,
  recipient_emails: z.array(z.string()),
  status: NotificationStatus,
  /** The delivery's error when failed. */
  error: z.string().nullable(),
  expiration_date: z.string().nullable(),
  days_until_expiry: z.number().int().nullable(),
  /** Manager escalations: when the manager acknowledged it through the e-mail's link. */
  acknowledged_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
})
export type NotificationLog = z.infer<typeof NotificationLog>
export const NotificationLogsResponse = z.object({ logs: z.array(NotificationLog) })

// ---------------------------------------------------------------------------------------------
// Dashboard (admin §3) with the compliance overview

const queryBoolean = z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]).transform((v) => v === true || v === 'true' || v === '1')

export const DashboardQuery = z.object({
  days: wholeNumberParam('days', 1, CERT_NOTIFICATIONS.dashboardDaysMax).default(CERT_NOTIFICATIONS.dashboardDays),
  include_expired: queryBoolean.default(true),
  branch: Branch.optional(),
  /** At most this many items per group, soonest expiry first (default: all); `counts` stay the totals. */
  limit: wholeNumberParam('limit', 1, CERT_NOTIFICATIONS.dashboardListedMax).optional(),
})

export const DashboardItem = z.object({
  technician_certification_id: z.number().int(),
  user: z.object({
    id: z.uuid(),
    name: z.string(),
    email: z.string(),
    branch: Branch.nullable(),
    department: Department.nullable(),
    notifications_paused: z.boolean(),
  }),
  certification: z.object({ id: z.number().int(), name: z.string(), code: z.string(), tier_level: z.number().int() }),
  expiration_date: z.string(),
  days_until_expiry: z.number().int(),
})
export type DashboardItem = z.infer<typeof DashboardItem>

/**
 * Compliance of a set of technicians (every non-admin user, managers included), read from the one
 * ledger of kept figures (issue 23). `compliant` is admin §9's measure, "No expired certifications";
 * `requirements_met` the team's, "Requirements met" (learner §9, completion ≥ 100).
 */
export const ComplianceFigures = z.object({
  technicians: z.number().int(),
  /** Technicians without an expired certification ("No expired certifications"). */
  compliant: z.number().int(),
  /** Technicians with at least one expired certification. */
  non_compliant: z.number().int(),
  expired_certifications: z.number().int(),
  expiring_30_days: z.number().int(),
  /** compliancePercentage(compliant, technicians). */
  percentage: z.number().int().min(0).max(100),
  /** Technicians who meet every requirement that counts for them ("Requirements met"); optional within v1 events. */
  requirements_met: z.number().int().optional(),
})
export type ComplianceFigures = z.infer<typeof ComplianceFigures>
/** A branch's row; `branch` null is the row of technicians without a branch ("No branch"), so the rows add up to the organisation. */
export const BranchCompliance = ComplianceFigures.extend({ branch: Branch.nullable() })
export type BranchCompliance = z.infer<typeof BranchCompliance>

export const CertificationDashboard = z.object({
  expired: z.array(DashboardItem),
  critical: z.array(DashboardItem),
  warning: z.array(DashboardItem),
  notice: z.array(DashboardItem),
  counts: z.object({ expired: z.number().int(), critical: z.number().int(), warning: z.number().int(), notice: z.number().int() }),
  compliance: z.object({ organisation: ComplianceFigures, branches: z.array(BranchCompliance) }),
  generated_on: z.string(),
})
export type CertificationDashboard = z.infer<typeof CertificationDashboard>

// ---------------------------------------------------------------------------------------------
// Stats

export const StatsQuery = z.object({ start_date: IsoDate.optional(), end_date: IsoDate.optional() }).refine((q) => !q.start_date || !q.end_date || q.start_date <= q.end_date, {
  message: CERT_NOTIFICATION_MESSAGES.invalidDateRange,
  path: ['start_date'],
})

const Counts = z.object({
  total: z.number().int(),
  by_type: z.record(z.string(), z.number().int()),
  by_status: z.record(z.string(), z.number().int()),
})
/** GET stats: log counts by type and status, in total, per day (UTC) and per branch. Default range: the last 30 days. */
export const NotificationStats = z.object({
  start_date: z.string(),
  end_date: z.string(),
  totals: Counts,
  days: z.array(Counts.extend({ date: z.string() })),
  branches: z.array(Counts.extend({ branch: z.string() })),
})
export type NotificationStats = z.infer<typeof NotificationStats>

// ---------------------------------------------------------------------------------------------
// Manual actions

/** POST trigger/daily, trigger/weekly: answer once the run is done (409 while one runs elsewhere). */
export const TriggerResponse = z.object({
  message: z.string(),
  run: z.object({
    id: z.number().int(),
    kind: z.enum(['daily', 'weekly']),
    started_at: z.string(),
    finished_at: z.string().nullable(),
    /** Notices published (daily: technician notices and escalations; weekly: reports). */
    published: z.number().int(),
    /** Technician notices withheld because notifications are paused. */
    paused: z.number().int(),
  }),
})
export type TriggerResponse = z.infer<typeof TriggerResponse>

/** POST send-reminder: one reminder to the technician (the bulk action repeats it per item). */
export const SendReminderBody = z.object({ technician_certification_id: numericId('technician certification') })
export const CertReminderResponse = z.object({ message: z.string(), log: NotificationLog })

/** POST acknowledge: the manager's one-click acknowledgement (signed, single use; beyond the spec). */
export const AcknowledgeBody = z.object({ token: z.string().min(10).max(2000) })
export const AcknowledgeResponse = z.object({ message: z.string(), log_id: z.number().int(), acknowledged_at: z.string() })

// ---------------------------------------------------------------------------------------------
// Compliance forecast (beyond the spec): GET forecast

export const ForecastTechnician = z.object({
  user_id: z.uuid(),
  name: z.string(),
  department: Department.nullable(),
  /** The first certification that expires within the horizon. */
  certification: z.object({ id: z.number().int(), code: z.string(), name: z.string() }),
  technician_certification_id: z.number().int(),
  expiration_date: z.string(),
  days_until_expiry: z.number().int(),
})
export const ForecastHorizon = z.object({
  days: z.number().int(),
  /** Compliant today and no longer compliant within the horizon (unless renewed). */
  falling_out: z.array(ForecastTechnician),
  compliant: z.number().int(),
  percentage: z.number().int().min(0).max(100),
})
export const BranchForecast = z.object({
  branch: Branch,
  technicians: z.number().int(),
  compliant_now: z.number().int(),
  percentage_now: z.number().int().min(0).max(100),
  horizons: z.array(ForecastHorizon),
})
export const ComplianceForecast = z.object({ generated_on: z.string(), horizons: z.array(z.number().int()), branches: z.array(BranchForecast) })
export type ComplianceForecast = z.infer<typeof ComplianceForecast>

// ---------------------------------------------------------------------------------------------
// Events between svc-certs and svc-notify

/** One e-mail svc-notify is asked to send; its outcome comes back with the same `noticeId`. */
export const NoticeMail = z.object({
  noticeId: z.uuid(),
  notificationType: CertNotificationType,
  to: z.array(z.email()).min(1),
  /** Manager escalations: the signed single-use acknowledgement link. */
  acknowledgeUrl: z.url().optional(),
})
export type NoticeMail = z.infer<typeof NoticeMail>

const NoticeTechnician = z.object({
  userId: z.uuid(),
  name: z.string(),
  email: z.email(),
  branch: Branch.nullable(),
  department: Department.nullable(),
  /** The technician's own profile (their mails). */
  profileUrl: z.url(),
  /** The technician's page for managers and operations (escalations, reports). */
  teamProfileUrl: z.url(),
})
const NoticeCertification = z.object({
  userCertificationId: z.number().int(),
  certificationTypeId: z.number().int(),
  code: z.string(),
  name: z.string(),
  expirationDate: z.string(),
  daysLeft: z.number().int(),
  trainingLink: z.string().nullable(),
})

/** `certs.certification.expiring.v1` (bands 30, 14, 7) and `certs.certification.expired.v1` (band 0: the expiration date has passed). */
export const CertificationExpiryNotice = z.object({
  band: z.union([z.literal(30), z.literal(14), z.literal(7), z.literal(0)]),
  technician: NoticeTechnician,
  certification: NoticeCertification,
  /** The e-mails to send; a paused technician's own notice is absent (logged as paused). */
  notices: z.array(NoticeMail),
})
export type CertificationExpiryNotice = z.infer<typeof CertificationExpiryNotice>

/** `certs.certification.reminder-requested.v1`: an admin's manual reminder. */
export const CertificationReminderNotice = z.object({
  technician: NoticeTechnician,
  certification: NoticeCertification,
  notice: NoticeMail,
})

/** `certs.compliance.report-compiled.v1`: one weekly report for one configuration's manager. */
export const ComplianceReportNotice = z.object({
  notice: NoticeMail,
  branch: Branch,
  department: Department,
  weekOf: z.string(),
  compliance: ComplianceFigures,
  dashboardUrl: z.url(),
  technicians: z.array(
    z.object({
      userId: z.uuid(),
      name: z.string(),
      profileUrl: z.url(),
      expired: z.array(z.object({ code: z.string(), name: z.string(), expirationDate: z.string(), daysLeft: z.number().int() })),
      expiringSoon: z.array(z.object({ code: z.string(), name: z.string(), expirationDate: z.string(), daysLeft: z.number().int() })),
    }),
  ),
})
export type ComplianceReportNotice = z.infer<typeof ComplianceReportNotice>

/** `notify.email.sent.v1` / `notify.email.failed.v1`: the outcome of a notice's delivery. */
export const EmailOutcome = z.object({
  noticeId: z.uuid(),
  to: z.array(z.string()),
  template: z.string(),
  attempts: z.number().int(),
  at: z.iso.datetime(),
  error: z.string().nullable(),
})
export type EmailOutcome = z.infer<typeof EmailOutcome>

export const CertNotificationEvents = {
  'certs.certification.expiring.v1': CertificationExpiryNotice,
  'certs.certification.expired.v1': CertificationExpiryNotice,
  'certs.certification.reminder-requested.v1': CertificationReminderNotice,
  'certs.compliance.report-compiled.v1': ComplianceReportNotice,
  'notify.email.sent.v1': EmailOutcome,
  'notify.email.failed.v1': EmailOutcome,
} as const
