import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TeamMemberDetail, TeamResponse, type EventData } from '@portal/contracts'
import { createHarness, type Harness, type TestUser } from '../harness.test-support.ts'

/**
 * Issue 24 on certs' side: the projection of learning's assignments, the team dashboard's Overdue
 * figures, filter, sort and export, and the member page's assignments, within a manager's scope.
 */
let h: Harness
let admin: TestUser
let manager: TestUser
/** Portland Service: two overdue (one a recurring rule's next cycle), and one of every other state. */
let pam: TestUser
/** Seattle: one overdue (outside the manager's scope). */
let sam: TestUser
/** Portland: one assignment, removed by learning. */
let pia: TestUser
const DAY = 86_400_000

type Facts = EventData<'learning.assignment.changed.v1'>
/** Publishes learning's event for one person and rule, as its trigger does (the event's id fresh unless given). */
const announce = async (user: TestUser, ruleId: number, over: Partial<Facts> = {}, id: string = crypto.randomUUID()) => {
  const data: Facts = {
    ruleId,
    userId: user.id,
    itemKind: 'course',
    itemId: ruleId * 10,
    itemTitle: `Course ${ruleId}`,
    assignedOn: h.daysFromToday(-60),
    dueOn: h.daysFromToday(30),
    opensOn: null,
    completedOn: null,
    nextDueOn: null,
    nextOpensOn: null,
    exempt: false,
    exemptReason: null,
    dueSoonDays: 7,
    recurring: false,
    removed: false,
    version: 1,
    at: new Date().toISOString(),
    ...over,
  }
  await h.bus.publish({ id, type: 'learning.assignment.changed.v1', occurredAt: new Date().toISOString(), data })
  return id
}

beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true, branch: null, department: null })
  manager = await h.user({ name: 'Pat Manager', manager: { branches: ['Portland'], departments: [] }, branch: 'Anchorage' })
  pam = await h.user({ name: 'Due Pam', branch: 'Portland', department: 'Service', employeeId: 'P-1' })
  sam = await h.user({ name: 'Due Sam', branch: 'Seattle', department: 'Service' })
  pia = await h.user({ name: 'Due Pia', branch: 'Portland', department: 'Testing' })
  await announce(pam, 1, { dueOn: h.daysFromToday(-3), itemTitle: 'Ladder Basics' })
  await announce(pam, 2, { dueOn: h.daysFromToday(2), itemKind: 'exam', itemTitle: 'Arc Flash Quiz' })
  await announce(pam, 3, { dueOn: h.daysFromToday(-10), completedOn: h.daysFromToday(-5), itemTitle: 'Late Course' })
  // Recurring: completed on time a year ago, its next cycle opened 35 days ago and was due 5 days ago.
  await announce(pam, 4, {
    dueOn: h.daysFromToday(-400),
    completedOn: h.daysFromToday(-410),
    nextDueOn: h.daysFromToday(-5),
    nextOpensOn: h.daysFromToday(-35),
    recurring: true,
    itemTitle: 'Annual Refresher',
  })
  await announce(pam, 5, { dueOn: h.daysFromToday(-20), exempt: true, exemptReason: 'Certified elsewhere', itemTitle: 'Exempted Course' })
  await announce(pam, 6, { dueOn: h.daysFromToday(40), opensOn: h.daysFromToday(10), itemTitle: 'Later Course' })
  await announce(pam, 7, { dueOn: h.daysFromToday(30), itemTitle: 'Open Course' })
  await announce(sam, 1, { dueOn: h.daysFromToday(-1), itemTitle: 'Ladder Basics' })
  await announce(pia, 8, { dueOn: h.daysFromToday(-30), removed: true, itemTitle: 'Removed Course' })
})
afterAll(async () => {
  await h?.close()
})

const team = async (caller: TestUser, query: string) => {
  const res = await h.call('GET', `/manager/team?search=Due&${query}`, { token: caller.token })
  expect(res.status).toBe(200)
  return TeamResponse.parse(res.body)
}
const overdueOf = (t: { teamMembers: { name: string; overdue_assignments: number }[] }) => t.teamMembers.map((m) => [m.name, m.overdue_assignments])

const workbook = async (path: string, caller: TestUser) => {
  const res = await h.download(path, caller.token)
  expect(res.status).toBe(200)
  const wb = new ExcelJS.Workbook()
  await wb.xlsx.load(res.bytes as unknown as ArrayBuffer)
  const values = (name: string) => {
    const rows: unknown[][] = []
    wb.getWorksheet(name)!.eachRow((row) => void rows.push((row.values as unknown[]).slice(1)))
    return rows
  }
  return { wb, values }
}

