import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ASSIGNMENT_MESSAGES as M, AssignmentPreview, AssignmentRule, AssignmentRuleList, AssignmentRuleSaved, MyAssignments, addDays, computeExpiration } from '@portal/contracts'
import { createHarness, type Harness } from '../harness.test-support.ts'
import { recordItemCompletion } from './completion.ts'
import { assignmentFixture, type Person } from './fixture.test-support.ts'

let h: Harness
let f: ReturnType<typeof assignmentFixture>
let admin: Person
let manager: Person
let tech: Person
beforeAll(async () => {
  h = await createHarness()
  f = assignmentFixture(h)
  admin = await f.person({ admin: true, name: 'Ada Admin' })
  manager = await f.person({ manager: true, branch: 'Portland', department: 'Service' })
  tech = await f.person({ branch: 'Portland', department: 'Service' })
})
afterAll(async () => {
  await h?.close()
})

const post = (body: unknown, token = admin.token) => h.call('POST', '/admin/assignment-rules', { token, body })
const put = (id: number, body: unknown, token = admin.token) => h.call('PUT', `/admin/assignment-rules/${id}`, { token, body })
const preview = (body: unknown, token = admin.token) => h.call('POST', '/admin/assignment-rules/preview', { token, body })
const count = async (table: string) => (await h.sql<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n
/** Rows and events stored: a refused request changes neither. */
const stored = async () => ({ rules: await count('assignment_rules'), people: await count('assignment_people'), outbox: await count('outbox') })

/** Resolves once `n` sessions of this database wait for a lock (a transaction under way holds what they need). */
async function lockWaiters(n: number) {
  for (let i = 0; i < 200; i++) {
    const [row] = await h.sql<{ n: number }>("select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'")
    if (row!.n >= n) return
    await new Promise((r) => setTimeout(r, 25))
  }
  throw new Error(`no ${n} session(s) waiting for a lock`)
}

describe('who may call', () => {
  it('lets admins use every rule route; managers and technicians get 403 before their input is read, no token 401', async () => {
    const c = await f.course('Role Matrix Course')
    const body = f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'users', user_ids: [tech.id] } })
    const created = await post(body)
    expect(created.status).toBe(201)
    const id = created.body.id as number
    const routes: [string, string, unknown?][] = [
      ['GET', '/admin/assignment-rules'],
      ['POST', '/admin/assignment-rules', body],
      ['POST', '/admin/assignment-rules/preview', body],
      ['GET', `/admin/assignment-rules/${id}`],
      ['PUT', `/admin/assignment-rules/${id}`, body],
      ['GET', `/admin/assignment-rules/${id}/report`],
      ['GET', `/admin/assignment-rules/${id}/report/export`],
      ['POST', `/admin/assignment-rules/${id}/exemptions`, { user_id: tech.id, reason: 'On leave' }],
      ['DELETE', `/admin/assignment-rules/${id}/exemptions/${tech.id}`],
      ['DELETE', `/admin/assignment-rules/${id}`],
    ]
    for (const [method, path, payload] of routes) {
      for (const who of [manager, tech]) {
        expect(await h.call(method, path, { token: who.token, body: payload }), `${method} ${path}`).toMatchObject({ status: 403, body: { code: 'admin_required' } })
        // The access check comes first: bad input from a non-admin is still a 403.
        if (payload !== undefined) expect((await h.call(method, path, { token: who.token, body: { nonsense: true } })).status).toBe(403)
      }
      expect((await h.call(method, path, { body: payload })).status, `${method} ${path}`).toBe(401)
    }
    const before = await stored()
    for (const [method, path, payload] of routes) {
      const res = await h.call(method, path, { token: admin.token, body: payload })
      expect(res.status, `${method} ${path}`).toBe(method === 'POST' && path === '/admin/assignment-rules' ? 201 : 200)
    }
    expect((await stored()).rules).toBe(before.rules + 1)
  })

  it('lets every signed-in user read their own assignments and nobody else’s; no token 401', async () => {
    for (const who of [admin, manager, tech]) {
      const res = await h.call('GET', '/assignments/mine', { token: who.token })
      expect(res.status).toBe(200)
      const mine = MyAssignments.parse(res.body)
      expect(mine.today).toBe(f.today())
    }
    expect((await h.call('GET', '/assignments/mine')).status).toBe(401)
    expect((await h.call('GET', '/assignments/mine', { token: 'not-a-token' })).status).toBe(401)
  })
})

