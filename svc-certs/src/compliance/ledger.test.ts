import ExcelJS from 'exceljs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  CertificationDashboard,
  CertificationsOverview,
  ConsistencyReport,
  TeamResponse,
  TechnicianProfile,
  type ComplianceFigures,
  type CertificationExpiryNotice,
} from '@portal/contracts'
import { createHarness, type Harness, type TestUser } from '../harness.test-support.ts'

// Issue 23: for one known population, every surface reports the same figures, on either side of
// the company's midnight. The company is in Los Angeles; its 23:30 is already tomorrow in UTC, so a
// surface still counting days in UTC would disagree here.
const TZ = 'America/Los_Angeles'
const LATE = new Date('2026-11-27T07:30:00Z') // 23:30 on Nov 26 in Los Angeles
const EARLY = new Date('2026-11-27T08:30:00Z') // 00:30 on Nov 27

let h: Harness
let admin: TestUser
let manager: TestUser
const people: Record<string, TestUser> = {}
let A: { id: number }
let B: { id: number }
let S: { id: number }

beforeAll(async () => {
  h = await createHarness({ timeZone: TZ })
  h.setNow(LATE)
  admin = await h.user({ admin: true, name: 'Ada Admin', branch: null, department: null })
  // A: proof required, every department; B: no proof; S: Tier 1, Service only.
  A = await h.type(admin, { name: 'Alpha Safety', tier_level: 0, upload_required: true, validity_period: null })
  B = await h.type(admin, { name: 'Bravo Orientation', tier_level: 0, upload_required: false, validity_period: null })
  S = await h.type(admin, { name: 'Service Basics', tier_level: 1, upload_required: true, validity_period: null, department: 'Service' })
  for (const [tier, id] of [
    [0, A.id],
    [0, B.id],
    [1, S.id],
  ] as const)
    expect(
      (await h.call('PUT', '/admin/certifications/tier-requirements', { token: admin.token, body: { tier_level: tier, certification_id: id, is_required: true } })).status,
    ).toBe(200)

  const make = async (key: string, o: Parameters<Harness['user']>[0], tier: number, held: [typeof A, number | null, boolean][], paused = false) => {
    const u = await h.user({ name: `Ledger ${key}`, ...o })
    people[key] = u
    await h.sql("insert into technicians (user_id, current_tier, notifications_paused_until, updated_at) values (?, ?, case when ? then now() + interval '20 days' end, now())", [
      u.id,
      tier,
      paused,
    ])
    for (const [type, days, file] of held)
      await h.sql(
        `insert into technician_certifications (user_id, certification_id, obtained_date, expiration_date, file_key, file_name, file_type, created_at, updated_at)
         values (?, ?, ?::date, ?::date, ?, ?, ?, now(), now())`,
        [
          u.id,
          type.id,
          h.daysFromToday(-400),
          days === null ? null : h.daysFromToday(days),
          file ? `proofs/${key}` : null,
          file ? `${key}.pdf` : null,
          file ? 'application/pdf' : null,
        ],
      )
    return u
  }
  // Days are from the company's today at 23:30 (Nov 26).
  await make('p1', { branch: 'Portland', department: 'Service' }, 0, [
    [A, 100, true],
    [B, null, false],
  ])
  await make('p2', { branch: 'Portland', department: 'Service' }, 1, [
    [A, 10, true],
    [B, null, false],
  ])
  await make('s1', { branch: 'Seattle', department: 'Testing' }, 0, [
    [A, -1, true],
    [B, null, false],
  ])
  await make('s2', { branch: 'Seattle', department: 'Electricians' }, 0, [
    [A, 200, false],
    [B, null, false],
  ])
  await make('a1', { branch: 'Anchorage', department: 'Construction' }, 0, [
    [A, 0, true],
    [B, 30, false],
  ])
  await make(
    't1',
    { branch: 'Tri-Cities', department: 'Service' },
    0,
    [
      [A, 7, true],
      [B, 31, false],
    ],
    true,
  )
  await make('n1', { branch: null, department: null }, 0, [])
  manager = await make('m', { branch: 'Portland', department: 'Service', manager: { branches: ['Portland'], departments: [] } }, 0, [
    [A, 90, true],
    [B, null, false],
  ])
}, 60_000)
afterAll(async () => {
  await h?.close()
})

