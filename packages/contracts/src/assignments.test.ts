import { describe, expect, it } from 'vitest'
import { assignmentState, firstCycle, nextCycle, reminderStagesReached, type AssignmentFacts } from './assignment-rules.ts'
import { AssignmentRuleInput, ASSIGNMENT_MESSAGES as M, ExemptionInput } from './assignments.ts'

const facts = (over: Partial<AssignmentFacts> = {}): AssignmentFacts => ({
  due_on: '2026-12-10',
  opens_on: null,
  completed_on: null,
  next_due_on: null,
  next_opens_on: null,
  exempt: false,
  due_soon_days: 7,
  ...over,
})
const plan = { before_days: 7, manager_after_days: 7, operations_after_days: 14 }
const rule = (over: Record<string, unknown> = {}) => ({
  item_kind: 'course',
  item_id: 3,
  audience: { kind: 'everyone' },
  due: { kind: 'relative', days: 30, from: 'assignment' },
  ...over,
})
const issue = (input: unknown, schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } } = AssignmentRuleInput) => {
  const r = schema.safeParse(input)
  return r.success ? null : { path: r.error!.issues[0]!.path.join('.'), message: r.error!.issues[0]!.message }
}

describe('assignment states', () => {
  it('is open, due soon from due_soon_days before, and overdue from the day after the due date', () => {
    expect(assignmentState(facts(), '2026-12-02')).toBe('open')
    expect(assignmentState(facts(), '2026-12-03')).toBe('due_soon')
    expect(assignmentState(facts(), '2026-12-10')).toBe('due_soon')
    expect(assignmentState(facts(), '2026-12-11')).toBe('overdue')
    expect(assignmentState(facts({ due_soon_days: 0 }), '2026-12-09')).toBe('open')
  })

  it('says completed on time up to the due date and late after it; exempt wins over everything', () => {
    expect(assignmentState(facts({ completed_on: '2026-12-10' }), '2027-01-01')).toBe('completed_on_time')
    expect(assignmentState(facts({ completed_on: '2026-12-11' }), '2027-01-01')).toBe('completed_late')
    expect(assignmentState(facts({ exempt: true }), '2027-01-01')).toBe('exempt')
  })

  it('moves a recurring assignment to its next cycle once the window opens, not before', () => {
    const done = facts({ completed_on: '2026-12-01', next_due_on: '2027-12-01', next_opens_on: '2027-11-01' })
    expect(assignmentState(done, '2027-10-31')).toBe('completed_on_time')
    expect(assignmentState(done, '2027-11-01')).toBe('open')
    expect(assignmentState(done, '2027-11-24')).toBe('due_soon')
    expect(assignmentState(done, '2027-12-02')).toBe('overdue')
    expect(assignmentState(facts({ opens_on: '2026-12-01' }), '2026-11-30')).toBe('not_due_yet')
  })
})

