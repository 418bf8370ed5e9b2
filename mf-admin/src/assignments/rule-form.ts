import {
  ASSIGNMENT_LIMITS,
  ASSIGNMENT_MESSAGES,
  AssignmentRuleInput,
  type AssignmentItemKind,
  type AssignmentPreview,
  type AssignmentRule,
  type AssignmentRuleData,
  type AssignmentStateCounts,
} from '@portal/contracts'
import { ApiError, formatDate } from '@portal/ui-kit'

const M = ASSIGNMENT_MESSAGES
const L = ASSIGNMENT_LIMITS

export type AudienceKind = 'users' | 'group' | 'org' | 'everyone'

/** The rule form as typed: numbers are kept as the text of their fields ('' when empty). */
export interface RuleForm {
  item_kind: AssignmentItemKind
  item_id: string
  audience: AudienceKind
  user_ids: string[]
  group: string
  branch: string
  department: string
  due_kind: 'absolute' | 'relative'
  due_date: string
  due_days: string
  due_from: 'assignment' | 'hire'
  recurring: boolean
  recurrence_kind: 'period' | 'certification'
  months: string
  window_days: string
  certification_type_id: string
  days_before: string
  due_soon_days: string
  remind_before: boolean
  before_days: string
  manager_copy: boolean
  manager_after_days: string
  operations_copy: boolean
  operations_after_days: string
}

/** A new rule: a course, chosen users, due 30 days after assignment, not recurring, the contracts' default reminders. */
export const emptyRuleForm = (): RuleForm => ({
  item_kind: 'course',
  item_id: '',
  audience: 'users',
  user_ids: [],
  group: '',
  branch: '',
  department: '',
  due_kind: 'relative',
  due_date: '',
  due_days: '30',
  due_from: 'assignment',
  recurring: false,
  recurrence_kind: 'period',
  months: '12',
  window_days: '30',
  certification_type_id: '',
  days_before: '60',
  due_soon_days: String(L.defaultDueSoonDays),
  remind_before: true,
  before_days: String(L.defaultBeforeDays),
  manager_copy: true,
  manager_after_days: String(L.defaultManagerAfterDays),
  operations_copy: true,
  operations_after_days: String(L.defaultOperationsAfterDays),
})

/** The form of a stored rule (Edit). */
export const formFromRule = (rule: AssignmentRule): RuleForm => {
  const f = emptyRuleForm()
  const a = rule.audience
  const d = rule.due
  const r = rule.recurrence
  return {
    ...f,
    item_kind: rule.item_kind,
    item_id: String(rule.item_id),
    audience: a.kind,
    user_ids: a.kind === 'users' ? [...a.user_ids] : [],
    group: a.kind === 'group' ? a.group : '',
    branch: a.kind === 'org' ? (a.branch ?? '') : '',
    department: a.kind === 'org' ? (a.department ?? '') : '',
    due_kind: d.kind,
    due_date: d.kind === 'absolute' ? d.date : '',
    due_days: d.kind === 'relative' ? String(d.days) : f.due_days,
    due_from: d.kind === 'relative' ? d.from : 'assignment',
    recurring: r !== null,
    recurrence_kind: r?.kind ?? 'period',
    months: r?.kind === 'period' ? String(r.months) : f.months,
    window_days: r?.kind === 'period' ? String(r.window_days) : f.window_days,
    certification_type_id: r?.kind === 'certification' ? String(r.certification_type_id) : '',
    days_before: r?.kind === 'certification' ? String(r.days_before) : f.days_before,
    due_soon_days: String(rule.due_soon_days),
    remind_before: rule.reminders.before_days > 0,
    before_days: String(rule.reminders.before_days > 0 ? rule.reminders.before_days : L.defaultBeforeDays),
    manager_copy: rule.reminders.manager_after_days !== null,
    manager_after_days: String(rule.reminders.manager_after_days ?? L.defaultManagerAfterDays),
    operations_copy: rule.reminders.operations_after_days !== null,
    operations_after_days: String(rule.reminders.operations_after_days ?? L.defaultOperationsAfterDays),
  }
}

/**
 * A number field's value; NaN when it is empty, so the schema refuses it in its own words (an
 * absent value would take the schema's default: an emptied "Due soon" would quietly become 7).
 */
const num = (text: string): number => (text.trim() === '' ? Number.NaN : Number(text))