describe('POST /admin/assignment-rules', () => {
  it('assigns the course to the audience (never admins), due from the assignment day, and gives them access as an assignment does', async () => {
    const c = await f.course('Ladder Safety')
    const a = await f.person({ branch: 'Seattle', department: 'Electricians' })
    const b = await f.person({ branch: 'Seattle', department: 'Testing' })
    const other = await f.person({ branch: 'Anchorage', department: 'Electricians' })
    const seattleAdmin = await f.person({ admin: true, branch: 'Seattle' })
    const res = await post(f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'org', branch: 'Seattle', department: null } }))
    expect(res.status).toBe(201)
    const rule = AssignmentRuleSaved.parse(res.body)
    expect(rule).toMatchObject({
      item_title: 'Ladder Safety',
      audience_label: 'Branch: Seattle',
      people: 2,
      message: M.saved,
      changes: { total: 2, added: 2, removed: 0, due_changed: 0, unchanged: 0 },
      due_soon_days: 7,
      reminders: { before_days: 7, manager_after_days: 7, operations_after_days: 14 },
    })
    expect(rule.counts.open).toBe(2)
    for (const p of [a, b])
      expect(await f.row(rule.id, p.id)).toMatchObject({ assigned_on: f.today(), due_on: f.day(30), completed_on: null, cycle: 1, removed: false, version: 1 })
    expect(await f.row(rule.id, other.id)).toBeUndefined()
    expect(await f.row(rule.id, seattleAdmin.id)).toBeUndefined()
    // Access as POST /courses/{id}/assign gives it: a row each and one event naming them.
    const access = await h.sql('select user_id from course_assignments where course_id = ? order by user_id', [c.id])
    expect(access.map((r) => r.user_id)).toEqual([a.id, b.id].sort())
    const assigned = (await h.events('learning.course.assigned.v1')).filter((e) => e.data.courseId === c.id)
    expect(assigned.map((e) => [[...e.data.userIds].sort(), e.data.assignedToAll, e.data.courseTitle])).toEqual([[[a.id, b.id].sort(), false, 'Ladder Safety']])
    // Each row announced by the trigger, in the same transaction.
    const changed = (await h.events('learning.assignment.changed.v1')).filter((e) => e.data.ruleId === rule.id)
    expect(changed.map((e) => e.data.userId).sort()).toEqual([a.id, b.id].sort())
    expect(changed[0]!.data).toMatchObject({ itemKind: 'course', itemId: c.id, itemTitle: 'Ladder Safety', dueOn: f.day(30), removed: false, recurring: false, version: 1 })
    expect((await h.call('GET', `/modules/course/${c.id}/progress`, { token: a.token })).status).toBe(200)
    expect(await h.call('GET', `/admin/assignment-rules/${rule.id}`, { token: admin.token })).toMatchObject({ status: 200, body: { id: rule.id, people: 2 } })
  })

  it('assigns an exam (access through exam_assignments) to a user group, users listed, a department, and everyone', async () => {
    const e = await f.exam(admin, 'Group Exam')
    const crew = await f.person({ group: 'Crew Alpha', department: 'Construction' })
    const listed = await f.person({ department: 'Construction' })
    const byGroup = AssignmentRule.parse((await post(f.ruleBody({ kind: 'exam', id: e.id }, { audience: { kind: 'group', group: 'Crew Alpha' } }))).body)
    expect(byGroup).toMatchObject({ audience_label: 'Group: Crew Alpha', people: 1, item_title: 'Group Exam' })
    const byList = AssignmentRule.parse((await post(f.ruleBody({ kind: 'exam', id: e.id }, { audience: { kind: 'users', user_ids: [listed.id, crew.id] } }))).body)
    expect(byList).toMatchObject({ audience_label: '2 users', people: 2 })
    const byDept = AssignmentRule.parse((await post(f.ruleBody({ kind: 'exam', id: e.id }, { audience: { kind: 'org', branch: null, department: 'Construction' } }))).body)
    expect(byDept).toMatchObject({ audience_label: 'Department: Construction', people: 2 })
    const all = AssignmentRule.parse((await post(f.ruleBody({ kind: 'exam', id: e.id }, { audience: { kind: 'everyone' } }))).body)
    const everyone = await h.sql<{ n: number }>('select count(*)::int as n from users where deleted_at is null and not is_admin')
    expect(all).toMatchObject({ audience_label: 'Everyone', people: everyone[0]!.n })
    expect(await f.row(all.id, admin.id)).toBeUndefined()
    const access = await h.sql('select user_id from exam_assignments where exam_id = ?', [e.id])
    expect(access.map((r) => r.user_id)).toEqual(expect.arrayContaining([crew.id, listed.id, tech.id]))
    expect(access.map((r) => r.user_id)).not.toContain(admin.id)
    // The list: newest first, of one item when asked, each with its people by state.
    const list = AssignmentRuleList.parse((await h.call('GET', `/admin/assignment-rules?item_kind=exam&item_id=${e.id}`, { token: admin.token })).body)
    expect(list.map((r) => r.id)).toEqual([all.id, byDept.id, byList.id, byGroup.id])
    expect(list[1]!.counts.open).toBe(2)
    expect((await h.call('GET', '/admin/assignment-rules?item_kind=quiz', { token: admin.token })).body).toMatchObject({
      code: 'validation_failed',
      details: [{ path: 'item_kind' }],
    })
  })

  it('counts from the hire date when asked, and a certification recurrence from the person’s latest expiry of that type', async () => {
    const c = await f.course('Hire Course')
    const fresh = await f.person({ department: 'Testing', group: 'Hires', hireDate: f.day(-10) })
    const old = await f.person({ department: 'Testing', group: 'Hires', hireDate: '2020-01-01' })
    const unknown = await f.person({ department: 'Testing', group: 'Hires', hireDate: null })
    const rule = AssignmentRule.parse(
      (await post(f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'group', group: 'Hires' }, due: { kind: 'relative', days: 30, from: 'hire' } }))).body,
    )
    expect((await f.row(rule.id, fresh.id))!.due_on).toBe(f.day(20))
    // The rule says so even when that day has passed (the dry run shows it before a save).
    expect((await f.row(rule.id, old.id))!.due_on).toBe('2020-01-31')
    expect((await f.row(rule.id, unknown.id))!.due_on).toBe(f.day(30))
    expect(rule.counts).toMatchObject({ overdue: 1, due_soon: 0, open: 2 })

    // Certs' expiries as learning's projection holds them: due on the latest, open days_before ahead.
    await h.sql(
      'insert into certification_expiries (certification_id, user_id, certification_type_id, expiration_date, occurred_at) values (?, ?, 7, ?, now()), (?, ?, 7, ?, now())',
      [900001, fresh.id, f.day(100), 900002, fresh.id, f.day(200)],
    )
    const renewing = AssignmentRule.parse(
      (
        await post(
          f.ruleBody(
            { kind: 'course', id: c.id },
            { audience: { kind: 'group', group: 'Hires' }, recurrence: { kind: 'certification', certification_type_id: 7, days_before: 60 } },
          ),
        )
      ).body,
    )
    expect(await f.row(renewing.id, fresh.id)).toMatchObject({ due_on: f.day(200), opens_on: f.day(140) })
    // Without a held certification: the rule's own first due date.
    expect(await f.row(renewing.id, old.id)).toMatchObject({ due_on: f.day(30), opens_on: null })
    expect(renewing.counts).toMatchObject({ not_due_yet: 1, open: 2 })
  })
})

