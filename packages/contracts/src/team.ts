import { z } from 'zod'
import { Branch, Department } from './identity.ts'
import { IsoDate, PROMOTION_TIERS, TechnicianProfile, TierLevel } from './certs.ts'
import { wholeNumberParam } from './params.ts'
import { COMPLIANT_AT } from './cert-rules.ts'
import { PersonAssignment } from './assignments.ts'

/**
 * Team compliance, tier promotions and revenue (learner §2 Team dashboard, Team member detail,
 * Revenue entry; §3 Revenue record, Team member row, Leaderboard row; §5; §7 `/manager/...`,
 * `/reports/...`, `/revenue/...`; §8; §9). Served by svc-certs; paths without the gateway's `/api`.
 */

/** Constants of learner §9. */
export const TEAM = {
  /** A member is compliant at this completion percentage. */
  compliantAt: COMPLIANT_AT,
  recentEntriesLimit: 10,
  leaderboardTop: 5,
  trendMonths: 6,
  /** Months from this one on need a pay amount with the revenue (learner §5 hint). */
  payRequiredFrom: '2025-01',
  currency: 'USD',
} as const

export const TEAM_MESSAGES = {
  loadTeam: 'Failed to load team data',
  exportFailed: 'Failed to export data',
  loadMember: 'Failed to load team member details',
  memberNotFound: 'Team member not found',
  revPayFailed: 'Failed to update rev/pay ratio',
  revPayRequired: 'Please enter a rev/pay ratio',
  promotionFailed: 'Failed to submit tier promotion request',
  promotionSubmitted: 'Tier promotion request submitted successfully',
  justificationRequired: 'Justification is required',
  promotionNotAbove: 'The new tier must be above the current tier',
  promotionTierOffered: 'The new tier must be Tier 2 or Tier 3',
  promotionPending: 'A promotion request for this technician is already pending',
  loadRevenue: 'Failed to load revenue data',
  fetchUsers: 'Failed to fetch users',
  saveRevenueFailed: 'Failed to save revenue data',
  revenueSaved: 'Revenue data saved successfully!',
  revenueUpdated: 'Revenue data for this month was updated',
  requiredFields: 'Please fill in all required fields',
  /**
   * The pay field's hint as the rule stands: learner §5's "will be required starting January 2025"
   * was written before that month; pay is required from it on, earlier months may go without.
   */
  payHint: 'Required for months from January 2025 on; earlier months may be saved without it.',
  payRequired: 'Pay amount is required from January 2025 on',
  notATechnician: 'Revenue is recorded for technicians only',
  amountsAreNumbers: 'Amounts must be numbers',
  revPayUpdated: 'Rev/pay ratio updated',
  promotionApproved: 'Tier promotion approved',
  promotionDenied: 'Tier promotion denied',
  promotionNotPending: 'This promotion request has already been decided',
  promotionAtTop: 'Tier 3 is the highest tier',
  reminderSent: 'Reminder sent',
  nothingToRemind: 'Every requirement is met: there is nothing to remind about',
  managersOnly: 'Only managers and admins can see team data',
} as const

// ---------------------------------------------------------------------------------------------
// Team dashboard and member detail

export const TeamSort = z.enum(['name', 'location', 'progress', 'issues', 'tier', 'overdue'])
export type TeamSort = z.infer<typeof TeamSort>

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v)

/** GET /manager/team query (the spec's filters plus search, sort and paging). */
export const TeamQuery = z.object({
  branch: z.preprocess(emptyToUndefined, Branch.optional()),
  department: z.preprocess(emptyToUndefined, Department.optional()),
  search: z.preprocess(emptyToUndefined, z.string().trim().max(200, 'search may hold at most 200 characters').optional()),
  /** Issue 24: only members with at least one overdue assignment. */
  overdue: z.preprocess(emptyToUndefined, z.enum(['true', 'false'], 'overdue must be true or false').optional()),
  sort: z.preprocess(emptyToUndefined, TeamSort.default('name')),
  order: z.preprocess(emptyToUndefined, z.enum(['asc', 'desc']).default('asc')),
  limit: z.preprocess(emptyToUndefined, wholeNumberParam('limit', 1, 500).default(100)),
  offset: z.preprocess(emptyToUndefined, wholeNumberParam('offset', 0, 1_000_000).default(0)),
})
export type TeamQuery = z.input<typeof TeamQuery>

