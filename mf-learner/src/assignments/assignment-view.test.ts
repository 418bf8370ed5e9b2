import { describe, expect, it } from 'vitest'
import { assignment } from '../test-support/index.ts'
import { dueText, itemKey, mostUrgentByItem, outstanding } from './assignment-view.ts'

describe('the learner’s assignments', () => {
  it('lists what is outstanding overdue first, then due soon, then open, the earliest due first within each', () => {
    const list = [
      assignment({ rule_id: 1, item_title: 'Open later', state: 'open', due_on: '2027-01-10', days_left: 46 }),
      assignment({ rule_id: 2, item_title: 'Done', state: 'completed_on_time', completed_on: '2026-11-01', due_on: '2026-11-20', days_left: -5 }),
      assignment({ rule_id: 3, item_title: 'Due soon', state: 'due_soon', due_on: '2026-11-30', days_left: 5 }),
      assignment({ rule_id: 4, item_title: 'Overdue recently', state: 'overdue', due_on: '2026-11-22', days_left: -3 }),
      assignment({ rule_id: 5, item_title: 'Open sooner', state: 'open', due_on: '2026-12-20', days_left: 25 }),
      assignment({ rule_id: 6, item_title: 'Overdue long ago', state: 'overdue', due_on: '2026-10-01', days_left: -55 }),
      assignment({ rule_id: 7, item_title: 'Not yet', state: 'not_due_yet', opens_on: '2027-03-01', due_on: '2027-05-01', days_left: 157 }),
      assignment({ rule_id: 8, item_title: 'Exempted', state: 'exempt', exempt_reason: 'On leave' }),
    ]
    expect(outstanding(list).map((a) => a.item_title)).toEqual(['Overdue long ago', 'Overdue recently', 'Due soon', 'Open sooner', 'Open later'])
  })

  it('keeps the most urgent of several rules on one course or exam, courses and exams of one id apart', () => {
    const byItem = mostUrgentByItem([
      assignment({ rule_id: 1, item_id: 4, state: 'open', due_on: '2027-01-10' }),
      assignment({ rule_id: 2, item_id: 4, state: 'overdue', due_on: '2026-11-20', days_left: -5 }),
      assignment({ rule_id: 3, item_id: 4, state: 'completed_on_time', completed_on: '2026-11-01' }),
      assignment({ rule_id: 4, item_kind: 'exam', item_id: 4, state: 'due_soon', due_on: '2026-11-28', days_left: 3 }),
      assignment({ rule_id: 5, item_kind: 'exam', item_id: 4, state: 'due_soon', due_on: '2026-11-27', days_left: 2 }),
    ])
    expect(byItem.get(itemKey('course', 4))?.rule_id).toBe(2)
    expect(byItem.get(itemKey('exam', 4))?.rule_id).toBe(5)
    expect(byItem.get(itemKey('course', 5))).toBeUndefined()
  })

  it('says the due date and how far it is, when a recurring one is next due, and nothing for an exemption', () => {
    expect(dueText(assignment({ state: 'overdue', due_on: '2026-11-22', days_left: -3 }))).toBe('Due Nov 22, 2026 · 3 days overdue')
    expect(dueText(assignment({ state: 'due_soon', due_on: '2026-11-25', days_left: 0 }))).toBe('Due Nov 25, 2026 · due today')
    expect(dueText(assignment({ state: 'open', due_on: '2026-11-30', days_left: 5 }))).toBe('Due Nov 30, 2026 · due in 5 days')
    expect(dueText(assignment({ state: 'not_due_yet', opens_on: '2027-03-01', due_on: '2027-05-01' }))).toBe('Due May 1, 2027 · opens Mar 1, 2027')
    const recurring = { recurring: true, completed_on: '2026-11-10', due_on: '2026-11-20', next_due_on: '2027-11-10' }
    expect(dueText(assignment({ ...recurring, state: 'completed_on_time' }))).toBe('Next due Nov 10, 2027')
    expect(dueText(assignment({ state: 'completed_late', completed_on: '2026-11-24', due_on: '2026-11-20' }))).toBe('Was due Nov 20, 2026')
    expect(dueText(assignment({ state: 'exempt', exempt_reason: 'On leave' }))).toBeNull()
  })
})