/** The request body the form stands for, before validation (empty number fields are NaN). */
export const toRuleInput = (f: RuleForm): unknown => {
  const audience =
    f.audience === 'users'
      ? { kind: 'users' as const, user_ids: f.user_ids }
      : f.audience === 'group'
        ? { kind: 'group' as const, group: f.group }
        : f.audience === 'org'
          ? { kind: 'org' as const, branch: f.branch || null, department: f.department || null }
          : { kind: 'everyone' as const }
  const due = f.due_kind === 'absolute' ? { kind: 'absolute' as const, date: f.due_date } : { kind: 'relative' as const, days: num(f.due_days), from: f.due_from }
  const recurrence = !f.recurring
    ? null
    : f.recurrence_kind === 'period'
      ? { kind: 'period' as const, months: num(f.months), window_days: num(f.window_days) }
      : { kind: 'certification' as const, certification_type_id: num(f.certification_type_id), days_before: num(f.days_before) }
  return {
    item_kind: f.item_kind,
    item_id: num(f.item_id),
    audience,
    due,
    recurrence,
    due_soon_days: num(f.due_soon_days),
    reminders: {
      before_days: f.remind_before ? num(f.before_days) : 0,
      manager_after_days: f.manager_copy ? num(f.manager_after_days) : null,
      operations_after_days: f.operations_copy ? num(f.operations_after_days) : null,
    },
  }
}

/** Errors by field, keyed by the field's path in the request body (`due.days`), as the server's `details` name them. */
export type FieldErrors = Partial<Record<FieldPath, string>>

/** Every field of the form by its path in the request body. */
export const FIELD_PATHS = [
  'item_kind',
  'item_id',
  'audience.user_ids',
  'audience.group',
  'audience.branch',
  'audience.department',
  'due.date',
  'due.days',
  'due.from',
  'recurrence.months',
  'recurrence.window_days',
  'recurrence.certification_type_id',
  'recurrence.days_before',
  'due_soon_days',
  'reminders.before_days',
  'reminders.manager_after_days',
  'reminders.operations_after_days',
] as const
export type FieldPath = (typeof FIELD_PATHS)[number]

const isFieldPath = (p: string): p is FieldPath => (FIELD_PATHS as readonly string[]).includes(p)

/** Where an issue of a whole part of the body is shown (`due` without a kind, `audience` of a removed group). */
const PART_FIELD: Record<string, FieldPath> = {
  audience: 'audience.user_ids',
  due: 'due.date',
  recurrence: 'recurrence.months',
  reminders: 'reminders.before_days',
}

/** Where an issue lands: its own field, or the first field of its part. */
const fieldOf = (path: string, f?: RuleForm): FieldPath | null => {
  if (isFieldPath(path)) return path
  const part = path.split('.')[0] ?? ''
  if (part === 'audience' && f) return f.audience === 'group' ? 'audience.group' : f.audience === 'org' ? 'audience.branch' : 'audience.user_ids'
  if (part === 'due' && f) return f.due_kind === 'absolute' ? 'due.date' : 'due.days'
  if (part === 'recurrence' && f) return f.recurrence_kind === 'certification' ? 'recurrence.certification_type_id' : 'recurrence.months'
  return PART_FIELD[part] ?? null
}

/** Fields the schema leaves without words of their own when nothing is chosen. */
const missingText = (path: FieldPath, f: RuleForm): string | null => {
  if (path === 'item_id' && f.item_id === '') return f.item_kind === 'course' ? 'Choose a course' : 'Choose an exam'
  if (path === 'recurrence.certification_type_id' && f.certification_type_id === '') return 'Choose a certification type'
  if (path === 'audience.group' && f.group.trim() === '') return 'Choose a user group'
  return null
}

/** `YYYY-MM-DD` of the browser's today (the company's day is the server's to check; this catches the obvious). */
export const localToday = (now = new Date()): string => `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`

export type RuleCheck = { ok: true; input: AssignmentRuleData } | { ok: false; errors: FieldErrors }

/**
 * Checks the form with the contracts' schema (the server's own rules), each message beside its
 * field. A new rule's date may not lie before today, its assignment day (`today`; null when editing:
 * the server knows the rule's own dates).
 */
export const checkRuleForm = (f: RuleForm, today: string | null): RuleCheck => {
  const parsed = AssignmentRuleInput.safeParse(toRuleInput(f))
  const errors: FieldErrors = {}
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOf(issue.path.join('.'), f)
      if (field && !errors[field]) errors[field] = missingText(field, f) ?? issue.message
    }
  }
  if (today !== null && f.due_kind === 'absolute' && /^\d{4}-\d{2}-\d{2}$/.test(f.due_date) && f.due_date < today && !errors['due.date']) {
    errors['due.date'] = M.dueBeforeAssignment
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors }
  return { ok: true, input: parsed.data }
}

