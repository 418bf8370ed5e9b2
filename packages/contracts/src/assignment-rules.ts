import { addDays, computeExpiration, daysUntil } from './cert-rules.ts'

/**
 * Every due-date rule of training assignments, once (issue 24). Plain functions over plain values,
 * no schemas: the remotes import them (`@portal/contracts/assignment-rules`) without the contracts'
 * schemas, and the server kit says the state rule in SQL (`assignment-rules-sql.ts`) beside a test
 * that both agree. Dates are calendar days (`YYYY-MM-DD`) of the company's time zone (`todayIn`).
 */

/** Where a person stands on one assignment (issue 24 "States"). */
export const ASSIGNMENT_STATES = ['overdue', 'due_soon', 'open', 'not_due_yet', 'completed_late', 'completed_on_time', 'exempt'] as const
export type AssignmentStateKind = (typeof ASSIGNMENT_STATES)[number]

/** What the screens call each state. */
export const ASSIGNMENT_STATE_LABELS: Record<AssignmentStateKind, string> = {
  overdue: 'Overdue',
  due_soon: 'Due soon',
  open: 'Open',
  not_due_yet: 'Not due yet',
  completed_late: 'Completed late',
  completed_on_time: 'Completed on time',
  exempt: 'Exempt',
}

/** States that still ask something of the person (the learner dashboard leads with them). */
export const isOutstanding = (state: AssignmentStateKind): boolean => state === 'overdue' || state === 'due_soon' || state === 'open'

/**
 * One person's assignment as stored: the current cycle's dates, its completion, and for recurring
 * rules the next cycle's dates once the current one is completed.
 */
export interface AssignmentFacts {
  /** The current cycle's due date (the last day that counts as on time). */
  due_on: string
  /** The day the current cycle opens (recurring rules' window); null: open from assignment. */
  opens_on: string | null
  /** The calendar day the current cycle was completed; null while it is not. */
  completed_on: string | null
  /** Recurring rules, once the current cycle is completed: the next cycle's due date and opening day. */
  next_due_on: string | null
  next_opens_on: string | null
  exempt: boolean
  /** Days before the due date from which it is "due soon" (0: only on the day). */
  due_soon_days: number
}

/** The cycle that counts today: the next one once its window has opened, else the current one. */
function cycleOf(f: AssignmentFacts, today: string): { due: string; opens: string | null; completed: string | null } {
  if (f.completed_on !== null && f.next_due_on !== null && (f.next_opens_on === null || today >= f.next_opens_on)) {
    return { due: f.next_due_on, opens: f.next_opens_on, completed: null }
  }
  return { due: f.due_on, opens: f.opens_on, completed: f.completed_on }
}

/** The state of an assignment on `today`. Twin: `learning_assignment_state(...)` in SQL. */
export function assignmentState(f: AssignmentFacts, today: string): AssignmentStateKind {
  if (f.exempt) return 'exempt'
  const c = cycleOf(f, today)
  if (c.completed !== null) return c.completed <= c.due ? 'completed_on_time' : 'completed_late'
  if (c.opens !== null && today < c.opens) return 'not_due_yet'
  const left = daysUntil(c.due, today)
  if (left < 0) return 'overdue'
  if (left <= f.due_soon_days) return 'due_soon'
  return 'open'
}

/** The due date the person is working towards on `today` (the next cycle's once its window opened). */
export const effectiveDueOn = (f: AssignmentFacts, today: string): string => cycleOf(f, today).due

// ---------------------------------------------------------------------------------------------
// Due dates

/** How a rule sets the first due date. */
export type DueSpec = { kind: 'absolute'; date: string } | { kind: 'relative'; days: number; from: 'assignment' | 'hire' }

/** How a rule recurs: a period after the last completion, or ahead of a certification's expiry. */
export type RecurrenceSpec = { kind: 'period'; months: number; window_days: number } | { kind: 'certification'; certification_type_id: number; days_before: number } | null

/** What a person brings to the due date: when they were assigned, hired, and their certification's expiry. */
export interface PersonDates {
  assigned_on: string
  hire_date: string | null
  /** The expiry of the person's certification of the type a `certification` recurrence follows. */
  certification_expires_on: string | null
}

/**
 * The first cycle's due date and opening day for a person.
 * - absolute: the date itself;
 * - relative to assignment: the assignment day plus the days;
 * - relative to hire: the hire day plus the days, as the rule says, even when that day has passed
 *   (staff hired long before the rule are overdue at once: the dry run shows it before saving, and
 *   the reminders go out as one digest per person); without a known hire date, the assignment day
 *   plus the days;
 * - a certification recurrence with a held certification: due on its expiry, open from `days_before` ahead.
 */
export function firstCycle(due: DueSpec, recurrence: RecurrenceSpec, person: PersonDates): { due_on: string; opens_on: string | null } {
  if (recurrence?.kind === 'certification' && person.certification_expires_on !== null) {
    const dueOn = person.certification_expires_on
    const opensOn = addDays(dueOn, -recurrence.days_before)
    return { due_on: dueOn, opens_on: opensOn > person.assigned_on ? opensOn : null }
  }
  if (due.kind === 'absolute') return { due_on: due.date, opens_on: null }
  const from = due.from === 'hire' && person.hire_date !== null ? person.hire_date : person.assigned_on
  return { due_on: addDays(from, due.days), opens_on: null }
}

/**
 * The next cycle after a completion on `completedOn`: a period rule is due `months` after the
 * completion and opens `window_days` before; a certification rule follows the certification's new
 * expiry when known (`renewedExpiry`), else it waits for one (null: no next cycle yet).
 */
export function nextCycle(recurrence: RecurrenceSpec, completedOn: string, renewedExpiry: string | null): { next_due_on: string; next_opens_on: string } | null {
  if (recurrence === null) return null
  if (recurrence.kind === 'period') {
    const due = computeExpiration(completedOn, recurrence.months) as string
    return { next_due_on: due, next_opens_on: addDays(due, -recurrence.window_days) }
  }
  if (renewedExpiry === null || renewedExpiry <= completedOn) return null
  return { next_due_on: renewedExpiry, next_opens_on: addDays(renewedExpiry, -recurrence.days_before) }
}

// ---------------------------------------------------------------------------------------------
// Reminders and escalation

/** A reminder step; each is sent at most once per person, assignment and due date. */
export const REMINDER_STAGES = ['before', 'due', 'overdue', 'manager', 'operations'] as const
export type ReminderStage = (typeof REMINDER_STAGES)[number]

export interface ReminderPlan {
  /** Days before the due date for the learner's first reminder (0: none before the day). */
  before_days: number
  /** Days after the due date when the learner's manager gets a copy (null: never). */
  manager_after_days: number | null
  /** Days after the due date when the branch's operations address gets one (null: never). */
  operations_after_days: number | null
}

/**
 * The reminder steps reached on `today` for an outstanding cycle due on `dueOn`, latest of each
 * audience only: the learner's one step (before, due, or overdue), then the manager's, then
 * operations'. A scan that catches up after days sends the learner where they stand, not every
 * step they missed.
 */
export function reminderStagesReached(dueOn: string, today: string, plan: ReminderPlan): ReminderStage[] {
  const left = daysUntil(dueOn, today)
  const stages: ReminderStage[] = []
  if (left < 0) stages.push('overdue')
  else if (left === 0) stages.push('due')
  else if (plan.before_days > 0 && left <= plan.before_days) stages.push('before')
  if (plan.manager_after_days !== null && -left >= plan.manager_after_days) stages.push('manager')
  if (plan.operations_after_days !== null && -left >= plan.operations_after_days) stages.push('operations')
  return stages
}
