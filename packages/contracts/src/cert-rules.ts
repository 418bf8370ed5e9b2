/**
 * Every certification rule, once (issue 23: one certification ledger). Plain functions over plain
 * values, no schemas: the remotes import them (`@portal/contracts/cert-rules`) without loading the
 * contracts' schemas, and svc-certs says each of them in SQL beside a test that they agree
 * (`svc-certs/src/compliance/rules-sql.ts`). What counts as "today" is the company's calendar date
 * (`todayIn`), the same for every screen, export, report and e-mail.
 */

// ---------------------------------------------------------------------------------------------
// Days

const DAY_MS = 86_400_000
const utcDay = (isoDate: string) => Date.UTC(+isoDate.slice(0, 4), +isoDate.slice(5, 7) - 1, +isoDate.slice(8, 10))

/** Today as `YYYY-MM-DD` in UTC (what the browser falls back to when the server did not say). */
export const todayIso = (now: Date = new Date()): string => now.toISOString().slice(0, 10)

/** The company's time zone when nothing configures one (the daily check's since issue 11). */
export const DEFAULT_COMPANY_TIME_ZONE = 'America/Los_Angeles'

/** One date format per time zone: making an Intl.DateTimeFormat costs far more than using one. */
const dateFormats = new Map<string, Intl.DateTimeFormat>()

/** The calendar date at `at` in `timeZone` (`YYYY-MM-DD`): the company's "today". */
export const todayIn = (timeZone: string, at: Date = new Date()): string => {
  let format = dateFormats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    dateFormats.set(timeZone, format)
  }
  return format.format(at)
}

/** Whole days from `today` to `date` (negative once passed). */
export const daysUntil = (date: string, today: string): number => Math.round((utcDay(date) - utcDay(today)) / DAY_MS)

/** The date `days` after (or before) `date`. */
export const addDays = (date: string, days: number): string => new Date(utcDay(date) + days * DAY_MS).toISOString().slice(0, 10)

/**
 * Expired (learner §4 "expiration passed", admin §9 "expired below 0"): the one rule behind the
 * status, the badge, validity and the notice bands. The expiration date itself is the last valid day.
 */
export const isExpired = (daysLeft: number): boolean => daysLeft < 0

/** The obtained date plus the validity months (day clamped to the month's end); null for lifetime. */
export function computeExpiration(obtained: string, validityMonths: number | null): string | null {
  if (validityMonths === null) return null
  const y = +obtained.slice(0, 4)
  const m = +obtained.slice(5, 7) - 1 + validityMonths
  const d = +obtained.slice(8, 10)
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate()
  return new Date(Date.UTC(y, m, Math.min(d, last))).toISOString().slice(0, 10)
}

/** Renewing from this many days before expiry extends from the old expiry (beyond the spec). */
export const RECERTIFICATION_WINDOW_DAYS = 60

/** Whether a renewal on `renewedOn` is inside the recertification window: from 60 days before `oldExpiration` up to that day. */
export function inRecertificationWindow(oldExpiration: string, renewedOn: string): boolean {
  const left = daysUntil(oldExpiration, renewedOn)
  return left >= 0 && left <= RECERTIFICATION_WINDOW_DAYS
}

/**
 * Recertification window (beyond the spec): a renewal from 60 days before the old expiry up to
 * the expiry day runs from the old expiry; earlier or later renewals run from the renewal day.
 */
export function renewedExpiration(oldExpiration: string | null, renewedOn: string, validityMonths: number | null): string | null {
  if (validityMonths === null) return null
  if (oldExpiration !== null && inRecertificationWindow(oldExpiration, renewedOn)) return computeExpiration(oldExpiration, validityMonths)
  return computeExpiration(renewedOn, validityMonths)
}

// ---------------------------------------------------------------------------------------------
// Badges (learner §4, §9) and notice bands (admin §9)

/** Expiration badge thresholds in days (learner §4, §9; admin §9 bands). */
export const EXPIRY_BANDS = { critical: 10, warning: 30, notice: 60 } as const

export const EXPIRATION_BADGES = ['expired', 'critical', 'warning', 'notice'] as const
export type ExpirationBadgeKind = (typeof EXPIRATION_BADGES)[number]

/** Badge by days remaining (learner §4): expired < 0, critical ≤ 10, warning ≤ 30, notice ≤ 60. */
export function expirationBadge(days: number | null): ExpirationBadgeKind | null {
  if (days === null) return null
  if (isExpired(days)) return 'expired'
  if (days <= EXPIRY_BANDS.critical) return 'critical'
  if (days <= EXPIRY_BANDS.warning) return 'warning'
  if (days <= EXPIRY_BANDS.notice) return 'notice'
  return null
}

