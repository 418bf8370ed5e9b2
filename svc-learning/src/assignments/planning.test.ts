import { describe, expect, it } from 'vitest'
import { expectedDates, planRule, previewOf, type Candidate, type RuleSpec, type StoredPerson } from './planning.ts'

const TODAY = '2026-06-15'
const annual: RuleSpec = { due: { kind: 'relative', days: 30, from: 'assignment' }, recurrence: { kind: 'period', months: 12, window_days: 30 } }
const oneOff: RuleSpec = { due: { kind: 'relative', days: 30, from: 'assignment' }, recurrence: null }

const person = (id: string, over: Partial<Candidate> = {}): Candidate => ({
  id,
  name: id,
  email: `${id}@acme.test`,
  hire_date: null,
  cert_expires_on: null,
  prior_completed_on: null,
  prior_completed_at: null,
  ...over,
})
const row = (user_id: string, over: Partial<StoredPerson> = {}): StoredPerson => ({
  user_id,
  assigned_on: '2026-01-10',
  due_on: '2026-02-09',
  opens_on: null,
  completed_on: null,
  next_due_on: null,
  next_opens_on: null,
  cycle: 1,
  removed: false,
  previous_completed_on: null,
  last_completed_on: null,
  name: user_id,
  email: `${user_id}@acme.test`,
  ...over,
})

describe('expectedDates', () => {
  it('gives a first cycle not completed the rule’s dates from its own assignment day', () => {
    expect(expectedDates({ ...oneOff, due: { kind: 'relative', days: 10, from: 'assignment' } }, row('a'), person('a'))).toEqual({
      due_on: '2026-01-20',
      opens_on: null,
      next_due_on: null,
      next_opens_on: null,
    })
  })

  it('keeps a completed cycle’s due date and gives it the next cycle the rule says (none when no longer recurring)', () => {
    const done = row('a', { completed_on: '2026-02-01', next_due_on: '2027-02-01', next_opens_on: '2027-01-02' })
    expect(expectedDates({ ...annual, recurrence: { kind: 'period', months: 6, window_days: 10 } }, done, person('a'))).toEqual({
      due_on: '2026-02-09',
      opens_on: null,
      next_due_on: '2026-08-01',
      next_opens_on: '2026-07-22',
    })
    expect(expectedDates(oneOff, done, person('a'))).toMatchObject({ due_on: '2026-02-09', next_due_on: null, next_opens_on: null })
  })

  it('dates a later cycle from the completion before it, and keeps its dates when the rule stops recurring', () => {
    const second = row('a', { cycle: 2, due_on: '2027-02-01', opens_on: '2027-01-02', previous_completed_on: '2026-02-01', last_completed_on: '2026-02-01' })
    expect(expectedDates({ ...annual, recurrence: { kind: 'period', months: 24, window_days: 0 } }, second, person('a'))).toMatchObject({
      due_on: '2028-02-01',
      opens_on: '2028-02-01',
    })
    expect(expectedDates(oneOff, second, person('a'))).toMatchObject({ due_on: '2027-02-01', opens_on: '2027-01-02' })
  })

  it('follows only a renewed certification: an expiry later than the cycle completed', () => {
    const spec: RuleSpec = { due: oneOff.due, recurrence: { kind: 'certification', certification_type_id: 4, days_before: 60 } }
    const done = row('a', { due_on: '2026-09-01', completed_on: '2026-07-20' })
    // The expiry the cycle renewed (its own due date) is no next cycle; a later one is.
    expect(expectedDates(spec, done, person('a', { cert_expires_on: '2026-09-01' }))).toMatchObject({ next_due_on: null })
    expect(expectedDates(spec, done, person('a', { cert_expires_on: '2028-09-01' }))).toMatchObject({ next_due_on: '2028-09-01', next_opens_on: '2028-07-03' })
  })
})

describe('planRule', () => {
  it('adds, removes, moves and keeps, listing added, removed, then moved', () => {
    const spec: RuleSpec = { ...oneOff, due: { kind: 'relative', days: 45, from: 'assignment' } }
    const plan = planRule(spec, [person('keep'), person('move'), person('new')], [row('keep', { due_on: '2026-02-24' }), row('move'), row('gone')], TODAY)
    expect(plan.arrivals).toEqual([
      { user_id: 'new', assigned_on: TODAY, cycle: 1, due_on: '2026-07-30', opens_on: null, next_due_on: null, next_opens_on: null, completion: null, returning: false },
    ])
    expect(plan.moves).toEqual([
      {
        user_id: 'move',
        completed: false,
        dates: { due_on: '2026-02-24', opens_on: null, next_due_on: null, next_opens_on: null },
        current_due_on: '2026-02-09',
        new_due_on: '2026-02-24',
      },
    ])
    expect(plan.removals).toEqual(['gone'])
    expect(plan.changes.map((c) => [c.user_id, c.change])).toEqual([
      ['new', 'added'],
      ['gone', 'removed'],
      ['move', 'due_changed'],
    ])
    expect(previewOf(plan, 2)).toMatchObject({ total: 3, added: 1, removed: 1, due_changed: 1, unchanged: 1, people: [{ user_id: 'new' }, { user_id: 'gone' }] })
  })

  it('counts a completion from before the rule on its day and on time, and starts a recurring rule’s next cycle from it', () => {
    const late = person('vet', { hire_date: '2020-01-01', prior_completed_on: '2026-05-01', prior_completed_at: new Date('2026-05-01T15:00:00Z') })
    const [a] = planRule({ due: { kind: 'relative', days: 30, from: 'hire' }, recurrence: annual.recurrence }, [late], [], TODAY).arrivals
    expect(a).toMatchObject({
      due_on: '2026-05-01',
      next_due_on: '2027-05-01',
      next_opens_on: '2027-04-01',
      completion: { completed_on: '2026-05-01', completed_at: new Date('2026-05-01T15:00:00Z'), on_time: true },
    })
  })

  it('brings a removed row back: a kept completion stands; otherwise a fresh cycle, counting only a completion newer than its last', () => {
    const spec = annual
    const kept = row('kept', { removed: true, completed_on: '2026-03-01', last_completed_on: '2026-03-01' })
    const open = row('open', { removed: true, cycle: 2, previous_completed_on: '2025-03-01', last_completed_on: '2025-03-01' })
    const plan = planRule(spec, [person('kept'), person('open', { prior_completed_on: '2025-03-01' })], [kept, open], TODAY)
    expect(plan.arrivals).toEqual([
      {
        user_id: 'kept',
        assigned_on: '2026-01-10',
        cycle: 1,
        due_on: '2026-02-09',
        opens_on: null,
        next_due_on: '2027-03-01',
        next_opens_on: '2027-01-30',
        completion: null,
        returning: true,
      },
      { user_id: 'open', assigned_on: TODAY, cycle: 2, due_on: '2026-07-15', opens_on: null, next_due_on: null, next_opens_on: null, completion: null, returning: true },
    ])
    // A completion after the last one recorded counts for the cycle it comes back to.
    const [counted] = planRule(spec, [person('open', { prior_completed_on: '2026-06-01', prior_completed_at: new Date('2026-06-01T12:00:00Z') })], [open], TODAY).arrivals
    expect(counted).toMatchObject({ cycle: 2, completion: { completed_on: '2026-06-01' }, next_due_on: '2027-06-01' })
  })
})