describe('bad input', () => {
  it('answers 400 naming the field with the contracts’ messages, and stores nothing', async () => {
    const c = await f.course('Bad Input Course')
    const body = (over: Record<string, unknown>) => ({ ...f.ruleBody({ kind: 'course', id: c.id }), ...over })
    const cases: [Record<string, unknown>, string, string][] = [
      [{ due: { kind: 'absolute', date: f.day(-1) } }, 'due.date', M.dueBeforeAssignment],
      [{ due: { kind: 'absolute', date: '31/01/2027' } }, 'due.date', 'Use a date in the form YYYY-MM-DD'],
      [{ due: { kind: 'relative', days: 0, from: 'assignment' } }, 'due.days', M.offsetRange],
      [{ due: { kind: 'relative', days: 3651, from: 'hire' } }, 'due.days', M.offsetRange],
      [{ due: { kind: 'relative', days: 2.5, from: 'hire' } }, 'due.days', M.offsetRange],
      [{ recurrence: { kind: 'period', window_days: 30 } }, 'recurrence.months', M.periodRequired],
      [{ recurrence: { kind: 'period', months: 0 } }, 'recurrence.months', M.periodRange],
      [{ recurrence: { kind: 'certification', certification_type_id: 3, days_before: 0 } }, 'recurrence.days_before', M.offsetRange],
      [{ audience: { kind: 'group', group: 'Nobody’s Crew' } }, 'audience.group', M.groupNotFound],
      [{ audience: { kind: 'org', branch: null, department: null } }, 'audience.branch', M.orgRequired],
      [{ audience: { kind: 'users', user_ids: [] } }, 'audience.user_ids', M.usersRequired],
      [{ audience: { kind: 'users', user_ids: [tech.id, crypto.randomUUID()] } }, 'audience.user_ids', M.userNotFound],
      [{ audience: { kind: 'users', user_ids: [admin.id] } }, 'audience.user_ids', M.userNotFound],
      [{ reminders: { before_days: 7, manager_after_days: 10, operations_after_days: 5 } }, 'reminders.operations_after_days', M.escalationOrder],
      [{ due_soon_days: -1 }, 'due_soon_days', M.reminderRange],
    ]
    const before = await stored()
    for (const [over, path, message] of cases) {
      for (const send of [post, preview]) {
        const res = await send(body(over))
        expect(res.status, `${path} ${JSON.stringify(over)}`).toBe(400)
        expect(res.body.message).toBe(message)
        expect(res.body.details[0]).toMatchObject({ path, message })
      }
    }
    expect(await stored()).toEqual(before)
    // An unknown course or exam: 404 with the contracts' messages.
    expect(await post(body({ item_id: 999_999 }))).toMatchObject({ status: 404, body: { message: M.courseNotFound, code: 'course_not_found' } })
    expect(await post(body({ item_kind: 'exam', item_id: 999_999 }))).toMatchObject({ status: 404, body: { message: M.examNotFound, code: 'exam_not_found' } })
    expect(await preview(body({ item_id: 999_999 }))).toMatchObject({ status: 404, body: { code: 'course_not_found' } })
    expect(await preview(body({ rule_id: 999_999 }))).toMatchObject({ status: 404, body: { message: M.ruleNotFound } })
    for (const [method, path] of [
      ['GET', '/admin/assignment-rules/999999'],
      ['PUT', '/admin/assignment-rules/999999'],
      ['DELETE', '/admin/assignment-rules/999999'],
      ['GET', '/admin/assignment-rules/999999/report'],
    ] as const)
      expect(await h.call(method, path, { token: admin.token, body: method === 'PUT' ? body({}) : undefined })).toMatchObject({
        status: 404,
        body: { message: M.ruleNotFound, code: 'assignment_rule_not_found' },
      })
    expect((await h.call('GET', '/admin/assignment-rules/abc', { token: admin.token })).body).toMatchObject({ code: 'validation_failed', details: [{ path: 'id' }] })
    expect(await stored()).toEqual(before)
  })

  it('knows a group identity announced, or one a user belongs to (groups older than the stream)', async () => {
    const c = await f.course('Group Course')
    const body = (group: string) => f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'group', group } })
    expect((await preview(body('Night Shift'))).status).toBe(400)
    const created = {
      id: crypto.randomUUID(),
      type: 'identity.group.created.v1',
      occurredAt: new Date().toISOString(),
      data: { groupId: crypto.randomUUID(), name: 'Night Shift', createdAt: new Date().toISOString() },
    }
    await h.bus.publish(created)
    await h.bus.publish(created)
    expect(await h.sql('select name from user_groups where name = ?', ['Night Shift'])).toHaveLength(1)
    expect(await preview(body('Night Shift'))).toMatchObject({ status: 200, body: { total: 0, added: 0 } })
    expect((await post(body('Night Shift'))).status).toBe(201)
    await f.person({ group: 'Old Crew' })
    expect(await preview(body('Old Crew'))).toMatchObject({ status: 200, body: { total: 1, added: 1 } })
  })

  it('keeps an edit on its course or exam, and an unchanged absolute date that has passed', async () => {
    const c = await f.course('Fixed Course')
    const other = await f.course('Other Course')
    const rule = AssignmentRule.parse((await post(f.ruleBody({ kind: 'course', id: c.id }, { due: { kind: 'absolute', date: f.today() } }))).body)
    expect(await put(rule.id, f.ruleBody({ kind: 'course', id: other.id }))).toMatchObject({ status: 400, body: { message: M.itemFixed, details: [{ path: 'item_id' }] } })
    // The rule's date was valid when set; keeping it (after that day passed) is no new date in the past.
    await h.sql("update assignment_rules set due = jsonb_set(due, '{date}', to_jsonb(?::text)) where id = ?", [f.day(-3), rule.id])
    expect((await put(rule.id, f.ruleBody({ kind: 'course', id: c.id }, { due: { kind: 'absolute', date: f.day(-3) }, due_soon_days: 3 }))).status).toBe(200)
    expect((await put(rule.id, f.ruleBody({ kind: 'course', id: c.id }, { due: { kind: 'absolute', date: f.day(-2) } }))).body).toMatchObject({ details: [{ path: 'due.date' }] })
  })
})