describe('due dates', () => {
  const person = { assigned_on: '2026-11-28', hire_date: null, certification_expires_on: null }
  it('takes an absolute date as it is and a relative one from the assignment day', () => {
    expect(firstCycle({ kind: 'absolute', date: '2027-01-31' }, null, person)).toEqual({ due_on: '2027-01-31', opens_on: null })
    expect(firstCycle({ kind: 'relative', days: 30, from: 'assignment' }, null, person)).toEqual({ due_on: '2026-12-28', opens_on: null })
  })

  it('counts from the hire date as the rule says, even when that day has passed; from the assignment without one', () => {
    const hired = (hire_date: string) => firstCycle({ kind: 'relative', days: 30, from: 'hire' }, null, { ...person, hire_date })
    expect(hired('2026-11-20').due_on).toBe('2026-12-20')
    expect(hired('2020-01-01').due_on).toBe('2020-01-31')
    expect(firstCycle({ kind: 'relative', days: 30, from: 'hire' }, null, person).due_on).toBe('2026-12-28')
  })

  it('follows a held certification’s expiry, opening days_before ahead', () => {
    const recurrence = { kind: 'certification', certification_type_id: 4, days_before: 60 } as const
    expect(firstCycle({ kind: 'relative', days: 30, from: 'assignment' }, recurrence, { ...person, certification_expires_on: '2027-06-30' })).toEqual({
      due_on: '2027-06-30',
      opens_on: '2027-05-01',
    })
    expect(firstCycle({ kind: 'relative', days: 30, from: 'assignment' }, recurrence, person).due_on).toBe('2026-12-28')
  })

  it('sets the next cycle a period after the completion, or at the renewed certification’s expiry', () => {
    expect(nextCycle({ kind: 'period', months: 12, window_days: 30 }, '2026-01-31', null)).toEqual({ next_due_on: '2027-01-31', next_opens_on: '2027-01-01' })
    expect(nextCycle(null, '2026-01-31', null)).toBeNull()
    const cert = { kind: 'certification', certification_type_id: 4, days_before: 60 } as const
    expect(nextCycle(cert, '2026-01-31', null)).toBeNull()
    expect(nextCycle(cert, '2026-01-31', '2027-01-31')).toEqual({ next_due_on: '2027-01-31', next_opens_on: '2026-12-02' })
  })
})

describe('reminder stages', () => {
  it('reminds the learner before, on and after the day, then the manager, then operations', () => {
    expect(reminderStagesReached('2026-12-10', '2026-12-02', plan)).toEqual([])
    expect(reminderStagesReached('2026-12-10', '2026-12-03', plan)).toEqual(['before'])
    expect(reminderStagesReached('2026-12-10', '2026-12-10', plan)).toEqual(['due'])
    expect(reminderStagesReached('2026-12-10', '2026-12-11', plan)).toEqual(['overdue'])
    expect(reminderStagesReached('2026-12-10', '2026-12-17', plan)).toEqual(['overdue', 'manager'])
    expect(reminderStagesReached('2026-12-10', '2026-12-24', plan)).toEqual(['overdue', 'manager', 'operations'])
  })

  it('sends nothing before the day when before_days is 0 and no escalation that is switched off', () => {
    const quiet = { before_days: 0, manager_after_days: null, operations_after_days: null }
    expect(reminderStagesReached('2026-12-10', '2026-12-09', quiet)).toEqual([])
    expect(reminderStagesReached('2026-12-10', '2027-03-01', quiet)).toEqual(['overdue'])
  })
})

describe('rule input', () => {
  it('fills the defaults of reminders, due soon and recurrence', () => {
    const r = AssignmentRuleInput.parse(rule())
    expect(r).toMatchObject({ recurrence: null, due_soon_days: 7, reminders: plan })
  })

  it('names the field of each bad input', () => {
    expect(issue(rule({ due: { kind: 'relative', days: 0, from: 'assignment' } }))).toEqual({ path: 'due.days', message: M.offsetRange })
    expect(issue(rule({ due: { kind: 'relative', days: 3651, from: 'hire' } }))).toEqual({ path: 'due.days', message: M.offsetRange })
    expect(issue(rule({ recurrence: { kind: 'period' } }))).toEqual({ path: 'recurrence.months', message: M.periodRequired })
    expect(issue(rule({ audience: { kind: 'org' } }))).toEqual({ path: 'audience.branch', message: M.orgRequired })
    expect(issue(rule({ audience: { kind: 'users', user_ids: [] } }))).toEqual({ path: 'audience.user_ids', message: M.usersRequired })
    expect(issue(rule({ reminders: { manager_after_days: 10, operations_after_days: 5 } }))).toEqual({ path: 'reminders.operations_after_days', message: M.escalationOrder })
    expect(issue({ user_id: crypto.randomUUID(), reason: '  ' }, ExemptionInput)).toEqual({ path: 'reason', message: M.reasonRequired })
  })
})
