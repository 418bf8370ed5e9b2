import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
const groupRule = async (c: { id: number }, group: string, over: Record<string, unknown> = {}) =>
  rule(f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'group', group }, ...over }))

describe('identity’s user events', () => {
  it('give a new user every live rule that takes them, with their own dates and access', async () => {
    const c = await f.course('Onboarding Course')
    await f.person({ group: 'Newcomers' })
    const byGroup = await groupRule(c, 'Newcomers')
    const byHire = await groupRule(c, 'Newcomers', { due: { kind: 'relative', days: 14, from: 'hire' } })
    const byBranch = await rule(f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'org', branch: 'Tri-Cities', department: 'Testing' } }))
    const hired = f.day(-3)
    const p = await f.person({ group: 'Newcomers', branch: 'Tri-Cities', department: 'Testing', hireDate: hired })
    expect(await f.row(byGroup.id, p.id)).toMatchObject({ assigned_on: f.today(), due_on: f.day(30), removed: false })
    expect(await f.row(byHire.id, p.id)).toMatchObject({ due_on: f.day(11) })
    expect(await f.row(byBranch.id, p.id)).toMatchObject({ due_on: f.day(30) })
    const given = (await h.events('learning.course.assigned.v1')).filter((e) => e.data.courseId === c.id && e.data.userIds.includes(p.id))
    expect(given).toHaveLength(1)
    expect(await h.sql('select 1 from course_assignments where course_id = ? and user_id = ?', [c.id, p.id])).toHaveLength(1)
    // Someone the rules do not take gets nothing; an admin never.
    const outsider = await f.person({ group: 'Elsewhere', branch: 'Tri-Cities', department: 'Service' })
    const boss = await f.person({ admin: true, group: 'Newcomers', branch: 'Tri-Cities', department: 'Testing' })
    for (const r of [byGroup, byHire, byBranch]) {
      expect(await f.row(r.id, outsider.id)).toBeUndefined()
      expect(await f.row(r.id, boss.id)).toBeUndefined()
    }
  })

  it('move an outstanding first cycle when the hire date is corrected, and leave a stale or repeated event without effect', async () => {
    const c = await f.course('Hire Date Course')
    const p = await f.person({ group: 'Corrected', hireDate: f.day(-2) })
    const r = await groupRule(c, 'Corrected', { due: { kind: 'relative', days: 10, from: 'hire' } })
    expect(await f.row(r.id, p.id)).toMatchObject({ due_on: f.day(8), version: 1 })
    await f.person({ id: p.id, group: 'Corrected', hireDate: f.day(-1) })
    expect(await f.row(r.id, p.id)).toMatchObject({ due_on: f.day(9), version: 2 })
    // Older than what the projection holds: not stored, nothing judged.
    await f.person({ id: p.id, group: 'Elsewhere', hireDate: f.day(-5), at: new Date(Date.now() - 3_600_000) })
    expect(await f.row(r.id, p.id)).toMatchObject({ due_on: f.day(9), removed: false, version: 2 })
    // The same facts again: stored (newer), nothing to change.
    await f.person({ id: p.id, group: 'Corrected', hireDate: f.day(-1) })
    expect(await f.row(r.id, p.id)).toMatchObject({ version: 2 })
  })

  it('remove people the rule no longer takes unless a one-off completion is their record; a recurring rule lets them go', async () => {
    const c = await f.course('Movers Course')
    const open = await f.person({ group: 'Movers' })
    const done = await f.person({ group: 'Movers' })
    const oneOff = await groupRule(c, 'Movers')
    const recurring = await groupRule(c, 'Movers', { recurrence: { kind: 'period', months: 12, window_days: 30 } })
    await f.completeCourse(done, c)
    await f.person({ id: open.id, group: 'Stayers' })
    await f.person({ id: done.id, group: 'Stayers' })
    expect(await f.row(oneOff.id, open.id)).toMatchObject({ removed: true })
    expect(await f.row(recurring.id, open.id)).toMatchObject({ removed: true })
    expect(await f.row(oneOff.id, done.id)).toMatchObject({ removed: false, completed_on: f.today() })
    expect(await f.row(recurring.id, done.id)).toMatchObject({ removed: true, completed_on: f.today() })
    expect(await f.completions(recurring.id, done.id)).toHaveLength(1)
    const last = (await h.events('learning.assignment.changed.v1')).filter((e) => e.data.ruleId === oneOff.id && e.data.userId === open.id).at(-1)!
    expect(last.data.removed).toBe(true)

    // Back in the group: the rows come back, a kept completion still counts, an open cycle starts again from today.
    await h.sql('update assignment_people set assigned_on = assigned_on - 40, due_on = due_on - 40 where rule_id = ? and user_id = ?', [oneOff.id, open.id])
    await f.person({ id: open.id, group: 'Movers' })
    await f.person({ id: done.id, group: 'Movers' })
    expect(await f.row(oneOff.id, open.id)).toMatchObject({ removed: false, assigned_on: f.today(), due_on: f.day(30), completed_on: null })
    expect(await f.row(recurring.id, done.id)).toMatchObject({ removed: false, completed_on: f.today(), cycle: 1 })
    expect(await f.completions(recurring.id, done.id)).toHaveLength(1)
  })

  it('remove everything outstanding of a user made admin, and every row of a deleted user (completions stay)', async () => {
    const c = await f.course('Leavers Course')
    const promoted = await f.person({ group: 'Leavers' })
    const leaving = await f.person({ group: 'Leavers' })
    const r = await groupRule(c, 'Leavers')
    await f.completeCourse(leaving, c)
    await f.person({ id: promoted.id, group: 'Leavers', admin: true })
    expect(await f.row(r.id, promoted.id)).toMatchObject({ removed: true })
    await h.bus.publish({ id: crypto.randomUUID(), type: 'identity.user.deleted.v1', occurredAt: new Date().toISOString(), data: { userId: leaving.id } })
    expect(await f.row(r.id, leaving.id)).toMatchObject({ removed: true, completed_on: f.today() })
    expect(await f.completions(r.id, leaving.id)).toHaveLength(1)
    expect((await h.call('GET', `/admin/assignment-rules/${r.id}`, { token: admin.token })).body).toMatchObject({ people: 0 })
  })
})

describe('identity’s group events', () => {
  it('are kept once per group, also when announced again', async () => {
    const groupId = crypto.randomUUID()
    const event = (id: string, name: string) => ({
      id,
      type: 'identity.group.created.v1',
      occurredAt: new Date().toISOString(),
      data: { groupId, name, createdAt: new Date().toISOString() },
    })
    const first = event(crypto.randomUUID(), 'Field East')
    await h.bus.publish(first)
    await h.bus.publish(first)
    // A backfill announces it again under a new event id.
    await h.bus.publish(event(crypto.randomUUID(), 'Field East'))
    await h.bus.publish({ id: crypto.randomUUID(), type: 'identity.group.created.v1', occurredAt: new Date().toISOString(), data: { name: 'No id' } })
    expect(await h.sql('select id, name from user_groups')).toEqual([{ id: groupId, name: 'Field East' }])
  })
})