describe('the dry run and the save', () => {
  it('says exactly what the save then does: added, removed, moved dates, unchanged, and changes nobody’s completion', async () => {
    const c = await f.course('Dry Run Course')
    const [u1, u2, u3, u4] = [await f.person({ name: 'Dry One' }), await f.person({ name: 'Dry Two' }), await f.person({ name: 'Dry Three' }), await f.person({ name: 'Dry Four' })]
    const rule = AssignmentRule.parse((await post(f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'users', user_ids: [u1.id, u2.id, u3.id] } }))).body)
    await f.completeCourse(u3, c)
    const done = await f.row(rule.id, u3.id)
    expect(done).toMatchObject({ completed_on: f.today(), due_on: f.day(30) })
    const edit = f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'users', user_ids: [u2.id, u3.id, u4.id] }, due: { kind: 'relative', days: 45, from: 'assignment' } })
    const before = await stored()
    const dry = AssignmentPreview.parse((await preview({ ...edit, rule_id: rule.id })).body)
    expect(await stored()).toEqual(before)
    expect(dry).toEqual({
      total: 3,
      added: 1,
      removed: 1,
      due_changed: 1,
      unchanged: 1,
      people: [
        { user_id: u4.id, name: 'Dry Four', email: u4.email, change: 'added', current_due_on: null, new_due_on: f.day(45) },
        { user_id: u1.id, name: 'Dry One', email: u1.email, change: 'removed', current_due_on: f.day(30), new_due_on: null },
        { user_id: u2.id, name: 'Dry Two', email: u2.email, change: 'due_changed', current_due_on: f.day(30), new_due_on: f.day(45) },
      ],
    })
    const saved = AssignmentRuleSaved.parse((await put(rule.id, edit)).body)
    expect(saved.changes).toEqual({ total: 3, added: 1, removed: 1, due_changed: 1, unchanged: 1 })
    expect(saved).toMatchObject({ people: 3, audience_label: '3 users', due: { days: 45 } })
    expect(await f.row(rule.id, u1.id)).toMatchObject({ removed: true, due_on: f.day(30) })
    expect(await f.row(rule.id, u2.id)).toMatchObject({ removed: false, due_on: f.day(45) })
    expect(await f.row(rule.id, u3.id)).toEqual(done)
    expect(await f.row(rule.id, u4.id)).toMatchObject({ removed: false, due_on: f.day(45), assigned_on: f.today() })
    expect(await f.completions(rule.id, u3.id)).toEqual([{ cycle: 1, due_on: f.day(30), completed_on: f.today(), on_time: true }])
    // The same edit again changes nothing, and the dry run says so.
    expect((await preview({ ...edit, rule_id: rule.id })).body).toEqual({ total: 3, added: 0, removed: 0, due_changed: 0, unchanged: 3, people: [] })
    // Announced: the removed row as removed, the moved and added ones with their new dates.
    const changed = (await h.events('learning.assignment.changed.v1')).filter((e) => e.data.ruleId === rule.id)
    expect(changed.filter((e) => e.data.userId === u1.id).at(-1)!.data).toMatchObject({ removed: true })
    expect(changed.filter((e) => e.data.userId === u2.id).at(-1)!.data).toMatchObject({ dueOn: f.day(45), removed: false })
  })

  it('moves a completed recurring row’s next cycle, and lists up to 200 people while counting everyone', async () => {
    const c = await f.course('Recurring Dry Run')
    const members: Person[] = []
    for (let i = 0; i < 205; i++) members.push(await f.person({ group: 'Big Crew' }))
    const body = f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'group', group: 'Big Crew' }, recurrence: { kind: 'period', months: 12, window_days: 30 } })
    const rule = AssignmentRule.parse((await post(body)).body)
    expect(rule.people).toBe(205)
    // The first by name (the dry run lists in the audience's order).
    const first = members[0]!
    await f.completeCourse(first, c)
    const inAYear = computeExpiration(f.today(), 12)!
    expect(await f.row(rule.id, first.id)).toMatchObject({ completed_on: f.today(), next_due_on: inAYear, next_opens_on: addDays(inAYear, -30) })
    const edit = { ...body, recurrence: { kind: 'period', months: 24, window_days: 10 }, due: { kind: 'relative', days: 60, from: 'assignment' } }
    const dry = AssignmentPreview.parse((await preview({ ...edit, rule_id: rule.id })).body)
    expect(dry).toMatchObject({ total: 205, added: 0, removed: 0, due_changed: 205, unchanged: 0 })
    expect(dry.people).toHaveLength(200)
    const inTwoYears = computeExpiration(f.today(), 24)!
    // The completed person's change is their next due date; the others' their first.
    expect(dry.people[0]).toEqual({ user_id: first.id, name: first.name, email: first.email, change: 'due_changed', current_due_on: inAYear, new_due_on: inTwoYears })
    expect(dry.people[1]).toMatchObject({ change: 'due_changed', current_due_on: f.day(30), new_due_on: f.day(60) })
    const saved = AssignmentRuleSaved.parse((await put(rule.id, edit)).body)
    expect(saved.changes).toMatchObject({ due_changed: 205 })
    expect(await f.row(rule.id, first.id)).toMatchObject({ completed_on: f.today(), due_on: f.day(30), next_due_on: inTwoYears, next_opens_on: addDays(inTwoYears, -10) })
    expect(await f.row(rule.id, members[1]!.id)).toMatchObject({ completed_on: null, due_on: f.day(60) })
    expect(await f.completions(rule.id, first.id)).toEqual([{ cycle: 1, due_on: f.day(30), completed_on: f.today(), on_time: true }])
  }, 120_000)
})