describe('the projection of learning’s assignments', () => {
  it('keeps the highest version of a person’s assignment whatever order the events come in, and handles a redelivery once', async () => {
    const user = await h.user({ name: 'Version Vic', branch: 'Portland' })
    await announce(user, 50, { version: 2, dueOn: h.daysFromToday(20) })
    // An older event arriving late changes nothing.
    await announce(user, 50, { version: 1, dueOn: h.daysFromToday(-20) })
    const row = async () =>
      (await h.sql("select version, to_char(due_on, 'YYYY-MM-DD') as due_on, removed from member_assignments where user_id = ? and rule_id = 50", [user.id]))[0]
    expect(await row()).toEqual({ version: 2, due_on: h.daysFromToday(20), removed: false })
    const id = await announce(user, 50, { version: 3, dueOn: h.daysFromToday(25) })
    expect(await row()).toMatchObject({ version: 3, due_on: h.daysFromToday(25) })
    // The same event again (a redelivery) is recorded once in the inbox and changes nothing.
    await h.sql('update member_assignments set due_on = ?::date where user_id = ? and rule_id = 50', [h.daysFromToday(1), user.id])
    await announce(user, 50, { version: 4, dueOn: h.daysFromToday(99) }, id)
    expect(await row()).toMatchObject({ version: 3, due_on: h.daysFromToday(1) })
    expect(await h.sql("select count(*)::int as n from inbox where consumer = 'certs-assignments' and event_id = ?", [id])).toEqual([{ n: 1 }])
    // Removed: kept as a tombstone (a late older event cannot bring it back), shown nowhere.
    await announce(user, 50, { version: 5, removed: true })
    await announce(user, 50, { version: 4, dueOn: h.daysFromToday(-9) })
    expect(await row()).toMatchObject({ version: 5, removed: true })
    const detail = TeamMemberDetail.parse((await h.call('GET', `/manager/team/${user.id}`, { token: admin.token })).body)
    expect(detail.assignments).toEqual([])
  })

  it('drops a deleted user’s assignments with them', async () => {
    const user = await h.user({ name: 'Gone Gil', branch: 'Portland' })
    await announce(user, 51, { dueOn: h.daysFromToday(-2) })
    expect(await h.sql('select rule_id from member_assignments where user_id = ?', [user.id])).toHaveLength(1)
    await h.bus.publish({ id: crypto.randomUUID(), type: 'identity.user.deleted.v1', occurredAt: new Date().toISOString(), data: { userId: user.id } })
    expect(await h.sql('select rule_id from member_assignments where user_id = ?', [user.id])).toEqual([])
  })
})

describe('the team dashboard’s Overdue figures', () => {
  it('counts each member’s overdue assignments (a recurring rule’s overdue next cycle included; exempt, completed, not due yet and removed ones not) and sums them in the summary', async () => {
    const t = await team(admin, '')
    expect(overdueOf(t)).toEqual([
      ['Due Pam', 2],
      ['Due Pia', 0],
      ['Due Sam', 1],
    ])
    expect(t.summary).toMatchObject({ total_team: 3, overdue_members: 2, overdue_assignments: 3 })
    // The summary follows the filters as its other figures do.
    expect((await team(admin, 'branch=Seattle')).summary).toMatchObject({ total_team: 1, overdue_members: 1, overdue_assignments: 1 })
    expect((await team(admin, 'department=Testing')).summary).toMatchObject({ total_team: 1, overdue_members: 0, overdue_assignments: 0 })
  })

  it('filters to members with an overdue assignment (overdue=true), sorts by the count, and refuses another value with 400 naming overdue', async () => {
    const only = await team(admin, 'overdue=true')
    expect(overdueOf(only)).toEqual([
      ['Due Pam', 2],
      ['Due Sam', 1],
    ])
    expect(only.summary).toMatchObject({ total_team: 2, overdue_members: 2, overdue_assignments: 3 })
    expect(only.total).toBe(2)
    expect((await team(admin, 'overdue=false')).total).toBe(3)
    expect((await team(admin, 'overdue=')).total).toBe(3)
    expect(overdueOf(await team(admin, 'sort=overdue&order=desc')).map(([name]) => name)).toEqual(['Due Pam', 'Due Sam', 'Due Pia'])
    expect(overdueOf(await team(admin, 'sort=overdue&order=asc')).map(([name]) => name)).toEqual(['Due Pia', 'Due Sam', 'Due Pam'])
    const bad = await h.call('GET', '/manager/team?overdue=yes', { token: admin.token })
    expect(bad).toMatchObject({ status: 400, body: { code: 'validation_failed', message: 'overdue must be true or false' } })
    expect(bad.body.details).toEqual([expect.objectContaining({ path: 'overdue' })])
  })

  it('shows a manager the figures of their scope only: another branch’s member and their overdue assignments are not counted', async () => {
    const t = await team(manager, '')
    expect(overdueOf(t)).toEqual([
      ['Due Pam', 2],
      ['Due Pia', 0],
    ])
    expect(t.summary).toMatchObject({ total_team: 2, overdue_members: 1, overdue_assignments: 2 })
    expect(overdueOf(await team(manager, 'overdue=true'))).toEqual([['Due Pam', 2]])
    // Another branch's member's assignments: 403, as the rest of their page.
    expect(await h.call('GET', `/manager/team/${sam.id}`, { token: manager.token })).toMatchObject({ status: 403 })
    expect((await h.download(`/manager/team/${sam.id}/report`, manager.token)).status).toBe(403)
  })

  it('counts on the company’s today: an assignment due in 2 days is overdue 3 days later', async () => {
    h.advance(3 * DAY)
    try {
      expect(overdueOf(await team(admin, 'overdue=true'))).toEqual([
        ['Due Pam', 3],
        ['Due Sam', 1],
      ])
    } finally {
      h.advance(-3 * DAY)
    }
    expect(overdueOf(await team(admin, 'overdue=true'))[0]).toEqual(['Due Pam', 2])
  })
})

