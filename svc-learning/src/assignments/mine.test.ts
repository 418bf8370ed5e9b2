import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MyAssignments, assignmentState, type AssignmentFacts } from '@portal/contracts'
import { createHarness, type Harness } from '../harness.test-support.ts'
import { assignmentFixture, type Person } from './fixture.test-support.ts'

let h: Harness
let f: ReturnType<typeof assignmentFixture>
let admin: Person
beforeAll(async () => {
  h = await createHarness()
  f = assignmentFixture(h)
  admin = await f.person({ admin: true })
})
afterAll(async () => {
  await h?.close()
})

const rule = (body: unknown) => f.createRule(admin, body)
const mine = async (p: Person) => {
  const res = await h.call('GET', '/assignments/mine', { token: p.token })
  expect(res.status).toBe(200)
  return MyAssignments.parse(res.body)
}

describe('GET /assignments/mine', () => {
  it('leads with what is overdue, then due soon, open, not due yet, then completed and exempt, each by due date', async () => {
    const me = await f.person({ name: 'Mia Mine', group: 'Mine', branch: 'Anchorage', hireDate: '2022-01-10' })
    const someoneElse = await f.person({ group: 'Others' })
    const to = (users: string[]) => ({ kind: 'users' as const, user_ids: users })
    const overdueCourse = await f.course('Overdue Course')
    const overdue = await rule(f.ruleBody({ kind: 'course', id: overdueCourse.id }, { audience: to([me.id]), due: { kind: 'relative', days: 30, from: 'hire' } }))
    const soonExam = await f.exam(admin, 'Due Soon Exam')
    const soon = await rule(f.ruleBody({ kind: 'exam', id: soonExam.id }, { audience: { kind: 'group', group: 'Mine' }, due: { kind: 'absolute', date: f.day(3) } }))
    const sooner = await rule(f.ruleBody({ kind: 'exam', id: soonExam.id }, { audience: to([me.id]), due: { kind: 'absolute', date: f.day(1) } }))
    const openCourse = await f.course('Open Course')
    const open = await rule(f.ruleBody({ kind: 'course', id: openCourse.id }, { audience: to([me.id, someoneElse.id]) }))
    await h.sql('insert into certification_expiries (certification_id, user_id, certification_type_id, expiration_date, occurred_at) values (?, ?, 5, ?, now())', [
      920001,
      me.id,
      f.day(300),
    ])
    const laterCourse = await f.course('Later Course')
    const later = await rule(
      f.ruleBody({ kind: 'course', id: laterCourse.id }, { audience: to([me.id]), recurrence: { kind: 'certification', certification_type_id: 5, days_before: 30 } }),
    )
    const doneCourse = await f.course('Done Course')
    const done = await rule(f.ruleBody({ kind: 'course', id: doneCourse.id }, { audience: to([me.id]), recurrence: { kind: 'period', months: 12, window_days: 30 } }))
    await f.completeCourse(me, doneCourse)
    const exemptCourse = await f.course('Exempt Course')
    const exempt = await rule(f.ruleBody({ kind: 'course', id: exemptCourse.id }, { audience: to([me.id]) }))
    await h.call('POST', `/admin/assignment-rules/${exempt.id}/exemptions`, { token: admin.token, body: { user_id: me.id, reason: 'Already trained elsewhere' } })
    // Not mine any more: a deleted rule, a row removed.
    const goneCourse = await f.course('Gone Course')
    const gone = await rule(f.ruleBody({ kind: 'course', id: goneCourse.id }, { audience: to([me.id]) }))
    await h.call('DELETE', `/admin/assignment-rules/${gone.id}`, { token: admin.token })
    const left = await rule(f.ruleBody({ kind: 'course', id: goneCourse.id }, { audience: { kind: 'org', branch: 'Anchorage', department: null } }))
    await f.person({ id: me.id, name: 'Mia Mine', group: 'Mine', branch: 'Seattle', hireDate: '2022-01-10' })
    expect(await f.row(left.id, me.id)).toMatchObject({ removed: true })

    const list = await mine(me)
    expect(list.today).toBe(f.today())
    expect(list.assignments.map((a) => [a.rule_id, a.item_title, a.state])).toEqual([
      [overdue.id, 'Overdue Course', 'overdue'],
      [sooner.id, 'Due Soon Exam', 'due_soon'],
      [soon.id, 'Due Soon Exam', 'due_soon'],
      [open.id, 'Open Course', 'open'],
      [later.id, 'Later Course', 'not_due_yet'],
      [done.id, 'Done Course', 'completed_on_time'],
      [exempt.id, 'Exempt Course', 'exempt'],
    ])
    const byRule = new Map(list.assignments.map((a) => [a.rule_id, a]))
    expect(byRule.get(overdue.id)).toMatchObject({
      item_kind: 'course',
      item_id: overdueCourse.id,
      due_on: '2022-02-09',
      assigned_on: f.today(),
      recurring: false,
      completed_on: null,
    })
    expect(byRule.get(overdue.id)!.days_left).toBeLessThan(-1000)
    expect(byRule.get(sooner.id)).toMatchObject({ item_kind: 'exam', item_id: soonExam.id, due_on: f.day(1), days_left: 1 })
    expect(byRule.get(open.id)).toMatchObject({ due_on: f.day(30), days_left: 30, opens_on: null })
    expect(byRule.get(later.id)).toMatchObject({ due_on: f.day(300), opens_on: f.day(270), recurring: true })
    expect(byRule.get(done.id)).toMatchObject({ completed_on: f.today(), next_due_on: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), recurring: true })
    expect(byRule.get(exempt.id)).toMatchObject({ exempt_reason: 'Already trained elsewhere' })
    // The states the SQL twin gave are the contracts' rule's.
    const rows = await h.sql<Omit<AssignmentFacts, 'due_soon_days'> & { rule_id: number }>(
      `select rule_id, due_on::text, opens_on::text, completed_on::text, next_due_on::text, next_opens_on::text, exempt_reason is not null as exempt
         from assignment_people where user_id = ? and removed_at is null`,
      [me.id],
    )
    for (const row of rows) if (byRule.has(row.rule_id)) expect(assignmentState({ ...row, due_soon_days: 7 }, f.today())).toBe(byRule.get(row.rule_id)!.state)

    // Another person sees their own only.
    expect((await mine(someoneElse)).assignments.map((a) => a.rule_id)).toEqual([open.id])
    expect((await mine(admin)).assignments).toEqual([])
  })

  it('reads the caller’s rows through the index on their user id', async () => {
    const p = await f.person({ group: 'Indexed' })
    const c = await f.course('Indexed Course')
    await rule(f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'group', group: 'Indexed' } }))
    const [plan] = await h.sql<{ 'QUERY PLAN': unknown }>(
      `explain (format json) select * from assignment_people ap join assignment_rules r on r.id = ap.rule_id
        where ap.user_id = ? and ap.removed_at is null and r.deleted_at is null`,
      [p.id],
    )
    const text = JSON.stringify(plan)
    expect(text).toMatch(/assignment_people_user|assignment_people_pkey/)
    expect((await mine(p)).assignments).toHaveLength(1)
  })
})