describe('an edit racing a completion', () => {
  it('keeps a completion committed between the dry run and the save', async () => {
    const c = await f.course('Race Course One')
    const p = await f.person({ group: 'Racers One' })
    const body = f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'group', group: 'Racers One' } })
    const rule = AssignmentRule.parse((await post(body)).body)
    const edit = { ...body, due: { kind: 'relative', days: 10, from: 'assignment' } }
    expect((await preview({ ...edit, rule_id: rule.id })).body).toMatchObject({ due_changed: 1, people: [{ user_id: p.id, change: 'due_changed' }] })
    await f.completeCourse(p, c)
    const saved = AssignmentRuleSaved.parse((await put(rule.id, edit)).body)
    // The save read the row as it stood: completed, so its due date (and completion) stay.
    expect(saved.changes).toMatchObject({ due_changed: 0, unchanged: 1 })
    expect(await f.row(rule.id, p.id)).toMatchObject({ completed_on: f.today(), due_on: f.day(30) })
    expect(await f.completions(rule.id, p.id)).toHaveLength(1)
  })

  it('keeps a completion that commits while the save holds the rows: it waits, then completes the row as saved', async () => {
    const c = await f.course('Race Course Two')
    const p = await f.person({ group: 'Racers Two' })
    const body = f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'group', group: 'Racers Two' } })
    const rule = AssignmentRule.parse((await post(body)).body)
    // A transaction holding the person's row makes the save wait there, after it took the rule's and the item's locks.
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    const holder = h.orm.em.fork().transactional(async (tx) => {
      await tx.execute('select 1 from assignment_people where rule_id = ? and user_id = ? for update', [rule.id, p.id])
      await held
    })
    await new Promise((r) => setTimeout(r, 50))
    const save = put(rule.id, { ...body, due: { kind: 'relative', days: 12, from: 'assignment' } })
    await lockWaiters(1)
    // The completion now waits for the save (the item's lock), whatever it does meanwhile.
    const completion = f.completeCourse(p, c)
    await lockWaiters(2)
    release()
    await holder
    const [saved, completed] = await Promise.all([save, completion])
    expect(saved.status).toBe(200)
    expect(saved.body.changes).toMatchObject({ due_changed: 1 })
    expect(completed.course_completed).toBe(true)
    expect(await f.row(rule.id, p.id)).toMatchObject({ due_on: f.day(12), completed_on: f.today() })
    expect(await f.completions(rule.id, p.id)).toEqual([{ cycle: 1, due_on: f.day(12), completed_on: f.today(), on_time: true }])
  })

  it('keeps a completion under way when the save starts: the save waits for it and leaves the completed row alone', async () => {
    const c = await f.course('Race Course Three')
    const p = await f.person({ group: 'Racers Three' })
    const body = f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'group', group: 'Racers Three' } })
    const rule = AssignmentRule.parse((await post(body)).body)
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    const completion = h.orm.em.fork().transactional(async (tx) => {
      expect(await recordItemCompletion(tx, { userId: p.id, kind: 'course', itemId: c.id, at: h.now(), timeZone: h.ctx.timeZone })).toBe(1)
      await held
    })
    await new Promise((r) => setTimeout(r, 50))
    const save = put(rule.id, { ...body, due: { kind: 'relative', days: 12, from: 'assignment' } })
    await lockWaiters(1)
    release()
    await completion
    const saved = await save
    expect(saved.body.changes).toMatchObject({ due_changed: 0, unchanged: 1 })
    expect(await f.row(rule.id, p.id)).toMatchObject({ due_on: f.day(30), completed_on: f.today() })
    expect(await f.completions(rule.id, p.id)).toHaveLength(1)
  })
})

