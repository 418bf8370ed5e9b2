import { ASSIGNMENT_MESSAGES as M, type AssignmentPreview, type AssignmentRule } from '@portal/contracts'
import { ApiError } from '@portal/ui-kit'
import { describe, expect, it } from 'vitest'
import { reportQuery } from './api.ts'
import { affectsText, checkRuleForm, dueText, emptyRuleForm, formFromRule, recurrenceText, serverFieldErrors, type RuleForm } from './rule-form.ts'

const U1 = '00000000-0000-4000-8000-000000000001'
const form = (over: Partial<RuleForm> = {}): RuleForm => ({ ...emptyRuleForm(), item_id: '4', user_ids: [U1], ...over })
const refused = (body: unknown, message = 'Bad input') => new ApiError(400, 'validation_failed', message, body, message)

describe('assignment rule form', () => {
  it('turns a filled form into the rule the contracts accept, reminders that are off as 0 or null', () => {
    const checked = checkRuleForm(form({ remind_before: false, operations_copy: false }), '2026-01-10')
    expect(checked).toEqual({
      ok: true,
      input: {
        item_kind: 'course',
        item_id: 4,
        audience: { kind: 'users', user_ids: [U1] },
        due: { kind: 'relative', days: 30, from: 'assignment' },
        recurrence: null,
        due_soon_days: 7,
        reminders: { before_days: 0, manager_after_days: 7, operations_after_days: null },
      },
    })
  })

  it('refuses a relative offset of 0 or over 3650 days beside the Days field', () => {
    for (const days of ['0', '3651', '1.5', '']) expect(checkRuleForm(form({ due_days: days }), null)).toEqual({ ok: false, errors: { 'due.days': M.offsetRange } })
  })

  it('asks a recurring rule for its period, and keeps the period in range', () => {
    expect(checkRuleForm(form({ recurring: true, months: '' }), null)).toEqual({ ok: false, errors: { 'recurrence.months': M.periodRequired } })
    expect(checkRuleForm(form({ recurring: true, months: '121' }), null)).toEqual({ ok: false, errors: { 'recurrence.months': M.periodRange } })
    expect(checkRuleForm(form({ recurring: true, recurrence_kind: 'certification', certification_type_id: '' }), null)).toEqual({
      ok: false,
      errors: { 'recurrence.certification_type_id': 'Choose a certification type' },
    })
  })

  it('names the missing item, users, group and branch/department in words', () => {
    expect(checkRuleForm(form({ item_id: '' }), null)).toEqual({ ok: false, errors: { item_id: 'Choose a course' } })
    expect(checkRuleForm(form({ item_kind: 'exam', item_id: '' }), null)).toEqual({ ok: false, errors: { item_id: 'Choose an exam' } })
    expect(checkRuleForm(form({ user_ids: [] }), null)).toEqual({ ok: false, errors: { 'audience.user_ids': M.usersRequired } })
    expect(checkRuleForm(form({ audience: 'group' }), null)).toEqual({ ok: false, errors: { 'audience.group': 'Choose a user group' } })
    expect(checkRuleForm(form({ audience: 'org' }), null)).toEqual({ ok: false, errors: { 'audience.branch': M.orgRequired } })
    expect(checkRuleForm(form({ audience: 'org', department: 'Testing' }), null).ok).toBe(true)
  })

  it('refuses a new rule due before today, an empty due soon, and operations before the manager copy', () => {
    expect(checkRuleForm(form({ due_kind: 'absolute', due_date: '2026-01-09' }), '2026-01-10')).toEqual({ ok: false, errors: { 'due.date': M.dueBeforeAssignment } })
    expect(checkRuleForm(form({ due_kind: 'absolute', due_date: '2026-01-10' }), '2026-01-10').ok).toBe(true)
    expect(checkRuleForm(form({ due_soon_days: '' }), null)).toEqual({ ok: false, errors: { due_soon_days: M.reminderRange } })
    expect(checkRuleForm(form({ manager_after_days: '10', operations_after_days: '10' }), null)).toEqual({
      ok: false,
      errors: { 'reminders.operations_after_days': M.escalationOrder },
    })
  })

  it('fills the form from a stored rule and back to the same rule', () => {
    const rule: AssignmentRule = {
      id: 3,
      item_kind: 'exam',
      item_id: 8,
      item_title: 'Ladder Safety',
      audience: { kind: 'group', group: 'Field East' },
      audience_label: 'Group: Field East',
      due: { kind: 'absolute', date: '2027-01-31' },
      recurrence: { kind: 'certification', certification_type_id: 5, days_before: 60 },
      due_soon_days: 14,
      reminders: { before_days: 0, manager_after_days: null, operations_after_days: 21 },
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      people: 0,
      counts: { overdue: 0, due_soon: 0, open: 0, not_due_yet: 0, completed_late: 0, completed_on_time: 0, exempt: 0 },
    }
    const checked = checkRuleForm(formFromRule(rule), null)
    expect(checked.ok && checked.input).toEqual({
      item_kind: 'exam',
      item_id: 8,
      audience: { kind: 'group', group: 'Field East' },
      due: { kind: 'absolute', date: '2027-01-31' },
      recurrence: { kind: 'certification', certification_type_id: 5, days_before: 60 },
      due_soon_days: 14,
      reminders: { before_days: 0, manager_after_days: null, operations_after_days: 21 },
    })
  })

  it("puts the server's refusals beside the fields its details name, else beside the field its message belongs to", () => {
    const f = form({ audience: 'group', group: 'Gone' })
    expect(
      serverFieldErrors(
        refused({
          message: 'x',
          code: 'validation_failed',
          details: [
            { path: 'due.days', message: M.offsetRange },
            { path: 'x', message: 'Other' },
          ],
        }),
        f,
        M.saveFailed,
      ),
    ).toEqual({ errors: { 'due.days': M.offsetRange }, message: 'Other' })
    // A whole part named: the field of the audience chosen.
    expect(serverFieldErrors(refused({ message: M.groupNotFound, code: 'validation_failed', details: [{ path: 'audience', message: M.groupNotFound }] }), f, M.saveFailed)).toEqual(
      {
        errors: { 'audience.group': M.groupNotFound },
        message: null,
      },
    )
    expect(serverFieldErrors(refused({ message: M.groupNotFound, code: 'group_not_found' }, M.groupNotFound), f, M.saveFailed)).toEqual({
      errors: { 'audience.group': M.groupNotFound },
      message: null,
    })
    expect(serverFieldErrors(refused({ message: 'Nope', code: 'forbidden' }, 'Nope'), f, M.saveFailed)).toEqual({ errors: {}, message: 'Nope' })
    expect(serverFieldErrors(new Error('x'), f, M.saveFailed)).toEqual({ errors: {}, message: M.saveFailed })
  })
})