/**
 * GET /reports/certifications/export: the same filters as the screen, every matching member (no
 * paging), as `team-certifications-{YYYY-MM-DD}.xlsx`.
 */
export const TeamExportQuery = TeamQuery.pick({ branch: true, department: true, search: true, overdue: true, sort: true, order: true }).extend({
  format: z.preprocess(emptyToUndefined, z.literal('excel', 'Only format=excel is offered').default('excel')),
})
export type TeamExportQuery = z.input<typeof TeamExportQuery>

export const TeamMemberRow = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  employee_id: z.string().nullable(),
  branch: Branch.nullable(),
  department: Department.nullable(),
  tier: z.object({ current_tier: TierLevel }),
  /** Required certifications of the member's tier met (valid and, in this view, uploaded), 0-100. */
  completion_percentage: z.number().int().min(0).max(100),
  expired_certifications: z.number().int(),
  expiring_soon: z.number().int(),
  /** Issue 24: the member's assignments overdue on the company's today. */
  overdue_assignments: z.number().int(),
})
export type TeamMemberRow = z.infer<typeof TeamMemberRow>

export const TeamSummary = z.object({
  total_team: z.number().int(),
  compliant: z.number().int(),
  /** Average completion percentage, rounded; null for an empty team. */
  avg_progress: z.number().nullable(),
  expired: z.number().int(),
  expiring_soon: z.number().int(),
  /** Issue 24: members with at least one overdue assignment, and their overdue assignments in all. */
  overdue_members: z.number().int(),
  overdue_assignments: z.number().int(),
})
export type TeamSummary = z.infer<typeof TeamSummary>

export const TeamResponse = z.object({
  teamMembers: z.array(TeamMemberRow),
  summary: TeamSummary,
  /** Members matching the filters (the page is `teamMembers`). */
  total: z.number().int(),
})
export type TeamResponse = z.infer<typeof TeamResponse>

// ---------------------------------------------------------------------------------------------
// Revenue

/** `YYYY-MM`. */
export const IsoMonth = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Use a month in the form YYYY-MM')

const money = z
  .number({ error: (issue) => (issue.input === undefined ? TEAM_MESSAGES.requiredFields : TEAM_MESSAGES.amountsAreNumbers) })
  .min(0, 'Amounts cannot be negative')
  .max(1_000_000_000)
  .multipleOf(0.01, 'Use at most two decimals')

/**
 * POST /revenue/manual-entry (admin; learner §5): one record per technician and month. A second
 * entry for a month already recorded is refused (409, the record in `details`) unless it says
 * `replace`, so a wrong month never overwrites figures unasked (decision 0039).
 */
export const ManualRevenueBody = z
  .object({
    user_id: z.uuid(TEAM_MESSAGES.requiredFields),
    month: z.string({ error: TEAM_MESSAGES.requiredFields }).pipe(IsoMonth),
    gross_revenue: money,
    pay_amount: z
      .number({ error: TEAM_MESSAGES.amountsAreNumbers })
      .min(0, 'Amounts cannot be negative')
      .max(1_000_000_000)
      .multipleOf(0.01, 'Use at most two decimals')
      .nullish()
      .transform((p) => p ?? null),
    replace: z.boolean({ error: 'replace must be true or false' }).optional().default(false),
  })
  .refine((b) => b.month < TEAM.payRequiredFrom || b.pay_amount !== null, { message: TEAM_MESSAGES.payRequired, path: ['pay_amount'] })
export type ManualRevenueBody = z.input<typeof ManualRevenueBody>

export const RevenueRecord = z.object({
  id: z.number().int(),
  user_id: z.uuid(),
  month: IsoMonth,
  gross_revenue: z.number(),
  pay_amount: z.number().nullable(),
  /** gross / pay when both are above 0, else null. */
  rev_pay_ratio: z.number().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  user: z.object({ id: z.uuid(), name: z.string(), branch: Branch.nullable(), department: Department.nullable() }),
})
export type RevenueRecord = z.infer<typeof RevenueRecord>

