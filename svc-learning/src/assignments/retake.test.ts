import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CourseModulesProgress, MyAssignments, addDays, computeExpiration, daysUntil, type Exam, type ExamSummary } from '@portal/contracts'
import { createHarness, examInput, type Harness } from '../harness.test-support.ts'
import { assignmentFixture, type Person } from './fixture.test-support.ts'

// Recurring training retaken (decision 0051): the clock of this file's service moves forward a
// year or so per test, as the company's calendar would, so every test reads its days from `f.today()`.
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

const ANNUAL = { kind: 'period', months: 12, window_days: 30 } as const
const DAY_MS = 86_400_000

/** Moves the service's clock forward until the company's today is `day`. */
function advanceTo(day: string) {
  h.advance(daysUntil(day, f.today()) * DAY_MS)
  // Whole days of 24 hours may end an hour short of the day across a change of daylight saving time.
  while (f.today() < day) h.advance(3_600_000)
  expect(f.today()).toBe(day)
}

const rule = (body: unknown) => f.createRule(admin, body)
const mine = async (p: Person, ruleId: number) =>
  MyAssignments.parse((await h.call('GET', '/assignments/mine', { token: p.token })).body).assignments.find((a) => a.rule_id === ruleId)
const courseProgress = async (p: Person, courseId: number) => {
  const res = await h.call('GET', `/modules/course/${courseId}/progress`, { token: p.token })
  expect(res.status).toBe(200)
  return CourseModulesProgress.parse(res.body).data
}
const courseCompletedEvents = async (p: Person, courseId: number) =>
  (await h.events('learning.course.completed.v1')).filter((e) => e.data.userId === p.id && e.data.courseId === courseId)
const scan = () => h.dueDateScan.runDueDateScan()

describe('a recurring course whose next cycle opened', () => {
  it('is rolled forward by the scan, the learner’s progress started over, and completing it again completes the new cycle (on time, then late)', async () => {
    const c = await f.course('Annual Refresher')
    const onTime = await f.person({ group: 'Refreshers' })
    const late = await f.person({ group: 'Refreshers' })
    const exempt = await f.person({ group: 'Refreshers' })
    const r = await rule(f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'group', group: 'Refreshers' }, recurrence: ANNUAL }))
    const firstDue = f.day(30)
    for (const p of [onTime, late, exempt]) await f.completeCourse(p, c)
    const firstDone = f.today()
    const nextDue = computeExpiration(firstDone, 12)!
    const nextOpens = addDays(nextDue, -30)
    expect(await f.row(r.id, onTime.id)).toMatchObject({ cycle: 1, completed_on: firstDone, next_due_on: nextDue, next_opens_on: nextOpens })
    const exemption = await h.call('POST', `/admin/assignment-rules/${r.id}/exemptions`, { token: admin.token, body: { user_id: exempt.id, reason: 'Left the field team' } })
    expect(exemption.status).toBe(200)

    // The day before the window opens, nothing moves.
    advanceTo(addDays(nextOpens, -1))
    expect(await scan()).toMatchObject({ ran: true, rolled: 0 })
    expect(await f.row(r.id, onTime.id)).toMatchObject({ cycle: 1, completed_on: firstDone })
    expect((await courseProgress(onTime, c.id)).status).toBe('completed')

    advanceTo(addDays(nextOpens, 2))
    const run = await scan()
    expect(run).toMatchObject({ ran: true, rolled: 2 })
    for (const p of [onTime, late]) {
      expect(await f.row(r.id, p.id)).toMatchObject({
        cycle: 2,
        due_on: nextDue,
        opens_on: nextOpens,
        completed_on: null,
        next_due_on: null,
        next_opens_on: null,
        removed: false,
      })
      const changed = (await h.events('learning.assignment.changed.v1')).filter((e) => e.data.ruleId === r.id && e.data.userId === p.id).at(-1)!
      expect(changed.data).toMatchObject({ dueOn: nextDue, opensOn: nextOpens, completedOn: null, nextDueOn: null })
      // The course starts over: nothing started, nothing completed.
      const progress = await courseProgress(p, c.id)
      expect(progress).toMatchObject({ status: 'not-started', progress: 0, completed_at: null })
      expect(progress.modules[0]).toMatchObject({ completed_at: null, progress: 0, started_at: null })
      expect(await mine(p, r.id)).toMatchObject({ state: 'open', due_on: nextDue, completed_on: null, days_left: 28 })
    }
    // An exempt person is asked nothing: their row and their course stay as they were.
    expect(await f.row(r.id, exempt.id)).toMatchObject({ cycle: 1, completed_on: firstDone, next_due_on: nextDue, exempt_reason: 'Left the field team' })
    expect((await courseProgress(exempt, c.id)).status).toBe('completed')

    // A second scan the same day has nothing left to roll, and announces nothing more.
    const versions = await Promise.all([onTime, late].map(async (p) => (await f.row(r.id, p.id))!.version))
    const changes = (await h.events('learning.assignment.changed.v1')).length
    expect(await scan()).toMatchObject({ ran: true, rolled: 0 })
    expect(await Promise.all([onTime, late].map(async (p) => (await f.row(r.id, p.id))!.version))).toEqual(versions)
    expect((await h.events('learning.assignment.changed.v1')).length).toBe(changes)

    // Completing the course again completes the new cycle, on time, through the course's completion.
    await f.completeCourse(onTime, c)
    const again = f.today()
    expect(await courseCompletedEvents(onTime, c.id)).toHaveLength(2)
    expect(await f.row(r.id, onTime.id)).toMatchObject({ cycle: 2, due_on: nextDue, completed_on: again, next_due_on: computeExpiration(again, 12) })
    expect(await f.completions(r.id, onTime.id)).toEqual([
      { cycle: 1, due_on: firstDue, completed_on: firstDone, on_time: true },
      { cycle: 2, due_on: nextDue, completed_on: again, on_time: true },
    ])
    expect(await mine(onTime, r.id)).toMatchObject({ state: 'completed_on_time', completed_on: again })

    // Past the due date: late.
    advanceTo(addDays(nextDue, 3))
    expect(await mine(late, r.id)).toMatchObject({ state: 'overdue' })
    await f.completeCourse(late, c)
    expect(await f.completions(r.id, late.id)).toEqual([
      { cycle: 1, due_on: firstDue, completed_on: firstDone, on_time: true },
      { cycle: 2, due_on: nextDue, completed_on: f.today(), on_time: false },
    ])
    expect(await mine(late, r.id)).toMatchObject({ state: 'completed_late' })
    expect(await courseCompletedEvents(late, c.id)).toHaveLength(2)
  })
})

