import { strFromU8, unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ASSIGNMENT_MESSAGES as M, AssignmentReport, AssignmentRule, AuditEntriesResponse, ExemptionResult, MyAssignments } from '@portal/contracts'
import { createHarness, type Harness } from '../harness.test-support.ts'
import { assignmentFixture, type Person } from './fixture.test-support.ts'

let h: Harness
let f: ReturnType<typeof assignmentFixture>
let admin: Person
let c: { id: number; moduleId: number; title: string }
let r: AssignmentRule
/** The rule's people: Portland service (done, late), Portland testing (overdue), Seattle service (open), Seattle testing (due soon). */
let people: Record<'done' | 'late' | 'overdue' | 'open' | 'soon', Person>
beforeAll(async () => {
  h = await createHarness()
  f = assignmentFixture(h)
  admin = await f.person({ admin: true, name: 'Ada Admin' })
  c = await f.course('Fall Protection: Annual')
  people = {
    done: await f.person({ name: 'Dana Done', group: 'Reported', branch: 'Portland', department: 'Service', hireDate: f.day(-1) }),
    late: await f.person({ name: 'Lee Late', group: 'Reported', branch: 'Portland', department: 'Service', hireDate: '2020-02-01' }),
    overdue: await f.person({ name: 'Owen Overdue', group: 'Reported', branch: 'Portland', department: 'Testing', hireDate: '2020-02-01' }),
    open: await f.person({ name: 'Opal Open', group: 'Reported', branch: 'Seattle', department: 'Service', hireDate: f.day(-1) }),
    soon: await f.person({ name: 'Sol Soon', group: 'Reported', branch: 'Seattle', department: 'Testing', hireDate: f.day(-27) }),
  }
  const res = await h.call('POST', '/admin/assignment-rules', {
    token: admin.token,
    body: f.ruleBody({ kind: 'course', id: c.id }, { audience: { kind: 'group', group: 'Reported' }, due: { kind: 'relative', days: 30, from: 'hire' } }),
  })
  r = AssignmentRule.parse(res.body)
  await f.completeCourse(people.done, c)
  await f.completeCourse(people.late, c)
})
afterAll(async () => {
  await h?.close()
})

const report = async (query = '') => {
  const res = await h.call('GET', `/admin/assignment-rules/${r.id}/report${query}`, { token: admin.token })
  expect(res.status).toBe(200)
  return AssignmentReport.parse(res.body)
}
const names = (rep: AssignmentReport) => rep.rows.map((x) => x.name)

