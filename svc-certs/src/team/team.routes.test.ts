import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PromotionRequestResponse, PromotionRequestsResponse, TeamMemberDetail, TeamResponse, TechnicianProfile, todayIso } from '@portal/contracts'
import { FILES, createHarness, type Harness, type TestUser } from '../harness.test-support.ts'

let h: Harness
let admin: TestUser
let manager: TestUser
const DAY = 86_400_000
const daysFromToday = (days: number) => new Date(Date.parse(`${todayIso(h.now())}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10)
const withProof = (user: TestUser, fields: Record<string, string>) => h.upload('/technician/certifications/upload', user.token, fields, [['file', 'p.pdf', FILES.pdf]])
const add = (user: TestUser, body: Record<string, unknown>) => h.call('POST', '/technician/certifications/add', { token: user.token, body })
const setTier = (user: TestUser, tier: number) =>
  h.sql('insert into technicians (user_id, current_tier, updated_at) values (?, ?, now()) on conflict (user_id) do update set current_tier = excluded.current_tier', [
    user.id,
    tier,
  ])

/** Three members named `${tag} ...`: Portland Service (tier 1, 66%), Seattle Testing (50%), Portland Testing (100%). */
let ada: TestUser
let bob: TestUser
let cy: TestUser
beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true, branch: null, department: null })
  manager = await h.user({ name: 'Pat Manager', manager: { branches: ['Portland'], departments: [] } })
  const a = await h.type(admin, { name: 'Alpha Safety', tier_level: 0 })
  const b = await h.type(admin, { name: 'Bravo Orientation', tier_level: 0, upload_required: false })
  const c = await h.type(admin, { name: 'Charlie Service', tier_level: 1, department: 'Service' })
  for (const id of [a.id, b.id])
    await h.call('PUT', '/admin/certifications/tier-requirements', { token: admin.token, body: { tier_level: 0, certification_id: id, is_required: true } })
  await h.call('PUT', '/admin/certifications/tier-requirements', { token: admin.token, body: { tier_level: 1, certification_id: c.id, is_required: true } })
  ada = await h.user({ name: 'Team Ada', branch: 'Portland', department: 'Service', employeeId: 'E-1' })
  bob = await h.user({ name: 'Team Bob', branch: 'Seattle', department: 'Testing' })
  cy = await h.user({ name: 'Team Cy', branch: 'Portland', department: 'Testing' })
  await setTier(ada, 1)
  await withProof(ada, { certification_id: String(a.id), obtained_date: daysFromToday(-100) })
  await add(ada, { certification_id: b.id, certification_number: 'B-1' })
  await withProof(ada, { certification_id: String(c.id), obtained_date: daysFromToday(-900), expiration_date: daysFromToday(-1) })
  // Held but not uploaded: not met in the manager view.
  await add(bob, { certification_id: a.id, certification_number: 'A-2', obtained_date: daysFromToday(-10) })
  await add(bob, { certification_id: b.id, certification_number: 'B-2', obtained_date: daysFromToday(-700), expiration_date: daysFromToday(10) })
  await withProof(cy, { certification_id: String(a.id), obtained_date: daysFromToday(-5) })
  await add(cy, { certification_id: b.id, certification_number: 'B-3' })
})
afterAll(async () => {
  await h?.close()
})

const team = async (caller: TestUser, query = 'search=Team') => {
  const res = await h.call('GET', `/manager/team?${query}`, { token: caller.token })
  expect(res.status).toBe(200)
  return TeamResponse.parse(res.body)
}

describe('GET /manager/team', () => {
  it('shows an admin every member with completion, issues and tier, and the summary of the same rows', async () => {
    const t = await team(admin)
    expect(t.teamMembers.map((m) => [m.name, m.branch, m.tier.current_tier, m.completion_percentage, m.expired_certifications, m.expiring_soon])).toEqual([
      ['Team Ada', 'Portland', 1, 66, 1, 0],
      ['Team Bob', 'Seattle', 0, 50, 0, 1],
      ['Team Cy', 'Portland', 0, 100, 0, 0],
    ])
    expect(t.teamMembers[0]).toMatchObject({ id: ada.id, email: ada.actor.email, employee_id: 'E-1', department: 'Service' })
    expect(t.summary).toEqual({ total_team: 3, compliant: 1, avg_progress: 72, expired: 1, expiring_soon: 1, overdue_members: 0, overdue_assignments: 0 })
    expect(t.total).toBe(3)
  })

  it('shows a manager the members of their scope only; filters, sorts and pages', async () => {
    const t = await team(manager)
    expect(t.teamMembers.map((m) => m.name)).toEqual(['Team Ada', 'Team Cy'])
    expect(t.summary).toMatchObject({ total_team: 2, compliant: 1, avg_progress: 83 })
    expect((await team(admin, 'search=Team&department=Testing')).teamMembers.map((m) => m.name)).toEqual(['Team Bob', 'Team Cy'])
    expect((await team(admin, 'search=Team&branch=Seattle')).teamMembers.map((m) => m.name)).toEqual(['Team Bob'])
    expect((await team(admin, 'search=Team&branch=&department=')).total).toBe(3)
    expect((await team(admin, 'search=team%20cy')).teamMembers.map((m) => m.name)).toEqual(['Team Cy'])
    expect((await team(admin, 'search=%25')).total).toBe(0)
    expect((await team(admin, 'search=Team&sort=progress&order=desc')).teamMembers.map((m) => m.name)).toEqual(['Team Cy', 'Team Ada', 'Team Bob'])
    expect((await team(admin, 'search=Team&sort=tier&order=desc')).teamMembers[0]!.name).toBe('Team Ada')
    const page = await team(admin, 'search=Team&limit=1&offset=1')
    expect(page.teamMembers.map((m) => m.name)).toEqual(['Team Bob'])
    expect(page.summary.total_team).toBe(3)
    expect(await h.call('GET', '/manager/team?branch=Mars', { token: admin.token })).toMatchObject({ status: 400, body: { code: 'validation_failed' } })
  })

  it('refuses technicians (403) and strangers (401)', async () => {
    expect(await h.call('GET', '/manager/team', { token: ada.token })).toMatchObject({
      status: 403,
      body: { code: 'manager_required', message: 'Only managers and admins can see team data' },
    })
    expect((await h.call('GET', '/manager/team')).status).toBe(401)
  })
})

describe('GET /reports/certifications/export', () => {
  it('streams an .xlsx of the filtered team and each member’s certifications, which reads back', async () => {
    const res = await h.download('/reports/certifications/export?format=excel&search=Team&branch=Portland', manager.token)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    expect(res.headers.get('content-disposition')).toContain(`filename="team-certifications-${todayIso(h.now())}.xlsx"`)
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(res.bytes as unknown as ArrayBuffer)
    const values = (name: string) => {
      const rows: unknown[][] = []
      wb.getWorksheet(name)!.eachRow((row) => void rows.push((row.values as unknown[]).slice(1)))
      return rows
    }
    expect(values('Team')).toEqual([
      ['Technician', 'Email', 'Employee ID', 'Branch', 'Department', 'Tier', 'Progress (%)', 'Expired', 'Expiring Soon', 'Compliant', 'Overdue Assignments'],
      ['Team Ada', ada.actor.email, 'E-1', 'Portland', 'Service', 'Tier 1', 66, 1, 0, 'No', 0],
      ['Team Cy', cy.actor.email, undefined, 'Portland', 'Testing', 'New Hire', 100, 0, 0, 'Yes', 0],
    ])
    const certs = values('Certifications')
    expect(certs[0]).toEqual(['Technician', 'Employee ID', 'Certification', 'Code', 'Tier', 'Status', 'Obtained', 'Expiration', 'Days Until Expiry'])
    expect(certs.slice(1).map((r) => [r[0], r[2], r[5], r[7]])).toEqual([
      ['Team Ada', 'Alpha Safety', 'Uploaded', expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/)],
      ['Team Ada', 'Bravo Orientation', 'Completed', 'Never'],
      ['Team Ada', 'Charlie Service', 'Expired', daysFromToday(-1)],
      ['Team Cy', 'Alpha Safety', 'Uploaded', expect.any(String)],
      ['Team Cy', 'Bravo Orientation', 'Completed', 'Never'],
    ])
  })

  it('refuses technicians and other formats', async () => {
    expect((await h.download('/reports/certifications/export?format=excel', ada.token)).status).toBe(403)
    expect((await h.download('/reports/certifications/export?format=pdf', admin.token)).status).toBe(400)
  })
})

describe('member detail, rev/pay and Quick Actions', () => {
  it('shows the profile, revenue overview, leaderboard place and promotion requests', async () => {
    const month = todayIso(h.now()).slice(0, 7)
    await h.call('POST', '/revenue/manual-entry', { token: admin.token, body: { user_id: ada.id, month, gross_revenue: 9000, pay_amount: 300 } })
    await h.call('POST', '/revenue/manual-entry', { token: admin.token, body: { user_id: cy.id, month, gross_revenue: 12000, pay_amount: 400 } })
    const res = await h.call('GET', `/manager/team/${ada.id}`, { token: manager.token })
    expect(res.status).toBe(200)
    const d = TeamMemberDetail.parse(res.body)
    expect(d.profile.user.name).toBe('Team Ada')
    expect(d.profile.revenue_data).toMatchObject({ month, monthly_revenue: 9000, monthly_pay: 300, rev_pay_ratio: 30, yearly_revenue_ytd: expect.any(Number), tier_pay_rate: 25 })
    expect(d.revenue_trend.map((r) => [r.month, r.gross_revenue, r.rev_pay_ratio])).toEqual([[month, 9000, 30]])
    expect(d.leaderboard.rows.map((r) => [r.rank, r.name])).toEqual([
      [1, 'Team Cy'],
      [2, 'Team Ada'],
    ])
    expect(d.leaderboard_place).toBe(2)
    expect(await h.call('GET', `/manager/team/${bob.id}`, { token: manager.token })).toMatchObject({ status: 403 })
    expect(await h.call('GET', `/manager/team/${crypto.randomUUID()}`, { token: admin.token })).toMatchObject({ status: 404, body: { message: 'Team member not found' } })
    expect(await h.call('GET', `/manager/team/${admin.id}`, { token: admin.token })).toMatchObject({ status: 404 })
  })

  it('counts a required upload-required type held without a file met for the technician, not in the member detail or report (learner §4)', async () => {
    // Bob holds Alpha Safety (upload required) without a file and Bravo Orientation (no upload), both valid.
    const met = (p: { tier_requirements: { certification: { name: string }; met: boolean }[] }) =>
      p.tier_requirements.filter((r) => r.certification.name.startsWith('Alpha') || r.certification.name.startsWith('Bravo')).map((r) => [r.certification.name, r.met])
    const own = TechnicianProfile.parse((await h.call('GET', `/technician/profile/${bob.id}`, { token: bob.token })).body)
    expect(met(own)).toEqual([
      ['Alpha Safety', true],
      ['Bravo Orientation', true],
    ])
    expect(own.current_tier_progress).toMatchObject({ tier_level: 0, required_total: 2, required_met: 2, percent: 100 })
    // The admin's /technician/profile keeps the learner rule too.
    const admins = TechnicianProfile.parse((await h.call('GET', `/technician/profile/${bob.id}`, { token: admin.token })).body)
    expect(admins.current_tier_progress).toEqual(own.current_tier_progress)
    // The member detail is the manager view, as the team table (50%).
    const detail = TeamMemberDetail.parse((await h.call('GET', `/manager/team/${bob.id}`, { token: admin.token })).body)
    expect(met(detail.profile)).toEqual([
      ['Alpha Safety', false],
      ['Bravo Orientation', true],
    ])
    expect(detail.profile.current_tier_progress).toMatchObject({ tier_level: 0, required_total: 2, required_met: 1, percent: 50 })
    expect((await team(admin, 'search=Team Bob')).teamMembers.map((m) => m.completion_percentage)).toEqual([50])
    // The member report is the manager's too.
    const report = await h.download(`/manager/team/${bob.id}/report`, admin.token)
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(report.bytes as unknown as ArrayBuffer)
    const facts = new Map<unknown, unknown>()
    wb.getWorksheet('Technician')!.eachRow((row) => facts.set(row.getCell(1).value, row.getCell(2).value))
    expect(facts.get('Required Certifications Met')).toMatch(/^1 of \d+ \(\d+%\)$/)
  })

  it('sets the rev/pay ratio for a member in scope; a blank one is refused', async () => {
    expect(await h.call('PUT', `/manager/rev-pay/${ada.id}`, { token: manager.token, body: { revPayRatio: 32.5 } })).toMatchObject({
      status: 200,
      body: { rev_pay_ratio: 32.5 },
    })
    expect((await h.call('GET', `/technician/profile/${ada.id}`, { token: ada.token })).body.tier.rev_pay_ratio).toBe(32.5)
    expect(await h.call('PUT', `/manager/rev-pay/${ada.id}`, { token: manager.token, body: {} })).toMatchObject({ status: 400, body: { message: 'Please enter a rev/pay ratio' } })
    expect(await h.call('PUT', `/manager/rev-pay/${ada.id}`, { token: manager.token, body: { revPayRatio: 'x' } })).toMatchObject({ status: 400 })
    expect((await h.call('PUT', `/manager/rev-pay/${bob.id}`, { token: manager.token, body: { revPayRatio: 30 } })).status).toBe(403)
    expect((await h.call('PUT', `/manager/rev-pay/${ada.id}`, { token: cy.token, body: { revPayRatio: 30 } })).status).toBe(403)
  })

  it('sends a reminder of the open requirements through the outbox; nothing open is 409', async () => {
    const res = await h.call('POST', `/manager/team/${ada.id}/reminder`, { token: manager.token })
    expect(res).toMatchObject({ status: 202, body: { message: 'Reminder sent', open_requirements: 1 } })
    const [event] = await h.events('certs.reminder.requested.v1')
    expect(event!.data).toMatchObject({
      userId: ada.id,
      email: ada.actor.email,
      name: 'Team Ada',
      requestedByName: 'Pat Manager',
      openRequirements: [{ name: 'Charlie Service', reason: 'expired', expirationDate: daysFromToday(-1), tierLevel: 1 }],
    })
    expect(await h.call('POST', `/manager/team/${cy.id}/reminder`, { token: manager.token })).toMatchObject({ status: 409, body: { code: 'nothing_to_remind' } })
    expect((await h.call('POST', `/manager/team/${bob.id}/reminder`, { token: manager.token })).status).toBe(403)
  })

  it('generates a member report with certifications and revenue', async () => {
    const res = await h.download(`/manager/team/${ada.id}/report`, manager.token)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toContain(`filename="technician-report-e-1-${todayIso(h.now())}.xlsx"`)
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(res.bytes as unknown as ArrayBuffer)
    expect(wb.getWorksheet('Technician')!.getRow(2).values).toEqual([undefined, 'Name', 'Team Ada'])
    expect(wb.getWorksheet('Certifications')!.rowCount).toBe(4)
    expect((wb.getWorksheet('Revenue')!.getRow(2).values as unknown[]).slice(1)).toEqual([todayIso(h.now()).slice(0, 7), 9000, 300, 30])
    expect((await h.download(`/manager/team/${bob.id}/report`, manager.token)).status).toBe(403)
  })
})

describe('tier promotions', () => {
  it('stores a pending request, refuses Tier 1, tiers not above and a second pending one; the admin approves, the tier changes and the event goes out', async () => {
    // Learner §4: "Promotion submit offers tiers above current (2 if current<2, 3 if current<3)".
    const bad = await h.call('POST', '/manager/tier-promotion', { token: manager.token, body: { userId: ada.id, newTier: 1, justification: 'x' } })
    expect(bad).toMatchObject({ status: 400, body: { message: 'The new tier must be Tier 2 or Tier 3' } })
    expect(await h.sql('select id from promotion_requests where user_id = ?', [ada.id])).toEqual([])
    expect(await h.call('POST', '/manager/tier-promotion', { token: manager.token, body: { userId: ada.id, newTier: 2, justification: ' ' } })).toMatchObject({
      status: 400,
      body: { message: 'Justification is required' },
    })
    const res = await h.call('POST', '/manager/tier-promotion', { token: manager.token, body: { userId: ada.id, newTier: 2, justification: 'Leads the Portland crew' } })
    expect(res.status).toBe(201)
    const { message, request } = PromotionRequestResponse.parse(res.body)
    expect(message).toBe('Tier promotion request submitted successfully')
    expect(request).toMatchObject({ from_tier: 1, to_tier: 2, status: 'pending', requested_by: { id: manager.id, name: 'Pat Manager' } })
    expect(await h.call('POST', '/manager/tier-promotion', { token: admin.token, body: { userId: ada.id, newTier: 3, justification: 'again' } })).toMatchObject({
      status: 409,
      body: { code: 'promotion_pending' },
    })
    expect((await h.call('POST', '/manager/tier-promotion', { token: manager.token, body: { userId: bob.id, newTier: 2, justification: 'x' } })).status).toBe(403)
    expect((await h.call('POST', '/manager/tier-promotion', { token: cy.token, body: { userId: ada.id, newTier: 3, justification: 'x' } })).status).toBe(403)

    const pending = PromotionRequestsResponse.parse((await h.call('GET', '/manager/tier-promotions?status=pending', { token: admin.token })).body)
    expect(pending.requests.map((r) => r.id)).toContain(request.id)
    expect((await h.call('POST', `/manager/tier-promotions/${request.id}/decision`, { token: manager.token, body: { approve: true } })).status).toBe(403)
    const decided = await h.call('POST', `/manager/tier-promotions/${request.id}/decision`, { token: admin.token, body: { approve: true, note: 'Well earned' } })
    expect(decided).toMatchObject({
      status: 200,
      body: { message: 'Tier promotion approved', request: { status: 'approved', decision_note: 'Well earned', decided_by: { id: admin.id } } },
    })
    expect((await h.call('GET', `/technician/profile/${ada.id}`, { token: ada.token })).body.tier.current_tier).toBe(2)
    expect(await h.call('POST', '/manager/tier-promotion', { token: manager.token, body: { userId: ada.id, newTier: 2, justification: 'x' } })).toMatchObject({
      status: 400,
      body: { message: 'The new tier must be above the current tier', code: 'tier_not_above' },
    })
    const [event] = await h.events('certs.tier.promoted.v1')
    expect(event!.data).toEqual({ userId: ada.id, requestId: request.id, fromTier: 1, toTier: 2, requestedBy: manager.id, approvedBy: admin.id })
    expect(await h.call('POST', `/manager/tier-promotions/${request.id}/decision`, { token: admin.token, body: { approve: false } })).toMatchObject({
      status: 409,
      body: { code: 'promotion_decided' },
    })
    // The requester sees the outcome.
    const mine = PromotionRequestsResponse.parse((await h.call('GET', '/manager/tier-promotions', { token: manager.token })).body)
    expect(mine.requests.find((r) => r.id === request.id)).toMatchObject({ status: 'approved', decision_note: 'Well earned' })
    expect((await h.call('GET', '/manager/tier-promotions', { token: cy.token })).status).toBe(403)
  })

  it('denies with a note and leaves the tier', async () => {
    const { request } = PromotionRequestResponse.parse(
      (await h.call('POST', '/manager/tier-promotion', { token: admin.token, body: { userId: bob.id, newTier: 2, justification: 'Ready' } })).body,
    )
    expect(await h.call('POST', `/manager/tier-promotions/${request.id}/decision`, { token: admin.token, body: { approve: false, note: 'Not yet' } })).toMatchObject({
      status: 200,
      body: { message: 'Tier promotion denied', request: { status: 'denied', decision_note: 'Not yet' } },
    })
    expect((await team(admin, 'search=Team%20Bob')).teamMembers[0]!.tier.current_tier).toBe(0)
    const detail = TeamMemberDetail.parse((await h.call('GET', `/manager/team/${bob.id}`, { token: admin.token })).body)
    expect(detail.promotion_requests.map((r) => r.status)).toEqual(['denied'])
    expect((await h.call('POST', '/manager/tier-promotions/999999/decision', { token: admin.token, body: { approve: true } })).status).toBe(404)
  })
})