/** 201 when the month was new, 200 with `updated` and TEAM_MESSAGES.revenueUpdated when `replace` replaced that month's record. */
export const ManualRevenueResponse = z.object({ message: z.string(), updated: z.boolean(), record: RevenueRecord })
export const RecentEntriesQuery = z.object({ limit: wholeNumberParam('limit', 1, 100).default(TEAM.recentEntriesLimit) })
export const RecentEntriesResponse = z.object({ entries: z.array(RevenueRecord) })
/** GET /revenue/user/{id}: every month recorded, newest first. */
export const RevenueHistoryResponse = z.object({ revenue_history: z.array(RevenueRecord) })

export const LeaderboardPeriod = z.enum(['monthly', 'quarterly', 'yearly'])
export type LeaderboardPeriod = z.infer<typeof LeaderboardPeriod>
/** GET /revenue/leaderboard?period&date: `date` is any day (or month) inside the period; default today. */
export const LeaderboardQuery = z.object({
  period: LeaderboardPeriod.default('monthly'),
  date: z.union([IsoDate, IsoMonth], { error: 'Use a date in the form YYYY-MM-DD or a month YYYY-MM' }).optional(),
})
export const LeaderboardRow = z.object({
  rank: z.number().int(),
  user_id: z.uuid(),
  name: z.string(),
  gross_revenue: z.number(),
  rev_pay_ratio: z.number().nullable(),
})
export type LeaderboardRow = z.infer<typeof LeaderboardRow>
export const LeaderboardResponse = z.object({
  period: LeaderboardPeriod,
  /** First and last month of the period (`YYYY-MM`). */
  from: IsoMonth,
  to: IsoMonth,
  rows: z.array(LeaderboardRow),
})
export type LeaderboardResponse = z.infer<typeof LeaderboardResponse>

// ---------------------------------------------------------------------------------------------
// A technician's own revenue (learner §1: "see revenue history and a leaderboard"; issue 30 item 6)

/** A month of the caller's trend: 0 and `recorded: false` when nothing was recorded for it. */
export const RevenueTrendMonth = z.object({
  month: IsoMonth,
  recorded: z.boolean(),
  gross_revenue: z.number(),
  pay_amount: z.number().nullable(),
  /** gross / pay when both are above 0, else null. */
  rev_pay_ratio: z.number().nullable(),
})
export type RevenueTrendMonth = z.infer<typeof RevenueTrendMonth>
/** GET /revenue/me/trend: the caller's last `TEAM.trendMonths` months up to this one, oldest first, every month listed. */
export const RevenueTrendResponse = z.object({ from: IsoMonth, to: IsoMonth, months: z.array(RevenueTrendMonth) })
export type RevenueTrendResponse = z.infer<typeof RevenueTrendResponse>

/**
 * A row of the caller's leaderboard: rank and name for everyone; the amounts only where the caller
 * may read them (their own row; a manager's scope; an admin: all), else null (DESIGN "Security").
 */
export const StandingRow = z.object({
  rank: z.number().int(),
  name: z.string(),
  is_you: z.boolean(),
  gross_revenue: z.number().nullable(),
  rev_pay_ratio: z.number().nullable(),
})
export type StandingRow = z.infer<typeof StandingRow>
/** The caller's own place and figures over the period. */
export const MyStanding = z.object({
  rank: z.number().int(),
  gross_revenue: z.number(),
  pay_amount: z.number().nullable(),
  rev_pay_ratio: z.number().nullable(),
})
export type MyStanding = z.infer<typeof MyStanding>
/**
 * GET /revenue/leaderboard/me?period&date (any signed-in user; query as LeaderboardQuery): the top
 * `TEAM.leaderboardTop` technicians of the company, the caller's own place and figures (null without
 * revenue in the period), how many were ranked, and whether some amounts were withheld from the caller.
 */
export const MyLeaderboardResponse = z.object({
  period: LeaderboardPeriod,
  from: IsoMonth,
  to: IsoMonth,
  /** Technicians with revenue in the period. */
  ranked: z.number().int(),
  rows: z.array(StandingRow),
  you: MyStanding.nullable(),
  amounts_withheld: z.boolean(),
})
export type MyLeaderboardResponse = z.infer<typeof MyLeaderboardResponse>