describe('GET /admin/assignment-rules/{id}/report', () => {
  it('lists who is done, open and overdue, outstanding first, with counts by state', async () => {
    const rep = await report()
    expect(rep.today).toBe(f.today())
    expect(rep.total).toBe(5)
    expect(rep.counts).toEqual({ overdue: 1, due_soon: 1, open: 1, not_due_yet: 0, completed_late: 1, completed_on_time: 1, exempt: 0 })
    expect(rep.rule).toMatchObject({ id: r.id, item_title: 'Fall Protection: Annual', people: 5 })
    expect(rep.rows.map((x) => [x.name, x.state])).toEqual([
      ['Owen Overdue', 'overdue'],
      ['Sol Soon', 'due_soon'],
      ['Opal Open', 'open'],
      ['Lee Late', 'completed_late'],
      ['Dana Done', 'completed_on_time'],
    ])
    expect(rep.rows[0]).toMatchObject({
      user_id: people.overdue.id,
      email: people.overdue.email,
      branch: 'Portland',
      department: 'Testing',
      due_on: '2020-03-02',
      days_left: expect.any(Number),
    })
    expect(rep.rows[0]!.days_left).toBeLessThan(0)
    expect(rep.rows[1]).toMatchObject({ due_on: f.day(3), days_left: 3 })
    expect(rep.rows[3]).toMatchObject({ completed_on: f.today(), due_on: '2020-03-02' })
  })

  it('filters by state, branch, department and name or e-mail, counts before the state filter, and pages', async () => {
    expect(names(await report('?state=overdue'))).toEqual(['Owen Overdue'])
    const portland = await report('?branch=Portland')
    expect(names(portland)).toEqual(['Owen Overdue', 'Lee Late', 'Dana Done'])
    expect(portland.counts).toMatchObject({ overdue: 1, completed_late: 1, completed_on_time: 1, open: 0 })
    const portlandDone = await report('?branch=Portland&state=completed_on_time')
    expect(portlandDone).toMatchObject({ total: 1, counts: { overdue: 1, completed_late: 1, completed_on_time: 1 } })
    expect(names(await report('?department=Testing'))).toEqual(['Owen Overdue', 'Sol Soon'])
    expect(names(await report('?branch=Seattle&department=Service'))).toEqual(['Opal Open'])
    expect(names(await report('?search=sol'))).toEqual(['Sol Soon'])
    expect(names(await report(`?search=${encodeURIComponent(people.late.email.slice(0, 8))}`))).toEqual(['Lee Late'])
    expect(names(await report('?search=%25'))).toEqual([])
    expect(names(await report('?state=&branch=&search='))).toHaveLength(5)
    const page = await report('?limit=2&offset=2')
    expect(page).toMatchObject({ total: 5 })
    expect(names(page)).toEqual(['Opal Open', 'Lee Late'])
    for (const [q, path] of [
      ['?state=late', 'state'],
      ['?branch=Boise', 'branch'],
      ['?limit=0', 'limit'],
      ['?limit=501', 'limit'],
      ['?offset=-1', 'offset'],
      [`?search=${'x'.repeat(201)}`, 'search'],
    ])
      expect(await h.call('GET', `/admin/assignment-rules/${r.id}/report${q}`, { token: admin.token })).toMatchObject({
        status: 400,
        body: { code: 'validation_failed', details: [{ path }] },
      })
  })

  it('exports the filtered people as an .xlsx named after the item and the day', async () => {
    const res = await h.app.request(`/admin/assignment-rules/${r.id}/report/export?branch=Portland`, { headers: { authorization: `Bearer ${admin.token}` } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    expect(res.headers.get('content-disposition')).toContain(`assignment-report-fall-protection-annual-${f.today()}.xlsx`)
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()))
    expect(strFromU8(files['xl/workbook.xml']!)).toContain('name="Assignment"')
    const sheet = strFromU8(files['xl/worksheets/sheet1.xml']!)
    const rows = [...sheet.matchAll(/<row [^>]*>(.*?)<\/row>/g)].map((m) => [...m[1]!.matchAll(/<t[^>]*>([^<]*)<\/t>|<v>([^<]*)<\/v>/g)].map((x) => x[1] ?? x[2]))
    expect(rows[0]).toEqual(['Name', 'Email', 'Branch', 'Department', 'State', 'Assigned on', 'Due on', 'Days left', 'Completed on', 'Next due on', 'Exempt reason'])
    expect(rows.slice(1).map((x) => [x[0], x[2], x[4]])).toEqual([
      ['Owen Overdue', 'Portland', 'Overdue'],
      ['Lee Late', 'Portland', 'Completed late'],
      ['Dana Done', 'Portland', 'Completed on time'],
    ])
    expect(rows[1]).toContain('2020-03-02')
    const all = await h.app.request(`/admin/assignment-rules/${r.id}/report/export?limit=1`, { headers: { authorization: `Bearer ${admin.token}` } })
    // Every page: the export ignores paging.
    expect([...strFromU8(unzipSync(new Uint8Array(await all.arrayBuffer()))['xl/worksheets/sheet1.xml']!).matchAll(/<row /g)]).toHaveLength(6)
    expect((await h.app.request(`/admin/assignment-rules/999999/report/export`, { headers: { authorization: `Bearer ${admin.token}` } })).status).toBe(404)
  })
})

