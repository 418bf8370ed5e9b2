import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AssignmentRule, CourseModulesProgress, MyAssignments, ScormLaunch, addDays, computeExpiration, daysUntil } from '@portal/contracts'
import { createHarness, type Harness, type TestUser } from '../../harness.test-support.ts'
import { insertCourse, insertModule, installFixture } from '../progress/course-runtime.test-support.ts'

// A recurring assignment of a SCORM course retaken (decision 0051): the clock of this file's service
// moves forward a year, as the company's calendar would.
let h: Harness
let admin: TestUser
let learner: TestUser
beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true })
  learner = await h.user({ name: 'Scorm Retaker' })
})
afterAll(async () => {
  await h?.close()
})

const ANNUAL = { kind: 'period', months: 12, window_days: 30 } as const
const today = () => h.ctx.today()

/** Moves the service's clock forward until the company's today is `day`. */
function advanceTo(day: string) {
  h.advance(daysUntil(day, today()) * 86_400_000)
  // Whole days of 24 hours may end an hour short of the day across a change of daylight saving time.
  while (today() < day) h.advance(3_600_000)
  expect(today()).toBe(day)
}

const rule = async (body: unknown) => {
  const res = await h.call('POST', '/admin/assignment-rules', { token: admin.token, body })
  if (res.status !== 201) throw new Error(`rule: ${res.status} ${JSON.stringify(res.body)}`)
  return AssignmentRule.parse(res.body)
}
const row = async (ruleId: number) =>
  (await h.sql('select cycle, due_on::text, completed_on::text, next_due_on::text from assignment_people where rule_id = ? and user_id = ?', [ruleId, learner.id]))[0]
const completions = (ruleId: number) =>
  h.sql('select cycle, completed_on::text, on_time from assignment_completions where rule_id = ? and user_id = ? order by cycle', [ruleId, learner.id])
const mine = async (ruleId: number) => MyAssignments.parse((await h.call('GET', '/assignments/mine', { token: learner.token })).body).assignments.find((a) => a.rule_id === ruleId)
const courseProgress = async (courseId: number) => {
  const res = await h.call('GET', `/modules/course/${courseId}/progress`, { token: learner.token })
  expect(res.status).toBe(200)
  return CourseModulesProgress.parse(res.body).data
}
const courseCompletedEvents = async (courseId: number) =>
  (await h.events('learning.course.completed.v1')).filter((e) => e.data.userId === learner.id && e.data.courseId === courseId)

describe('a recurring SCORM course whose next cycle opened', () => {
  it('is rolled forward where the learner launches it before the scan came by: the SCORM state goes to the attempts’ history and an older launch cannot write it back', async () => {
    const courseId = await insertCourse(h, { title: 'Annual SCORM Refresher' })
    const moduleId = await insertModule(h, courseId, { isScorm: true, title: 'Golf 1.2' })
    await installFixture(h, moduleId, 'golf-scorm12-RuntimeBasicCalls.zip')
    const r = await rule({
      item_kind: 'course',
      item_id: courseId,
      audience: { kind: 'users', user_ids: [learner.id] },
      due: { kind: 'relative', days: 30, from: 'assignment' },
      recurrence: ANNUAL,
    })
    const launch = async () => {
      const res = await h.call('GET', `/scorm/${moduleId}/launch`, { token: learner.token })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      return ScormLaunch.parse(res.body)
    }
    const commit = async (l: ScormLaunch, seq: number, status: string) => {
      const res = await h.app.request(l.commitUrl.replace(/^\/api/, ''), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          itemId: l.startItem,
          seq,
          revision: l.revision,
          runtimeData: { cmi: { core: { lesson_status: status, lesson_location: '3', exit: '', session_time: '00:01:00', total_time: '00:05:00' }, suspend_data: `cycle-${seq}` } },
        }),
      })
      return { status: res.status, body: (await res.json()) as { moduleCompleted?: boolean; code?: string } }
    }

    const first = await launch()
    expect((await commit(first, 1, 'passed')).body.moduleCompleted).toBe(true)
    const firstDone = today()
    expect(await row(r.id)).toMatchObject({ cycle: 1, completed_on: firstDone })
    const nextDue = computeExpiration(firstDone, 12)!
    const nextOpens = addDays(nextDue, -30)

    // The last hour before the window opens: a launch resumes the completed state (nothing to roll yet).
    advanceTo(nextOpens)
    while (today() >= nextOpens) h.advance(-3_600_000)
    const stale = await launch()
    expect(stale.state[stale.startItem]).toBeDefined()
    h.advance(3_600_000)
    expect(today()).toBe(nextOpens)
    // The state the dashboard reads follows the dates before anything is rolled (the SQL twin's rule).
    expect(await row(r.id)).toMatchObject({ cycle: 1, completed_on: firstDone })
    expect(await mine(r.id)).toMatchObject({ state: 'open', due_on: nextDue, completed_on: null })
    // What a 2004 package would have kept too: the sequencing engine's state goes, the shared data stores stay.
    await h.sql(
      `insert into scorm_sequencing_states (user_id, module_id, launch_at, seq, state, root_completion, root_success, updated_at) values (?, ?, 1, 1, '{}'::jsonb, 'completed', 'passed', now())`,
      [learner.id, moduleId],
    )
    await h.sql(`insert into scorm_shared_data (user_id, module_id, store_id, store, updated_at) values (?, ?, 'notes', 'kept', now())`, [learner.id, moduleId])
    // Launching rolls it forward first, and the package starts from nothing.
    const second = await launch()
    expect(second.state).toEqual({})
    expect(second.revision).toBeGreaterThan(stale.revision ?? 0)
    expect(await row(r.id)).toMatchObject({ cycle: 2, due_on: nextDue, completed_on: null })
    const history = await h.sql('select item_id, lesson_status from scorm_attempts where user_id = ? and module_id = ?', [learner.id, moduleId])
    expect(history).toEqual([{ item_id: first.startItem, lesson_status: 'passed' }])
    expect(await h.sql('select 1 from scorm_sequencing_states where user_id = ? and module_id = ?', [learner.id, moduleId])).toEqual([])
    expect(second.sharedData).toEqual({ notes: 'kept' })
    expect((await courseProgress(courseId)).status).toBe('in-progress')
    // The launch from the first cycle, still open somewhere, cannot store its completed state over the new start.
    expect(await commit(stale, 1, 'passed')).toMatchObject({ status: 409, body: { code: 'stale_commit' } })
    expect(await row(r.id)).toMatchObject({ cycle: 2, completed_on: null })

    expect((await commit(second, 1, 'incomplete')).body.moduleCompleted).toBe(false)
    expect((await commit(second, 2, 'passed')).body.moduleCompleted).toBe(true)
    expect(await courseCompletedEvents(courseId)).toHaveLength(2)
    expect(await row(r.id)).toMatchObject({ cycle: 2, completed_on: today(), next_due_on: computeExpiration(today(), 12) })
    expect((await completions(r.id)).map((x) => [x.cycle, x.completed_on, x.on_time])).toEqual([
      [1, firstDone, true],
      [2, today(), true],
    ])
    // Opening it again in the same cycle starts nothing over.
    await launch()
    expect(await h.sql('select count(*)::int as n from scorm_attempts where user_id = ? and module_id = ?', [learner.id, moduleId])).toEqual([{ n: 1 }])
    expect((await courseProgress(courseId)).status).toBe('completed')
  })
})
