import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MyAssignments, addDays, computeExpiration } from '@portal/contracts'
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
const mine = async (p: Person) => MyAssignments.parse((await h.call('GET', '/assignments/mine', { token: p.token })).body).assignments
const changedOf = async (ruleId: number, userId: string) => (await h.events('learning.assignment.changed.v1')).filter((e) => e.data.ruleId === ruleId && e.data.userId === userId)
const yearsFrom = (day: string, years: number) => computeExpiration(day, 12 * years)!

describe('a course completed', () => {
  it('completes the learner’s open cycle in the completion’s transaction: on time, kept, announced beside the course’s completion', async () => {
    const c = await f.course('Completion Course')
    const p = await f.person({ group: 'Finishers' })
    const other = await f.person({ group: 'Finishers' })
    const r = await rule(f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'group', group: 'Finishers' } }))
    await f.completeCourse(p, c)
    expect(await f.row(r.id, p.id)).toMatchObject({ completed_on: f.today(), due_on: f.day(30), next_due_on: null, cycle: 1, version: 2 })
    expect(await f.completions(r.id, p.id)).toEqual([{ cycle: 1, due_on: f.day(30), completed_on: f.today(), on_time: true }])
    expect(await f.row(r.id, other.id)).toMatchObject({ completed_on: null })
    expect((await changedOf(r.id, p.id)).at(-1)!.data).toMatchObject({ completedOn: f.today(), version: 2 })
    // The course's completion and the assignment's change are recorded by the same transaction.
    expect((await h.events('learning.course.completed.v1')).filter((e) => e.data.userId === p.id && e.data.courseId === c.id)).toHaveLength(1)
    expect((await mine(p)).find((a) => a.rule_id === r.id)).toMatchObject({ state: 'completed_on_time', completed_on: f.today(), next_due_on: null, days_left: 30 })
  })

  it('completes every live rule of the person on the course, late when past the due date; a deleted rule’s row stays as it was', async () => {
    const c = await f.course('Two Rules Course')
    const p = await f.person({ group: 'Late Crew', hireDate: '2021-03-01' })
    const onTime = await rule(f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'group', group: 'Late Crew' } }))
    const late = await rule(f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'users', user_ids: [p.id] }, due: { kind: 'relative', days: 30, from: 'hire' } }))
    const gone = await rule(f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'users', user_ids: [p.id] } }))
    expect((await h.call('DELETE', `/admin/assignment-rules/${gone.id}`, { token: admin.token })).status).toBe(200)
    expect((await mine(p)).find((a) => a.rule_id === late.id)).toMatchObject({ state: 'overdue', due_on: '2021-03-31' })
    await f.completeCourse(p, c)
    expect(await f.completions(onTime.id, p.id)).toEqual([{ cycle: 1, due_on: f.day(30), completed_on: f.today(), on_time: true }])
    expect(await f.completions(late.id, p.id)).toEqual([{ cycle: 1, due_on: '2021-03-31', completed_on: f.today(), on_time: false }])
    expect(await f.row(gone.id, p.id)).toMatchObject({ removed: true, completed_on: null })
    expect(await f.completions(gone.id, p.id)).toEqual([])
    expect((await mine(p)).filter((a) => [onTime.id, late.id].includes(a.rule_id)).map((a) => a.state)).toEqual(['completed_late', 'completed_on_time'])
  })
})