const get = async <T>(path: string, token: string, schema: { parse(v: unknown): T }) => {
  const res = await h.call('GET', path, { token })
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200)
  return schema.parse(res.body)
}
const NUMERIC = ['technicians', 'compliant', 'non_compliant', 'requirements_met', 'expired_certifications', 'expiring_30_days'] as const
const sumOf = (rows: ComplianceFigures[], field: (typeof NUMERIC)[number]) => rows.reduce((n, r) => n + (r[field] ?? 0), 0)

/** What every surface must say: the population's known figures on the day. */
interface Expected {
  technicians: number
  requirementsMet: number
  noExpired: number
  expired: number
  soon: number
  /** The Portland manager's team (Portland, without the manager). */
  managerTeam: { total: number; compliant: number; expired: number; soon: number }
  /** Days left of p2's Alpha Safety and t1's, as the profile and the e-mail say them. */
  p2Days: number
}

async function everySurfaceAgrees(e: Expected) {
  // The consistency check in the product finds nothing.
  const check = await get('/admin/certifications/consistency', admin.token, ConsistencyReport)
  expect(check.differences).toEqual([])
  expect(check).toMatchObject({ consistent: true, technicians: e.technicians, difference_count: 0 })

  // The admin dashboard's card.
  const overview = await get('/admin/certifications/overview', admin.token, CertificationsOverview)
  expect(overview).toMatchObject({ technicians: e.technicians, requirements_met: e.requirementsMet, no_expired: e.noExpired, expired: e.expired, expiring_soon: e.soon })

  // Certification Notification Management: the headline, and branch rows that add up to it.
  const dash = await get('/certification-notifications/dashboard', admin.token, CertificationDashboard)
  const org = dash.compliance.organisation
  expect(org).toMatchObject({
    technicians: e.technicians,
    compliant: e.noExpired,
    requirements_met: e.requirementsMet,
    expired_certifications: e.expired,
    expiring_30_days: e.soon,
  })
  expect(org.percentage).toBe(Math.round((e.noExpired * 100) / e.technicians))
  for (const field of NUMERIC) expect([field, sumOf(dash.compliance.branches, field)]).toEqual([field, org[field]])
  expect(dash.compliance.branches.find((b) => b.branch === null)).toMatchObject({ technicians: 1, compliant: 1, requirements_met: 0 })
  expect(dash.counts.expired).toBe(e.expired)

  // The team dashboard: an admin's is everyone; a one-branch manager's is their branch but themself.
  const adminTeam = await get('/manager/team?limit=100', admin.token, TeamResponse)
  expect(adminTeam.summary).toMatchObject({ total_team: e.technicians, compliant: e.requirementsMet, expired: e.expired, expiring_soon: e.soon })
  const managerTeam = await get('/manager/team?limit=100', manager.token, TeamResponse)
  expect(managerTeam.summary).toMatchObject({
    total_team: e.managerTeam.total,
    compliant: e.managerTeam.compliant,
    expired: e.managerTeam.expired,
    expiring_soon: e.managerTeam.soon,
  })

  // The team export: one row per technician, Compliant as on the dashboard.
  const file = await h.download('/reports/certifications/export?format=excel', admin.token)
  expect(file.status).toBe(200)
  const wb = new ExcelJS.Workbook()
  await wb.xlsx.load(file.bytes as unknown as ArrayBuffer)
  const rows: unknown[][] = []
  wb.getWorksheet('Team')!.eachRow((row, n) => void (n > 1 && rows.push((row.values as unknown[]).slice(1))))
  expect(rows).toHaveLength(e.technicians)
  expect(rows.filter((r) => r[9] === 'Yes')).toHaveLength(e.requirementsMet)
  expect(rows.reduce((n, r) => n + Number(r[7]), 0)).toBe(e.expired)
  expect(rows.reduce((n, r) => n + Number(r[8]), 0)).toBe(e.soon)

  // The profile and the expiry e-mail count the same days.
  const profile = await get(`/technician/profile/${people.p2!.id}`, admin.token, TechnicianProfile)
  expect(profile.certifications.find((c) => c.certification.id === A.id)!.days_until_expiry).toBe(e.p2Days)
  expect(profile.as_of).toBe(h.daysFromToday(0))
  const before = (await h.events('certs.certification.expiring.v1')).length
  expect((await h.call('POST', '/certification-notifications/trigger/daily', { token: admin.token })).status).toBe(200)
  const notices = [...(await h.events('certs.certification.expiring.v1')), ...(await h.events('certs.certification.expired.v1'))].map((ev) => ev.data as CertificationExpiryNotice)
  expect(notices.length).toBeGreaterThanOrEqual(before)
  for (const n of notices.filter((x) => x.certification.expirationDate)) {
    const days = Math.round((Date.parse(`${n.certification.expirationDate}T00:00:00Z`) - Date.parse(`${h.daysFromToday(0)}T00:00:00Z`)) / 86_400_000)
    // A notice of an earlier run said the days of its own day; those of this run say today's.
    if (n.technician.userId === people.p2!.id && n.certification.certificationTypeId === A.id) expect([e.p2Days, e.p2Days + 1]).toContain(n.certification.daysLeft)
    expect(n.certification.daysLeft).toBeGreaterThanOrEqual(days)
  }

  // The weekly report of Portland / Service counts as the dashboard does for those technicians.
  expect((await h.sql("update notification_configs set manager_email = 'boss@acme.test', is_active = true where branch = 'Portland' and department = 'Service'")).length).toBe(0)
  const sent = (await h.events('certs.compliance.report-compiled.v1')).length
  expect((await h.call('POST', '/certification-notifications/trigger/weekly', { token: admin.token })).status).toBe(200)
  const reports = (await h.events('certs.compliance.report-compiled.v1')).slice(sent)
  const portland = reports
    .map((r) => r.data as { branch: string; department: string; compliance: ComplianceFigures })
    .find((r) => r.branch === 'Portland' && r.department === 'Service')
  // p1, p2 and the manager: all without expired certifications.
  if (portland) expect(portland.compliance).toMatchObject({ technicians: 3, compliant: 3, expired_certifications: 0 })
}