describe('the kept overdue figures', () => {
  it('keep the first overdue day of each row exactly where the state rule says overdue begins, over every day around its dates', async () => {
    const edge = await h.user({ name: 'Edge Ed', branch: 'Anchorage' })
    // Awkward facts too: a cycle opening after its due date, a next cycle opening after its due date, completed without a next cycle.
    await announce(edge, 60, { dueOn: h.daysFromToday(-5), opensOn: h.daysFromToday(3) })
    await announce(edge, 61, { dueOn: h.daysFromToday(-40), completedOn: h.daysFromToday(-41), nextDueOn: h.daysFromToday(2), nextOpensOn: h.daysFromToday(9), recurring: true })
    await announce(edge, 62, { dueOn: h.daysFromToday(-40), completedOn: h.daysFromToday(-30) })
    await announce(edge, 63, { dueOn: h.daysFromToday(4), dueSoonDays: 0 })
    const mismatches = await h.sql(
      `select a.user_id, a.rule_id, d::date as day from member_assignments a cross join generate_series(current_date - 450, current_date + 60, interval '1 day') d
        where coalesce(a.overdue_from <= d::date, false)
          <> (assignment_state(a.due_on, a.opens_on, a.completed_on, a.next_due_on, a.next_opens_on, a.exempt, a.due_soon_days, d::date) = 'overdue' and not a.removed)`,
    )
    expect(mismatches).toEqual([])
  })

  it('agree with the consistency check, which recomputes them with the contracts’ rule, and a kept count that is off is found', async () => {
    const check = async () => (await h.call('GET', '/admin/certifications/consistency', { token: admin.token })).body
    expect(await check()).toMatchObject({ consistent: true, difference_count: 0 })
    await h.sql('update team_member_figures set overdue_assignments = 7 where user_id = ?', [pam.id])
    const report = await check()
    expect(report.consistent).toBe(false)
    expect(report.differences).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ surface: 'Team member figures', field: 'overdue_assignments', shown: 7, expected: 2 }),
        expect.objectContaining({ surface: 'Team dashboard (admin)', field: 'overdue_assignments' }),
      ]),
    )
    await h.sql('select certs_refresh_member_figures(array[?]::uuid[], certs_today())', [pam.id])
    expect(await check()).toMatchObject({ consistent: true })
  })
})