describe('a recurring final exam whose next cycle opened', () => {
  it('counts only the attempts of the new cycle against its limit: one more attempt, not two; the intro rolls it forward before the scan', async () => {
    const created = await h.call('POST', '/exams', {
      token: admin.token,
      body: examInput({ name: 'Annual Arc Flash Final', exam_type: 'final', max_attempts: 1, is_assigned_to_all: false }),
    })
    expect(created.status).toBe(201)
    const e = created.body as Exam
    const scanned = await f.person({ group: 'Arc Flash' })
    const lazy = await f.person({ group: 'Arc Flash' })
    const r = await rule(f.ruleBody({ kind: 'exam', id: e.id }, { audience: { kind: 'group', group: 'Arc Flash' }, recurrence: ANNUAL }))
    const start = (p: Person) => h.call('POST', `/exams/${e.id}/attempts`, { token: p.token })
    const used = async (p: Person) => ((await h.call('GET', '/exams', { token: p.token })).body as ExamSummary[]).find((x) => x.id === e.id)!.attempts_used
    for (const p of [scanned, lazy]) await f.takeExam(p, e, true)
    const firstDone = f.today()
    expect(await start(scanned)).toMatchObject({ status: 409, body: { code: 'attempts_exhausted' } })
    expect(await used(scanned)).toBe(1)
    const nextDue = computeExpiration(firstDone, 12)!

    advanceTo(addDays(nextDue, -20))
    // The intro, before any scan: the cycle rolls forward and the attempt used last cycle no longer counts.
    const intro = await h.call('GET', `/exams/${e.id}`, { token: lazy.token })
    expect(intro.body).toMatchObject({ attempts_used: 0, max_attempts: 1 })
    expect(await f.row(r.id, lazy.id)).toMatchObject({ cycle: 2, due_on: nextDue, completed_on: null })
    expect(await f.row(r.id, scanned.id)).toMatchObject({ cycle: 1 })

    // (The rows of this file's earlier tests roll on to their third cycle in the same scan.)
    expect((await scan()).rolled).toBeGreaterThanOrEqual(1)
    expect(await f.row(r.id, scanned.id)).toMatchObject({ cycle: 2, due_on: nextDue, completed_on: null })
    expect(await used(scanned)).toBe(0)
    expect(await scan()).toMatchObject({ ran: true, rolled: 0 })

    for (const p of [scanned, lazy]) {
      const result = await f.takeExam(p, e, true)
      expect(result.attempt_number).toBe(2)
      expect(await start(p)).toMatchObject({ status: 409, body: { code: 'attempts_exhausted' } })
      expect(await used(p)).toBe(1)
      expect(await f.completions(r.id, p.id)).toEqual([
        { cycle: 1, due_on: addDays(firstDone, 30), completed_on: firstDone, on_time: true },
        { cycle: 2, due_on: nextDue, completed_on: f.today(), on_time: true },
      ])
    }
    expect(await scan()).toMatchObject({ ran: true, rolled: 0 })
  })

  it('keeps its limit under concurrent starts in the new cycle: one attempt, the other start resumes it', async () => {
    const created = await h.call('POST', '/exams', {
      token: admin.token,
      body: examInput({ name: 'Annual Confined Space Final', exam_type: 'final', max_attempts: 1, is_assigned_to_all: false }),
    })
    const e = created.body as Exam
    const p = await f.person({ name: 'Racing Retaker' })
    const r = await rule(f.ruleBody({ kind: 'exam', id: e.id }, { audience: { kind: 'users', user_ids: [p.id] }, recurrence: ANNUAL }))
    await f.takeExam(p, e, true)
    advanceTo(addDays(computeExpiration(f.today(), 12)!, -5))
    // Both starts roll the cycle forward under the learner's lock of the exam: one rolls, then one attempt starts and the other resumes it.
    const starts = await Promise.all([0, 1, 2].map(() => h.call('POST', `/exams/${e.id}/attempts`, { token: p.token })))
    expect(starts.map((s) => s.status).sort()).toEqual([200, 200, 201])
    expect(new Set(starts.map((s) => s.body.attemptId)).size).toBe(1)
    // The learner's screen says "attempt 1 of 1" of the new cycle, while the attempt is their second in all.
    expect(starts.map((s) => [s.body.attemptNumber, s.body.countedNumber])).toEqual([
      [2, 1],
      [2, 1],
      [2, 1],
    ])
    expect(await f.row(r.id, p.id)).toMatchObject({ cycle: 2, completed_on: null })
    expect(await h.sql('select counts_from from exam_attempt_resets where exam_id = ? and user_id = ?', [e.id, p.id])).toEqual([{ counts_from: 2 }])
  })
})