// ---------------------------------------------------------------------------------------------
// Manager controls: rev/pay ratio and tier promotions

/** PUT /manager/rev-pay/{userId}. */
export const RevPayBody = z.object({
  revPayRatio: z.number({ error: TEAM_MESSAGES.revPayRequired }).min(0).max(1000).multipleOf(0.01, 'Use at most two decimals'),
})

/**
 * POST /manager/tier-promotion (learner §4, §5: Tier 2 or 3 only, above the current one, which the
 * service checks with `promotionTiers`; a justification is required).
 */
export const TierPromotionBody = z.object({
  userId: z.uuid(),
  newTier: z
    .number({ error: TEAM_MESSAGES.promotionTierOffered })
    .refine((t): t is (typeof PROMOTION_TIERS)[number] => (PROMOTION_TIERS as readonly number[]).includes(t), TEAM_MESSAGES.promotionTierOffered),
  justification: z.string({ error: TEAM_MESSAGES.justificationRequired }).trim().min(1, TEAM_MESSAGES.justificationRequired).max(4000),
})

export const PromotionStatus = z.enum(['pending', 'approved', 'denied'])
export const PromotionRequest = z.object({
  id: z.number().int(),
  user: z.object({ id: z.uuid(), name: z.string(), branch: Branch.nullable(), department: Department.nullable() }),
  from_tier: TierLevel,
  to_tier: TierLevel,
  justification: z.string(),
  status: PromotionStatus,
  requested_by: z.object({ id: z.uuid(), name: z.string() }),
  requested_at: z.string(),
  decided_by: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  decided_at: z.string().nullable(),
  decision_note: z.string().nullable(),
})
export type PromotionRequest = z.infer<typeof PromotionRequest>
export const PromotionRequestsResponse = z.object({ requests: z.array(PromotionRequest) })
/** POST /manager/tier-promotions/{id}/decision (admin). */
export const PromotionDecisionBody = z.object({
  approve: z.boolean(),
  note: z
    .string()
    .trim()
    .max(4000)
    .nullish()
    .transform((n) => (n ? n : null)),
})
/** GET /manager/tier-promotions?status: admins see every request, managers the ones they made (newest first). */
export const PromotionRequestsQuery = z.object({ status: z.preprocess(emptyToUndefined, PromotionStatus.optional()) })
/** POST /manager/tier-promotion → 201; the decision → 200. */
export const PromotionRequestResponse = z.object({ message: z.string(), request: PromotionRequest })
/** PUT /manager/rev-pay/{userId}. */
export const RevPayResponse = z.object({ message: z.string(), rev_pay_ratio: z.number() })

// ---------------------------------------------------------------------------------------------
// Quick Actions of the member detail (learner §2, made real by issue 11)

/**
 * POST /manager/team/{userId}/reminder → 202: the technician is e-mailed the requirements that
 * count for their tier and are not met (409 `nothing_to_remind` when there are none).
 */
export const SendReminderResponse = z.object({ message: z.string(), open_requirements: z.number().int() })
/** GET /manager/team/{userId}/report: an .xlsx of the member's certifications and revenue (`technician-report-{employee id or name}-{date}.xlsx`). */
export const memberReportPath = (userId: string) => `/manager/team/${userId}/report`

/** GET /manager/team/{userId}: the member detail. */
export const TeamMemberDetail = z.object({
  profile: TechnicianProfile,
  /** The last `TEAM.trendMonths` months, oldest first (months without a record are left out). */
  revenue_trend: z.array(RevenueRecord),
  leaderboard: LeaderboardResponse,
  /** The member's place on this month's leaderboard (null when they have no revenue this month). */
  leaderboard_place: z.number().int().nullable(),
  promotion_requests: z.array(PromotionRequest),
  /** Issue 24: the member's assignments (svc-certs' projection of learning's), outstanding first. */
  assignments: z.array(PersonAssignment).default([]),
})
export type TeamMemberDetail = z.infer<typeof TeamMemberDetail>
