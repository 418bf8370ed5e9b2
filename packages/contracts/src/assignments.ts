import { z } from 'zod'
import { Branch, Department } from './identity.ts'
import { IsoDate } from './certs.ts'
import { IdParamOf, wholeNumberParam } from './params.ts'
import { ASSIGNMENT_STATES } from './assignment-rules.ts'

/**
 * Training that is due (issue 24): assignment rules with due dates, recurrence and reminders, the
 * state of each person on each rule, and the reports. Served by svc-learning; paths without the
 * gateway's `/api`. The rules themselves (states, due dates, reminder steps) are plain functions in
 * `assignment-rules.ts`.
 */

export const ASSIGNMENT_LIMITS = {
  /** Relative due dates and recurrence offsets: 1 to 3,650 days. */
  maxOffsetDays: 3650,
  maxPeriodMonths: 120,
  maxWindowDays: 365,
  maxReminderDays: 365,
  defaultDueSoonDays: 7,
  defaultBeforeDays: 7,
  defaultManagerAfterDays: 7,
  defaultOperationsAfterDays: 14,
  maxUsersPerRule: 5000,
  maxReasonLength: 500,
  /** People listed by a dry run (the counts cover everyone). */
  previewListLimit: 200,
} as const

export const ASSIGNMENT_MESSAGES = {
  loadFailed: 'Failed to load assignments',
  saveFailed: 'Failed to save assignment rule',
  deleteFailed: 'Failed to delete assignment rule',
  previewFailed: 'Failed to preview the change',
  exportFailed: 'Failed to export data',
  exemptFailed: 'Failed to update the exemption',
  ruleNotFound: 'Assignment rule not found',
  courseNotFound: 'Course not found',
  examNotFound: 'Exam not found',
  groupNotFound: 'User group not found',
  userNotFound: 'User not found',
  notAssigned: 'This person is not assigned by this rule',
  dueBeforeAssignment: 'The due date must not be before the assignment date',
  offsetRange: 'Days must be a whole number from 1 to 3650',
  periodRequired: 'A recurring rule needs a period',
  periodRange: 'The period must be a whole number of months from 1 to 120',
  windowRange: 'The window must be a whole number of days from 0 to 365',
  reminderRange: 'Reminder days must be whole numbers from 0 to 365',
  escalationOrder: 'The operations escalation must come after the manager copy',
  orgRequired: 'Choose a branch, a department or both',
  usersRequired: 'Choose at least one user',
  reasonRequired: 'A reason is required to exempt someone',
  reasonTooLong: 'The reason may hold at most 500 characters',
  saved: 'Assignment rule saved',
  deleted: 'Assignment rule deleted',
  exempted: 'Exemption recorded',
  exemptionLifted: 'Exemption lifted',
  nothingDue: 'Nothing is due',
  itemFixed: 'The course or exam of a rule cannot change: create a new rule for it',
} as const
const M = ASSIGNMENT_MESSAGES
const L = ASSIGNMENT_LIMITS

export const AssignmentItemKind = z.enum(['course', 'exam'])
export type AssignmentItemKind = z.infer<typeof AssignmentItemKind>
export const AssignmentState = z.enum(ASSIGNMENT_STATES)
export type AssignmentState = z.infer<typeof AssignmentState>

const offsetDays = z.number({ error: M.offsetRange }).int(M.offsetRange).min(1, M.offsetRange).max(L.maxOffsetDays, M.offsetRange)
const reminderDays = z.number({ error: M.reminderRange }).int(M.reminderRange).min(0, M.reminderRange).max(L.maxReminderDays, M.reminderRange)
const escalationDays = z.number({ error: M.reminderRange }).int(M.reminderRange).min(1, M.reminderRange).max(L.maxReminderDays, M.reminderRange).nullable()

/** Who a rule assigns: chosen users, a user group (by name), a branch and/or department, or everyone (non-admin users). */
export const AssignmentAudience = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('users'), user_ids: z.array(z.uuid()).min(1, M.usersRequired).max(L.maxUsersPerRule) }),
  z.object({ kind: z.literal('group'), group: z.string().trim().min(1, M.groupNotFound).max(200) }),
  z
    .object({ kind: z.literal('org'), branch: Branch.nullable().default(null), department: Department.nullable().default(null) })
    .refine((a) => a.branch !== null || a.department !== null, { message: M.orgRequired, path: ['branch'] }),
  z.object({ kind: z.literal('everyone') }),
])
export type AssignmentAudience = z.infer<typeof AssignmentAudience>