/** Messages the server may send without `details`, and the field each belongs to. */
const MESSAGE_FIELD: Partial<Record<string, FieldPath>> = {
  [M.courseNotFound]: 'item_id',
  [M.examNotFound]: 'item_id',
  [M.itemFixed]: 'item_id',
  [M.groupNotFound]: 'audience.group',
  [M.userNotFound]: 'audience.user_ids',
  [M.usersRequired]: 'audience.user_ids',
  [M.orgRequired]: 'audience.branch',
  [M.dueBeforeAssignment]: 'due.date',
  [M.offsetRange]: 'due.days',
  [M.periodRequired]: 'recurrence.months',
  [M.periodRange]: 'recurrence.months',
  [M.windowRange]: 'recurrence.window_days',
  [M.escalationOrder]: 'reminders.operations_after_days',
}

const Detail = (d: unknown): { path: string; message: string } | null =>
  typeof d === 'object' && d !== null && typeof (d as { path?: unknown }).path === 'string' && typeof (d as { message?: unknown }).message === 'string'
    ? (d as { path: string; message: string })
    : null

/**
 * A refused save or dry run (400, 404 or 422 naming what is wrong): the messages beside the fields
 * the answer's `details` name (paths in the body, `audience.group`), else beside the field its
 * message belongs to; `message` is what is left for the form's alert (null when every part found
 * its field).
 */
export const serverFieldErrors = (error: unknown, f: RuleForm, fallback: string): { errors: FieldErrors; message: string | null } => {
  if (!(error instanceof ApiError)) return { errors: {}, message: fallback }
  const errors: FieldErrors = {}
  const rest: string[] = []
  const details = ((error.body as { details?: unknown } | null)?.details ?? []) as unknown[]
  for (const d of Array.isArray(details) ? details.map(Detail) : []) {
    if (!d) continue
    const field = fieldOf(d.path.replace(/^\//, '').replaceAll('/', '.'), f)
    if (field && !errors[field]) errors[field] = d.message
    else if (!field) rest.push(d.message)
  }
  if (Object.keys(errors).length === 0 && error.serverMessage) {
    const field = error.status < 500 ? MESSAGE_FIELD[error.serverMessage] : undefined
    if (field) errors[field] = error.serverMessage
    else return { errors, message: error.serverMessage }
  }
  if (Object.keys(errors).length === 0) return { errors, message: error.serverMessage ?? fallback }
  return { errors, message: rest.length > 0 ? rest.join(' ') : null }
}

// ---------------------------------------------------------------------------------------------
// How a rule reads in the list

export const ITEM_KIND_LABELS: Record<AssignmentItemKind, string> = { course: 'Course', exam: 'Exam' }

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** "By Jan 31, 2027", "30 days after assignment", "30 days after hire date". */
export const dueText = (due: AssignmentRule['due']): string =>
  due.kind === 'absolute' ? `By ${formatDate(due.date)}` : `${plural(due.days, 'day')} after ${due.from === 'hire' ? 'hire date' : 'assignment'}`

/** "Every 12 months after the last completion (opens 30 days before)", "Before Lockout/Tagout expires (60 days)", "None". */
export const recurrenceText = (r: AssignmentRule['recurrence'], certificationName: (id: number) => string | undefined): string => {
  if (r === null) return 'None'
  if (r.kind === 'period') return `Every ${plural(r.months, 'month')} after the last completion${r.window_days > 0 ? ` (opens ${plural(r.window_days, 'day')} before)` : ''}`
  return `Follows ${certificationName(r.certification_type_id) ?? `certification #${r.certification_type_id}`} expiry (opens ${plural(r.days_before, 'day')} before)`
}

/** People who completed the current cycle, on time or late. */
export const completedCount = (counts: AssignmentStateCounts): number => counts.completed_on_time + counts.completed_late

// ---------------------------------------------------------------------------------------------
// The dry run

export const CHANGE_LABELS: Record<AssignmentPreview['people'][number]['change'], string> = {
  added: 'Added',
  removed: 'Removed',
  due_changed: 'New due date',
}

/** How many people a save changes (added, removed or with a new due date). */
export const changedCount = (p: AssignmentPreview): number => p.added + p.removed + p.due_changed

/** "This change affects 3 people" (1 person). */
export const affectsText = (p: AssignmentPreview): string => `This change affects ${plural(changedCount(p), 'person', 'people')}`