describe('how a rule reads', () => {
  it('says the due date and the recurrence in words', () => {
    expect(dueText({ kind: 'absolute', date: '2027-01-31' })).toBe('By Jan 31, 2027')
    expect(dueText({ kind: 'relative', days: 30, from: 'hire' })).toBe('30 days after hire date')
    expect(dueText({ kind: 'relative', days: 1, from: 'assignment' })).toBe('1 day after assignment')
    expect(recurrenceText(null, () => undefined)).toBe('None')
    expect(recurrenceText({ kind: 'period', months: 12, window_days: 30 }, () => undefined)).toBe('Every 12 months after the last completion (opens 30 days before)')
    expect(recurrenceText({ kind: 'certification', certification_type_id: 5, days_before: 60 }, () => 'Lockout/Tagout')).toBe(
      'Follows Lockout/Tagout expiry (opens 60 days before)',
    )
  })

  it('counts the people a save changes', () => {
    const p: AssignmentPreview = { total: 10, added: 2, removed: 1, due_changed: 0, unchanged: 7, people: [] }
    expect(affectsText(p)).toBe('This change affects 3 people')
    expect(affectsText({ ...p, added: 1, removed: 0 })).toBe('This change affects 1 person')
  })

  it('asks for a report with only the filters that are set', () => {
    expect(reportQuery({ state: 'overdue', branch: 'Seattle', search: ' ann ', limit: 50, offset: 0 })).toBe('?state=overdue&branch=Seattle&search=ann&limit=50&offset=0')
    expect(reportQuery({})).toBe('')
  })
})