describe('an exam submitted', () => {
  it('completes the assignment when passed, never when failed', async () => {
    const e = await f.exam(admin, 'Pass Only Exam')
    const p = await f.person({ group: 'Examinees' })
    const r = await rule(f.ruleBody({ kind: 'exam', id: e.id }, { audience: { kind: 'group', group: 'Examinees' } }))
    await f.takeExam(p, e, false)
    expect(await f.row(r.id, p.id)).toMatchObject({ completed_on: null, version: 1 })
    await f.takeExam(p, e, true)
    expect(await f.row(r.id, p.id)).toMatchObject({ completed_on: f.today(), version: 2 })
    expect(await f.completions(r.id, p.id)).toEqual([{ cycle: 1, due_on: f.day(30), completed_on: f.today(), on_time: true }])
    // A second pass of a one-off rule changes nothing.
    await f.takeExam(p, e, true)
    expect(await f.row(r.id, p.id)).toMatchObject({ version: 2 })
  })

  it('counts a pass or a course completed before the rule, on that day and on time, and recurring rules start from it', async () => {
    const e = await f.exam(admin, 'Passed Before Exam', { toAll: true })
    const c = await f.course('Completed Before Course')
    const p = await f.person({ group: 'Veterans', hireDate: '2019-05-01' })
    await f.takeExam(p, e, true)
    await h.call('POST', `/courses/${c.id}/assign`, { token: admin.token, body: { userIds: [p.id] } })
    await f.completeCourse(p, c)
    // The pass and the completion were 20 days ago.
    await h.sql("update exam_attempts set finalised_at = finalised_at - interval '20 days' where user_id = ? and exam_id = ?", [p.id, e.id])
    await h.sql("update course_completions set completed_at = completed_at - interval '20 days' where user_id = ? and course_id = ?", [p.id, c.id])
    const then = f.day(-20)
    const examRule = await rule(f.ruleBody({ kind: 'exam', id: e.id }, { audience: { kind: 'group', group: 'Veterans' }, due: { kind: 'relative', days: 30, from: 'hire' } }))
    // Due 30 days after a hire date long past, completed 20 days ago: on time, due that day.
    expect(await f.row(examRule.id, p.id)).toMatchObject({ assigned_on: f.today(), due_on: then, completed_on: then, next_due_on: null })
    expect(await f.completions(examRule.id, p.id)).toEqual([{ cycle: 1, due_on: then, completed_on: then, on_time: true }])
    const courseRule = await rule(
      f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'group', group: 'Veterans' }, recurrence: { kind: 'period', months: 12, window_days: 30 } }),
    )
    const next = yearsFrom(then, 1)
    expect(await f.row(courseRule.id, p.id)).toMatchObject({ due_on: f.day(30), completed_on: then, next_due_on: next, next_opens_on: addDays(next, -30) })
    expect(courseRule.counts.completed_on_time).toBe(1)
  })
})