describe('deleting', () => {
  it('soft-deletes the rule: nobody is assigned by it any more, completions stay, and it is gone from the routes', async () => {
    const c = await f.course('Deleted Rule Course')
    const a = await f.person({ group: 'Deleters' })
    const b = await f.person({ group: 'Deleters' })
    const rule = AssignmentRule.parse((await post(f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'group', group: 'Deleters' } }))).body)
    await f.completeCourse(a, c)
    const res = await h.call('DELETE', `/admin/assignment-rules/${rule.id}`, { token: admin.token })
    expect(res).toMatchObject({ status: 200, body: { message: M.deleted, id: rule.id, item_title: 'Deleted Rule Course', audience_label: 'Group: Deleters', removed: 2 } })
    expect(await f.row(rule.id, a.id)).toMatchObject({ removed: true, completed_on: f.today() })
    expect(await f.row(rule.id, b.id)).toMatchObject({ removed: true })
    expect(await f.completions(rule.id, a.id)).toHaveLength(1)
    expect((await h.call('GET', `/admin/assignment-rules/${rule.id}`, { token: admin.token })).status).toBe(404)
    expect((await h.call('DELETE', `/admin/assignment-rules/${rule.id}`, { token: admin.token })).status).toBe(404)
    expect(((await h.call('GET', '/admin/assignment-rules', { token: admin.token })).body as { id: number }[]).map((r) => r.id)).not.toContain(rule.id)
    const mine = MyAssignments.parse((await h.call('GET', '/assignments/mine', { token: b.token })).body)
    expect(mine.assignments.map((x) => x.rule_id)).not.toContain(rule.id)
    const last = (await h.events('learning.assignment.changed.v1')).filter((e) => e.data.ruleId === rule.id && e.data.userId === b.id).at(-1)!
    expect(last.data.removed).toBe(true)
  })

  it('takes a course’s or exam’s rules along when it is deleted', async () => {
    const c = await f.course('Short-lived Course')
    const e = await f.exam(admin, 'Short-lived Exam')
    const p = await f.person({ group: 'Short-lived' })
    const body = (kind: 'course' | 'exam', id: number) => f.ruleBody({ kind, id }, { audience: { kind: 'group', group: 'Short-lived' } })
    const courseRule = AssignmentRule.parse((await post(body('course', c.id))).body)
    const examRule = AssignmentRule.parse((await post(body('exam', e.id))).body)
    expect((await h.call('DELETE', `/courses/${c.id}`, { token: admin.token })).status).toBe(200)
    expect((await h.call('DELETE', `/exams/${e.id}`, { token: admin.token })).status).toBe(200)
    for (const id of [courseRule.id, examRule.id]) {
      expect((await h.call('GET', `/admin/assignment-rules/${id}`, { token: admin.token })).status).toBe(404)
      expect(await f.row(id, p.id)).toMatchObject({ removed: true })
    }
    const last = (await h.events('learning.assignment.changed.v1')).filter((x) => x.data.ruleId === courseRule.id).at(-1)!
    expect(last.data).toMatchObject({ removed: true, itemTitle: 'Short-lived Course' })
  })
})