describe('exemptions', () => {
  it('mark one person exempt with a reason and lift it, each in the audit trail; refused for someone the rule does not assign', async () => {
    const who = people.open
    const res = await h.call('POST', `/admin/assignment-rules/${r.id}/exemptions`, { token: admin.token, body: { user_id: who.id, reason: '  On medical leave until March  ' } })
    expect(res.status).toBe(200)
    const exempted = ExemptionResult.parse(res.body)
    expect(exempted).toMatchObject({
      message: M.exempted,
      item_title: 'Fall Protection: Annual',
      assignment: { user_id: who.id, state: 'exempt', exempt_reason: 'On medical leave until March' },
    })
    expect(await f.row(r.id, who.id)).toMatchObject({ exempt_reason: 'On medical leave until March' })
    expect((await report()).counts).toMatchObject({ exempt: 1, open: 0 })
    const mine = MyAssignments.parse((await h.call('GET', '/assignments/mine', { token: who.token })).body)
    expect(mine.assignments.find((a) => a.rule_id === r.id)).toMatchObject({ state: 'exempt', exempt_reason: 'On medical leave until March' })
    expect((await h.events('learning.assignment.changed.v1')).filter((e) => e.data.ruleId === r.id && e.data.userId === who.id).at(-1)!.data).toMatchObject({
      exempt: true,
      exemptReason: 'On medical leave until March',
    })

    const lifted = await h.call('DELETE', `/admin/assignment-rules/${r.id}/exemptions/${who.id}`, { token: admin.token })
    expect(ExemptionResult.parse(lifted.body)).toMatchObject({ message: M.exemptionLifted, assignment: { state: 'open', exempt_reason: null } })

    const trail = AuditEntriesResponse.parse((await h.call('GET', '/admin/audit/learning?action=assignment.', { token: admin.token })).body)
    expect(trail.slice(0, 2).map((e) => [e.action, e.target, e.actor_name, e.details])).toEqual([
      ['assignment.exemption_lifted', `${who.name}: Fall Protection: Annual`, 'Ada Admin', { user_id: who.id }],
      ['assignment.exempted', `${who.name}: Fall Protection: Annual`, 'Ada Admin', { user_id: who.id, reason: 'On medical leave until March' }],
    ])

    // Bad input and people the rule does not assign: refused, nothing recorded.
    const before = (await h.sql('select count(*)::int as n from audit_log'))[0]!.n
    const outsider = await f.person({ group: 'Not Reported' })
    for (const [body, status, expected] of [
      [{ user_id: who.id }, 400, { message: M.reasonRequired, details: [{ path: 'reason' }] }],
      [{ user_id: who.id, reason: '   ' }, 400, { message: M.reasonRequired }],
      [{ user_id: who.id, reason: 'x'.repeat(501) }, 400, { message: M.reasonTooLong }],
      [{ user_id: 'nobody', reason: 'x' }, 400, { details: [{ path: 'user_id' }] }],
      [{ user_id: outsider.id, reason: 'x' }, 404, { message: M.notAssigned, code: 'not_assigned' }],
      [{ user_id: crypto.randomUUID(), reason: 'x' }, 404, { code: 'not_assigned' }],
    ] as const)
      expect(await h.call('POST', `/admin/assignment-rules/${r.id}/exemptions`, { token: admin.token, body })).toMatchObject({ status, body: expected })
    expect(await h.call('DELETE', `/admin/assignment-rules/${r.id}/exemptions/${outsider.id}`, { token: admin.token })).toMatchObject({ status: 404 })
    expect(await h.call('DELETE', `/admin/assignment-rules/${r.id}/exemptions/not-a-uuid`, { token: admin.token })).toMatchObject({ status: 400 })
    expect(await h.call('POST', `/admin/assignment-rules/999999/exemptions`, { token: admin.token, body: { user_id: who.id, reason: 'x' } })).toMatchObject({
      status: 404,
      body: { message: M.ruleNotFound },
    })
    expect((await h.sql('select count(*)::int as n from audit_log'))[0]!.n).toBe(before)
  })

  it('records creating, editing and deleting a rule in the audit trail, named by its item and audience, with what the save changed', async () => {
    const other = await f.course('Audited Course')
    const created = await h.call('POST', '/admin/assignment-rules', {
      token: admin.token,
      body: f.ruleBody({ kind: 'course', id: other.id }, { audience: { kind: 'group', group: 'Reported' } }),
    })
    const id = created.body.id as number
    await h.call('PUT', `/admin/assignment-rules/${id}`, {
      token: admin.token,
      body: f.ruleBody({ kind: 'course', id: other.id }, { audience: { kind: 'org', branch: 'Seattle', department: null } }),
    })
    // A refused edit leaves no trace.
    expect((await h.call('PUT', `/admin/assignment-rules/${id}`, { token: admin.token, body: f.ruleBody({ kind: 'course', id: c.id }) })).status).toBe(400)
    await h.call('DELETE', `/admin/assignment-rules/${id}`, { token: admin.token })
    const trail = AuditEntriesResponse.parse((await h.call('GET', '/admin/audit/learning?action=assignment_rule', { token: admin.token })).body)
    const mine = trail.filter((e) => e.target.startsWith('Audited Course'))
    expect(mine.map((e) => [e.action, e.target])).toEqual([
      ['assignment_rule.deleted', 'Audited Course (Branch: Seattle)'],
      ['assignment_rule.updated', 'Audited Course (Branch: Seattle)'],
      ['assignment_rule.created', 'Audited Course (Group: Reported)'],
    ])
    expect(mine[2]!.details).toMatchObject({ item_kind: 'course', item_id: other.id, audience: { kind: 'group', group: 'Reported' }, changes: { added: 5 } })
    expect(mine[1]!.details).toMatchObject({ changes: { added: 0, removed: 3, unchanged: 2 } })
    expect(mine[0]!.details).toEqual({ removed: 2 })
  })
})