/** Expiring soon (the figures' "Expiring Soon"): not expired and within the 30-day warning window. */
export const isExpiringSoon = (daysLeft: number): boolean => !isExpired(daysLeft) && daysLeft <= EXPIRY_BANDS.warning

export const NOTICE_BANDS = [30, 14, 7, 0] as const
export type NoticeBand = (typeof NOTICE_BANDS)[number]

/**
 * The band a certification is in on a day: the smallest band whose threshold it has reached
 * (expired, `isExpired`: 0; the expiration date itself is still in the 7-day band); null while
 * more than 30 days remain. A certification first seen inside a later band gets only that band's
 * notice.
 */
export function noticeBand(daysLeft: number): NoticeBand | null {
  if (isExpired(daysLeft)) return 0
  if (daysLeft <= 7) return 7
  if (daysLeft <= 14) return 14
  if (daysLeft <= 30) return 30
  return null
}

// ---------------------------------------------------------------------------------------------
// A held certification

export const CERTIFICATION_STATUSES = ['Expired', 'Verified', 'Uploaded', 'Not Uploaded', 'Completed'] as const
export type CertificationStatusKind = (typeof CERTIFICATION_STATUSES)[number]

/** What the status rule needs of a technician's certification. */
export interface StatusFacts {
  expiration_date: string | null
  verified_at: string | null
  file_name: string | null
  certification: { upload_required: boolean }
}

/** Valid: not expired (lifetime certifications never expire). */
export const isCertificationValid = (c: Pick<StatusFacts, 'expiration_date'>, today: string): boolean =>
  c.expiration_date === null || !isExpired(daysUntil(c.expiration_date, today))

/**
 * Status of a technician's certification (learner §4): Expired once the expiration date has
 * passed; else Verified when verified; else Uploaded / Not Uploaded for types that require a
 * proof; else Completed.
 */
export function certificationStatus(c: StatusFacts, today: string): CertificationStatusKind {
  if (!isCertificationValid(c, today)) return 'Expired'
  if (c.verified_at !== null) return 'Verified'
  if (c.certification.upload_required) return c.file_name !== null ? 'Uploaded' : 'Not Uploaded'
  return 'Completed'
}

/**
 * Whether a held certification meets a requirement (learner §4): valid and not expired; the
 * manager view also needs the proof uploaded where the type requires one. Every compliance figure
 * (team, admin overview, notification management, reports) counts in the manager view.
 */
export function requirementMet(c: StatusFacts | undefined, today: string, opts: { managerView?: boolean } = {}): boolean {
  if (!c || !isCertificationValid(c, today)) return false
  if (opts.managerView && c.certification.upload_required && c.file_name === null) return false
  return true
}

// ---------------------------------------------------------------------------------------------
// A technician, and the two measures of compliance

/** Completion (tier progress, team progress): requirements met over those that count, rounded down; 100 when none count. */
export const completionPercent = (met: number, total: number): number => (total === 0 ? 100 : Math.floor((met * 100) / total))

/** Learner §9: a member is compliant at this completion percentage. */
export const COMPLIANT_AT = 100

/**
 * "Requirements met" (learner §9: compliant = completion ≥ 100): every requirement that counts for
 * the technician's tier and department is met (manager view). The team dashboard's Compliant.
 */
export const meetsRequirements = (completion: number): boolean => completion >= COMPLIANT_AT

/**
 * "No expired certifications" (admin §9): the technician holds no expired certification. The
 * measure of Certification Notification Management's compliance percentage.
 */
export const hasNoExpired = (expiredHeld: number): boolean => expiredHeld === 0

/** Compliance percentage (admin §9): technicians without expired certifications / total, rounded; 100 when there are none. */
export const compliancePercentage = (compliant: number, total: number): number => (total === 0 ? 100 : Math.round((compliant * 100) / total))

/** Compliance colours (admin §9): ≥ 90 green, ≥ 75 yellow, else red. */
export type ComplianceColour = 'green' | 'yellow' | 'red'
export const complianceColour = (percent: number): ComplianceColour => (percent >= 90 ? 'green' : percent >= 75 ? 'yellow' : 'red')

/** What each measure counts, in the words every card and help text uses. */
export const COMPLIANCE_MEASURES = {
  requirementsMet: {
    label: 'Requirements met',
    help: 'Technicians who hold every certification their tier and department require, valid and with the proof uploaded where the type asks for one.',
  },
  noExpired: {
    label: 'No expired certifications',
    help: 'Technicians who hold no expired certification, out of all technicians.',
  },
  technicians: 'Technicians are every signed-up user who is not an admin, managers included; admins are not counted.',
} as const