describe('one ledger, the same figures everywhere (issue 23)', () => {
  it('at 23:30 of the company’s day', async () => {
    h.setNow(LATE)
    await everySurfaceAgrees({
      technicians: 8,
      // p1, a1 (expires today: still valid), t1, the manager
      requirementsMet: 4,
      // everyone but s1
      noExpired: 7,
      expired: 1,
      // p2 (10 days), a1 (today and 30 days), t1 (7 days; 31 is not soon)
      soon: 4,
      managerTeam: { total: 2, compliant: 1, expired: 0, soon: 1 },
      p2Days: 10,
    })
  })

  it('at 00:30 of the next day, when a1’s certification has expired', async () => {
    h.setNow(EARLY)
    await everySurfaceAgrees({
      technicians: 8,
      requirementsMet: 3,
      noExpired: 6,
      expired: 2,
      // p2 (9), a1's second (29), t1 (6 and 30)
      soon: 4,
      managerTeam: { total: 2, compliant: 1, expired: 0, soon: 1 },
      p2Days: 9,
    })
  })

  it('names a kept figure that no longer agrees with the ledger', async () => {
    await h.sql('update team_member_figures set met_count = met_count + 1 where user_id = ?', [people.p1!.id])
    const check = await get('/admin/certifications/consistency', admin.token, ConsistencyReport)
    expect(check.consistent).toBe(false)
    expect(check.differences).toContainEqual({ surface: 'Team member figures', key: `Ledger p1 (${people.p1!.id})`, field: 'met_count', shown: 3, expected: 2 })
    // Only admins run it.
    expect((await h.call('GET', '/admin/certifications/consistency', { token: manager.token })).status).toBe(403)
    await h.sql('update team_member_figures set met_count = met_count - 1 where user_id = ?', [people.p1!.id])
  })
})