/** The first due date: a date ("by 2027-01-31") or days after the assignment or the hire date. */
export const AssignmentDue = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('absolute'), date: IsoDate }),
  z.object({ kind: z.literal('relative'), days: offsetDays, from: z.enum(['assignment', 'hire']) }),
])
export type AssignmentDue = z.infer<typeof AssignmentDue>

/** Recurrence: every N months after the last completion (open `window_days` before), or ahead of a certification's expiry. */
export const AssignmentRecurrence = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('period'),
      months: z.number({ error: M.periodRequired }).int(M.periodRange).min(1, M.periodRange).max(L.maxPeriodMonths, M.periodRange),
      window_days: z.number({ error: M.windowRange }).int(M.windowRange).min(0, M.windowRange).max(L.maxWindowDays, M.windowRange).default(30),
    }),
    z.object({ kind: z.literal('certification'), certification_type_id: z.number().int().positive(), days_before: offsetDays }),
  ])
  .nullable()
export type AssignmentRecurrence = z.infer<typeof AssignmentRecurrence>

export const AssignmentReminders = z
  .object({
    before_days: reminderDays.default(L.defaultBeforeDays),
    manager_after_days: escalationDays.default(L.defaultManagerAfterDays),
    operations_after_days: escalationDays.default(L.defaultOperationsAfterDays),
  })
  .refine((r) => r.manager_after_days === null || r.operations_after_days === null || r.operations_after_days > r.manager_after_days, {
    message: M.escalationOrder,
    path: ['operations_after_days'],
  })
export type AssignmentReminders = z.infer<typeof AssignmentReminders>

/** POST/PUT /admin/assignment-rules body (and the dry run's, with the rule's id when editing). */
export const AssignmentRuleInput = z.object({
  item_kind: AssignmentItemKind,
  item_id: z.number().int().positive(),
  audience: AssignmentAudience,
  due: AssignmentDue,
  recurrence: AssignmentRecurrence.default(null),
  due_soon_days: reminderDays.default(L.defaultDueSoonDays),
  reminders: AssignmentReminders.default({
    before_days: L.defaultBeforeDays,
    manager_after_days: L.defaultManagerAfterDays,
    operations_after_days: L.defaultOperationsAfterDays,
  }),
})
export type AssignmentRuleInput = z.input<typeof AssignmentRuleInput>
export type AssignmentRuleData = z.infer<typeof AssignmentRuleInput>

/** POST /admin/assignment-rules/preview: the rule as it would be saved; `rule_id` when editing one. */
export const AssignmentPreviewInput = AssignmentRuleInput.extend({ rule_id: z.number().int().positive().optional() })
export type AssignmentPreviewInput = z.input<typeof AssignmentPreviewInput>

const StateCounts = z.object(Object.fromEntries(ASSIGNMENT_STATES.map((s) => [s, z.number().int()])) as Record<(typeof ASSIGNMENT_STATES)[number], z.ZodNumber>)
export type AssignmentStateCounts = z.infer<typeof StateCounts>

export const AssignmentRule = AssignmentRuleInput.extend({
  id: z.number().int(),
  item_title: z.string(),
  /** How the audience reads ("Group: Field East", "Branch: Seattle", "Everyone", "3 users"). */
  audience_label: z.string(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  /** People assigned by the rule now, by state on the company's today. */
  people: z.number().int(),
  counts: StateCounts,
})
export type AssignmentRule = z.infer<typeof AssignmentRule>

/** The dry run's answer: how many people a save changes and how. Nothing is stored. */
export const AssignmentPreview = z.object({
  /** People the rule would assign after the save. */
  total: z.number().int(),
  added: z.number().int(),
  removed: z.number().int(),
  due_changed: z.number().int(),
  unchanged: z.number().int(),
  /** The people with a change (up to 200), added, removed and moved dates first. */
  people: z.array(
    z.object({
      user_id: z.uuid(),
      name: z.string(),
      email: z.string(),
      change: z.enum(['added', 'removed', 'due_changed']),
      current_due_on: IsoDate.nullable(),
      new_due_on: IsoDate.nullable(),
    }),
  ),
})
export type AssignmentPreview = z.infer<typeof AssignmentPreview>

/** One person's assignment (the learner's own list, a rule's report, the member page). */
export const PersonAssignment = z.object({
  rule_id: z.number().int(),
  item_kind: AssignmentItemKind,
  item_id: z.number().int(),
  item_title: z.string(),
  state: AssignmentState,
  assigned_on: IsoDate,
  /** The due date that counts today (the next cycle's once its window opened). */
  due_on: IsoDate,
  opens_on: IsoDate.nullable(),
  completed_on: IsoDate.nullable(),
  /** Recurring rules after a completion: when it is next due. */
  next_due_on: IsoDate.nullable(),
  recurring: z.boolean(),
  /** Whole days from today to `due_on` (negative once overdue). */
  days_left: z.number().int(),
  exempt_reason: z.string().nullable(),
})
export type PersonAssignment = z.infer<typeof PersonAssignment>

/** GET /assignments/mine: outstanding first (overdue, due soon, open), then not due yet, then completed. */
export const MyAssignments = z.object({ today: IsoDate, assignments: z.array(PersonAssignment) })
export type MyAssignments = z.infer<typeof MyAssignments>

const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v)