describe('the team export', () => {
  it('carries an Overdue Assignments column and an Assignments sheet of the listed members only (a manager’s scope)', async () => {
    const { wb, values } = await workbook('/reports/certifications/export?format=excel&search=Due', manager)
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Team', 'Certifications', 'Assignments'])
    const teamRows = values('Team')
    expect(teamRows[0]!.at(-1)).toBe('Overdue Assignments')
    expect(teamRows.slice(1).map((r) => [r[0], r.at(-1)])).toEqual([
      ['Due Pam', 2],
      ['Due Pia', 0],
    ])
    const rows = values('Assignments')
    // (A row read back ends at its last filled cell: no completion date, no cell.)
    expect(rows[0]).toEqual(['Technician', 'Employee ID', 'Assignment', 'Type', 'State', 'Due Date', 'Completed'])
    expect(rows.slice(1)).toEqual([
      ['Due Pam', 'P-1', 'Annual Refresher', 'Course', 'Overdue', h.daysFromToday(-5)],
      ['Due Pam', 'P-1', 'Ladder Basics', 'Course', 'Overdue', h.daysFromToday(-3)],
      ['Due Pam', 'P-1', 'Arc Flash Quiz', 'Exam', 'Due soon', h.daysFromToday(2)],
      ['Due Pam', 'P-1', 'Open Course', 'Course', 'Open', h.daysFromToday(30)],
      ['Due Pam', 'P-1', 'Later Course', 'Course', 'Not due yet', h.daysFromToday(40)],
      ['Due Pam', 'P-1', 'Late Course', 'Course', 'Completed late', h.daysFromToday(-10), h.daysFromToday(-5)],
      ['Due Pam', 'P-1', 'Exempted Course', 'Course', 'Exempt', h.daysFromToday(-20)],
    ])
  })

  it('takes the Overdue filter: an admin’s export of overdue=true lists the two members with overdue assignments', async () => {
    const { values } = await workbook('/reports/certifications/export?format=excel&search=Due&overdue=true&sort=overdue&order=desc', admin)
    expect(
      values('Team')
        .slice(1)
        .map((r) => [r[0], r.at(-1)]),
    ).toEqual([
      ['Due Pam', 2],
      ['Due Sam', 1],
    ])
    expect(
      new Set(
        values('Assignments')
          .slice(1)
          .map((r) => r[0]),
      ),
    ).toEqual(new Set(['Due Pam', 'Due Sam']))
  })
})

describe('the member page and report', () => {
  it('lists the member’s assignments on the company’s today, overdue first, then due soon, open, not due yet, completed, exempt', async () => {
    const res = await h.call('GET', `/manager/team/${pam.id}`, { token: manager.token })
    expect(res.status).toBe(200)
    const { assignments } = TeamMemberDetail.parse(res.body)
    expect(assignments.map((a) => [a.item_title, a.state, a.due_on, a.days_left])).toEqual([
      ['Annual Refresher', 'overdue', h.daysFromToday(-5), -5],
      ['Ladder Basics', 'overdue', h.daysFromToday(-3), -3],
      ['Arc Flash Quiz', 'due_soon', h.daysFromToday(2), 2],
      ['Open Course', 'open', h.daysFromToday(30), 30],
      ['Later Course', 'not_due_yet', h.daysFromToday(40), 40],
      ['Late Course', 'completed_late', h.daysFromToday(-10), -10],
      ['Exempted Course', 'exempt', h.daysFromToday(-20), -20],
    ])
    // The recurring rule works towards its next cycle: nothing of it completed yet.
    expect(assignments[0]).toMatchObject({
      rule_id: 4,
      item_kind: 'course',
      item_id: 40,
      recurring: true,
      completed_on: null,
      opens_on: h.daysFromToday(-35),
      next_due_on: null,
      assigned_on: h.daysFromToday(-60),
    })
    expect(assignments.find((a) => a.rule_id === 3)).toMatchObject({ completed_on: h.daysFromToday(-5), next_due_on: null })
    expect(assignments.find((a) => a.rule_id === 5)).toMatchObject({ exempt_reason: 'Certified elsewhere' })
    expect(assignments.find((a) => a.rule_id === 2)).toMatchObject({ item_kind: 'exam', item_id: 20 })
    // Nothing assigned: an empty list.
    expect(TeamMemberDetail.parse((await h.call('GET', `/manager/team/${pia.id}`, { token: manager.token })).body).assignments).toEqual([])
  })

  it('adds an Assignments sheet to the member’s report', async () => {
    const { values } = await workbook(`/manager/team/${pam.id}/report`, manager)
    const rows = values('Assignments')
    expect(rows[0]).toEqual(['Assignment', 'Type', 'State', 'Due Date', 'Completed'])
    expect(rows.slice(1).map((r) => [r[0], r[2]])).toEqual([
      ['Annual Refresher', 'Overdue'],
      ['Ladder Basics', 'Overdue'],
      ['Arc Flash Quiz', 'Due soon'],
      ['Open Course', 'Open'],
      ['Later Course', 'Not due yet'],
      ['Late Course', 'Completed late'],
      ['Exempted Course', 'Exempt'],
    ])
  })
})