describe('a recurring rule', () => {
  it('gives the next cycle after a completion, and rolls forward when the person completes again once it opened', async () => {
    const e = await f.exam(admin, 'Annual Exam', { toAll: true })
    const p = await f.person({ group: 'Annuals' })
    await f.takeExam(p, e, true)
    // Passed 13 months ago (a test cannot wait a year): the rule's next cycle opened and is overdue.
    await h.sql("update exam_attempts set finalised_at = finalised_at - interval '13 months' where user_id = ? and exam_id = ?", [p.id, e.id])
    const passed = (
      await h.sql('select ((finalised_at at time zone ?)::date)::text as d from exam_attempts where user_id = ? and exam_id = ? and passed', [h.ctx.timeZone, p.id, e.id])
    )[0]!.d as string
    const r = await rule(f.ruleBody({ kind: 'exam', id: e.id }, { audience: { kind: 'group', group: 'Annuals' }, recurrence: { kind: 'period', months: 12, window_days: 30 } }))
    const firstNext = yearsFrom(passed, 1)
    expect(await f.row(r.id, p.id)).toMatchObject({ cycle: 1, completed_on: passed, next_due_on: firstNext })
    expect((await mine(p)).find((a) => a.rule_id === r.id)).toMatchObject({ state: 'overdue', due_on: firstNext, completed_on: null, next_due_on: null, recurring: true })

    await f.takeExam(p, e, true)
    const next = yearsFrom(f.today(), 1)
    expect(await f.row(r.id, p.id)).toMatchObject({ cycle: 2, due_on: firstNext, completed_on: f.today(), next_due_on: next, next_opens_on: addDays(next, -30) })
    expect(await f.completions(r.id, p.id)).toEqual([
      // The pass before the rule counts for its first cycle (due 30 days after the assignment), on time.
      { cycle: 1, due_on: f.day(30), completed_on: passed, on_time: true },
      { cycle: 2, due_on: firstNext, completed_on: f.today(), on_time: false },
    ])
    expect((await mine(p)).find((a) => a.rule_id === r.id)).toMatchObject({ state: 'completed_late', due_on: firstNext, completed_on: f.today(), next_due_on: next })
    // Before the next window opens, another pass asks nothing.
    await f.takeExam(p, e, true)
    expect(await f.completions(r.id, p.id)).toHaveLength(2)
  })

  it('rolls a course forward once its next cycle opened: the course starts over where the learner picks it up, and completing it again completes the cycle', async () => {
    const c = await f.course('Annual Course')
    const p = await f.person({ group: 'Course Annuals' })
    const r = await rule(
      f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'group', group: 'Course Annuals' }, recurrence: { kind: 'period', months: 6, window_days: 0 } }),
    )
    await f.completeCourse(p, c)
    const firstNext = computeExpiration(f.today(), 6)!
    expect(await f.row(r.id, p.id)).toMatchObject({ cycle: 1, completed_on: f.today(), next_due_on: firstNext, next_opens_on: firstNext })
    // The next cycle opened (its window reached; the scan has not come by).
    await h.sql('update assignment_people set next_due_on = ?, next_opens_on = ? where rule_id = ? and user_id = ?', [f.day(5), f.day(-1), r.id, p.id])
    expect((await mine(p)).find((a) => a.rule_id === r.id)).toMatchObject({ state: 'due_soon', due_on: f.day(5), opens_on: f.day(-1) })
    // Opening the course rolls the row forward and starts the course over (retake.test.ts has the whole story).
    const opened = await h.call('GET', `/modules/course/${c.id}/progress`, { token: p.token })
    expect(opened.body.data).toMatchObject({ status: 'not-started', completed_at: null })
    expect(await f.row(r.id, p.id)).toMatchObject({ cycle: 2, due_on: f.day(5), opens_on: f.day(-1), completed_on: null, next_due_on: null })
    await f.completeCourse(p, c)
    const next = computeExpiration(f.today(), 6)!
    expect(await f.row(r.id, p.id)).toMatchObject({ cycle: 2, due_on: f.day(5), opens_on: f.day(-1), completed_on: f.today(), next_due_on: next })
    expect((await f.completions(r.id, p.id)).map((x) => [x.cycle, x.on_time])).toEqual([
      [1, true],
      [2, true],
    ])
  })

  it('ahead of a certification’s expiry: completes within the window, not before it opens, and waits for certs’ renewal for the next cycle', async () => {
    const c = await f.course('Renewal Course')
    const early = await f.person({ group: 'Certified' })
    const inWindow = await f.person({ group: 'Certified' })
    await h.sql(
      'insert into certification_expiries (certification_id, user_id, certification_type_id, expiration_date, occurred_at) values (?, ?, 11, ?, now()), (?, ?, 11, ?, now())',
      [910001, early.id, f.day(200), 910002, inWindow.id, f.day(20)],
    )
    const r = await rule(
      f.ruleBody(
        { kind: 'course', id: c.id },
        { audience: { kind: 'group', group: 'Certified' }, recurrence: { kind: 'certification', certification_type_id: 11, days_before: 60 } },
      ),
    )
    expect(await f.row(r.id, early.id)).toMatchObject({ due_on: f.day(200), opens_on: f.day(140) })
    expect(await f.row(r.id, inWindow.id)).toMatchObject({ due_on: f.day(20), opens_on: null })
    await f.completeCourse(early, c)
    await f.completeCourse(inWindow, c)
    expect(await f.row(r.id, early.id)).toMatchObject({ completed_on: null })
    expect(await f.row(r.id, inWindow.id)).toMatchObject({ completed_on: f.today(), next_due_on: null, next_opens_on: null })
    expect((await mine(inWindow)).find((a) => a.rule_id === r.id)).toMatchObject({ state: 'completed_on_time', recurring: true })
  })
})
