import { strFromU8, unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AssignmentPreview, AssignmentReport, AssignmentRule, MyAssignments } from '@portal/contracts'
import { createHarness, type Harness } from '../harness.test-support.ts'
import { assignmentFixture } from './fixture.test-support.ts'

let h: Harness
let f: ReturnType<typeof assignmentFixture>
// PGlite starts and migrates in process: slow on a loaded machine.
beforeAll(async () => {
  h = await createHarness({ embedded: true })
  f = assignmentFixture(h)
}, 120_000)
afterAll(async () => {
  await h?.close()
})

describe('assignment rules in single-node mode', () => {
  it('run on the embedded PGlite (pool of one) as on PostgreSQL: save, dry run, completion, new user, report, export, the learner’s list', async () => {
    const admin = await f.person({ admin: true })
    const tech = await f.person({ group: 'Embedded', hireDate: '2021-01-04' })
    const c = await f.course('Embedded Course')
    const body = f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'group', group: 'Embedded' }, recurrence: { kind: 'period', months: 12, window_days: 30 } })
    const created = await h.call('POST', '/admin/assignment-rules', { token: admin.token, body })
    expect(created.status).toBe(201)
    const rule = AssignmentRule.parse(created.body)
    expect(rule.people).toBe(1)
    await f.completeCourse(tech, c)
    const later = await f.person({ group: 'Embedded' })
    const edit = { ...body, due: { kind: 'relative', days: 20, from: 'assignment' } }
    const dry = AssignmentPreview.parse((await h.call('POST', '/admin/assignment-rules/preview', { token: admin.token, body: { ...edit, rule_id: rule.id } })).body)
    expect(dry).toMatchObject({ total: 2, due_changed: 1, unchanged: 1, people: [{ user_id: later.id, new_due_on: f.day(20) }] })
    expect((await h.call('PUT', `/admin/assignment-rules/${rule.id}`, { token: admin.token, body: edit })).body).toMatchObject({ changes: { due_changed: 1, unchanged: 1 } })
    const report = AssignmentReport.parse((await h.call('GET', `/admin/assignment-rules/${rule.id}/report`, { token: admin.token })).body)
    expect(report.counts).toMatchObject({ completed_on_time: 1, open: 1 })
    const res = await h.app.request(`/admin/assignment-rules/${rule.id}/report/export`, { headers: { authorization: `Bearer ${admin.token}` } })
    expect(strFromU8(unzipSync(new Uint8Array(await res.arrayBuffer()))['xl/worksheets/sheet1.xml']!)).toContain('Completed on time')
    const mine = MyAssignments.parse((await h.call('GET', '/assignments/mine', { token: later.token })).body)
    expect(mine.assignments).toMatchObject([{ rule_id: rule.id, state: 'open', due_on: f.day(20) }])
    expect((await h.call('DELETE', `/admin/assignment-rules/${rule.id}`, { token: admin.token })).body).toMatchObject({ removed: 2 })
  })
})