/** GET /admin/assignment-rules/{id}/report (and /export, without paging). */
export const AssignmentReportQuery = z.object({
  state: z.preprocess(emptyToUndefined, AssignmentState.optional()),
  branch: z.preprocess(emptyToUndefined, Branch.optional()),
  department: z.preprocess(emptyToUndefined, Department.optional()),
  search: z.preprocess(emptyToUndefined, z.string().trim().max(200, 'search may hold at most 200 characters').optional()),
  limit: z.preprocess(emptyToUndefined, wholeNumberParam('limit', 1, 500).default(100)),
  offset: z.preprocess(emptyToUndefined, wholeNumberParam('offset', 0, 1_000_000).default(0)),
})
export type AssignmentReportQuery = z.input<typeof AssignmentReportQuery>

export const AssignmentReportRow = PersonAssignment.extend({
  user_id: z.uuid(),
  name: z.string(),
  email: z.string(),
  branch: Branch.nullable(),
  department: Department.nullable(),
})
export type AssignmentReportRow = z.infer<typeof AssignmentReportRow>

export const AssignmentReport = z.object({
  rule: AssignmentRule,
  today: IsoDate,
  /** Counts of the filtered people by state (before `state` and paging). */
  counts: StateCounts,
  total: z.number().int(),
  rows: z.array(AssignmentReportRow),
})
export type AssignmentReport = z.infer<typeof AssignmentReport>

/** POST /admin/assignment-rules/{id}/exemptions: mark one person exempt, with why (audited). */
export const ExemptionInput = z.object({
  user_id: z.uuid(),
  reason: z.string({ error: M.reasonRequired }).trim().min(1, M.reasonRequired).max(L.maxReasonLength, M.reasonTooLong),
})
export type ExemptionInput = z.input<typeof ExemptionInput>

/** `{id}` of /admin/assignment-rules/{id}... */
export const AssignmentRuleIdParam = IdParamOf('assignment rule')
/** `{id}` and `{userId}` of DELETE /admin/assignment-rules/{id}/exemptions/{userId}. */
export const ExemptionParams = AssignmentRuleIdParam.extend({ userId: z.uuid('Invalid user id') })

/** GET /admin/assignment-rules: the live rules, newest first; optionally those of one course or exam. */
export const AssignmentRuleListQuery = z.object({
  item_kind: z.preprocess(emptyToUndefined, AssignmentItemKind.optional()),
  item_id: z.preprocess(emptyToUndefined, wholeNumberParam('item_id', 1, 2_147_483_647).optional()),
})
export type AssignmentRuleListQuery = z.input<typeof AssignmentRuleListQuery>
export const AssignmentRuleList = z.array(AssignmentRule)
export type AssignmentRuleList = z.infer<typeof AssignmentRuleList>

/** What a save changed: the dry run's counts, now done. */
export const AssignmentChangeCounts = AssignmentPreview.pick({ total: true, added: true, removed: true, due_changed: true, unchanged: true })
export type AssignmentChangeCounts = z.infer<typeof AssignmentChangeCounts>

/** POST (201) and PUT /admin/assignment-rules answer: the rule as saved and what the save changed. */
export const AssignmentRuleSaved = AssignmentRule.extend({ message: z.string(), changes: AssignmentChangeCounts })
export type AssignmentRuleSaved = z.infer<typeof AssignmentRuleSaved>

/** DELETE /admin/assignment-rules/{id} answer (the rule's people are no longer assigned; completions are kept). */
export const AssignmentRuleDeleted = z.object({ message: z.string(), id: z.number().int(), item_title: z.string(), audience_label: z.string(), removed: z.number().int() })
export type AssignmentRuleDeleted = z.infer<typeof AssignmentRuleDeleted>

/** POST /admin/assignment-rules/{id}/exemptions and DELETE .../exemptions/{userId} answer: the person's assignment now. */
export const ExemptionResult = z.object({ message: z.string(), item_title: z.string(), assignment: AssignmentReportRow })
export type ExemptionResult = z.infer<typeof ExemptionResult>
