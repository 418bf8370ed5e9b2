import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CertificationSummary, NotificationsStateResponse, TechnicianProfile, todayIso } from '@portal/contracts'
import { FILES, createHarness, type Harness, type TestUser } from '../harness.test-support.ts'

let h: Harness
let admin: TestUser
beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true, branch: null, department: null })
})
afterAll(async () => {
  await h?.close()
})

const DAY = 86_400_000
const daysFromToday = (days: number) => new Date(Date.parse(`${todayIso(h.now())}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10)
const add = (user: TestUser, body: Record<string, unknown>) => h.call('POST', '/technician/certifications/add', { token: user.token, body })
const profileOf = async (caller: TestUser, userId: string) => {
  const res = await h.call('GET', `/technician/profile/${userId}`, { token: caller.token })
  expect(res.status).toBe(200)
  return TechnicianProfile.parse(res.body)
}

describe('GET /technician/profile/{userId}', () => {
  it('shows the header, tier state, statuses and badges, upcoming expirations, requirements and tier progress', async () => {
    const tech = await h.user({ name: 'Pat Portland', branch: 'Portland', department: 'Service', employeeId: 'E1001', hireDate: '2022-01-10' })
    // Tier 0 requires A and B, tier 1 requires C (Service) and offers D; a Testing type never applies.
    const a = await h.type(admin, { name: 'A', tier_level: 0, validity_period: 24 })
    const b = await h.type(admin, { name: 'B', tier_level: 0, upload_required: false, validity_period: null })
    const c = await h.type(admin, { name: 'C', tier_level: 1, department: 'Service' })
    const d = await h.type(admin, { name: 'D', tier_level: 1 })
    const testing = await h.type(admin, { name: 'T', tier_level: 0, department: 'Testing' })
    for (const [tier, id, req] of [
      [0, a.id, true],
      [0, b.id, true],
      [1, c.id, true],
      [1, d.id, false],
      [0, testing.id, true],
    ] as const)
      await h.call('PUT', '/admin/certifications/tier-requirements', { token: admin.token, body: { tier_level: tier, certification_id: id, is_required: req } })

    await add(tech, { certification_id: a.id, certification_number: 'A-1', obtained_date: daysFromToday(-700), expiration_date: daysFromToday(10) })
    await add(tech, { certification_id: b.id, certification_number: 'B-1', obtained_date: daysFromToday(-30) })
    await h.upload('/technician/certifications/upload', tech.token, { certification_id: String(c.id), obtained_date: daysFromToday(-800), expiration_date: daysFromToday(-1) }, [
      ['file', 'c.pdf', FILES.pdf],
    ])
    await add(tech, { certification_id: d.id, certification_number: 'D-1', obtained_date: daysFromToday(-10), expiration_date: daysFromToday(55) })

    const p = await profileOf(tech, tech.id)
    expect(p.user).toEqual({ id: tech.id, name: 'Pat Portland', email: tech.actor.email, employee_id: 'E1001', branch: 'Portland', department: 'Service', hire_date: '2022-01-10' })
    expect(p.tier).toEqual({ current_tier: 0, notifications_paused: false, notifications_paused_until: null, rev_pay_ratio: null })
    const byName = new Map(p.certifications.map((x) => [x.certification.name, x]))
    expect(byName.get('A')).toMatchObject({ status: 'Not Uploaded', expiration_badge: 'critical', days_until_expiry: 10 })
    expect(byName.get('B')).toMatchObject({ status: 'Completed', expiration_badge: null })
    expect(byName.get('C')).toMatchObject({ status: 'Expired', expiration_badge: 'expired', is_valid: false })
    expect(byName.get('D')).toMatchObject({ status: 'Not Uploaded', expiration_badge: 'notice' })
    expect(p.upcoming_expirations.map((x) => x.certification.name)).toEqual(['C', 'A', 'D'])
    // Every tier's requirements that apply to a Service technician; not the Testing one.
    expect(p.tier_requirements.map((r) => [r.tier_level, r.certification.name, r.is_required, r.met])).toEqual([
      [0, 'A', true, true],
      [0, 'B', true, true],
      [1, 'C', true, false],
      [1, 'D', false, true],
    ])
    expect(p.tier_requirements[0]!.user_certification_id).toBe(byName.get('A')!.id)
    expect(p.current_tier_progress).toEqual({ tier_level: 0, required_total: 2, required_met: 2, percent: 100 })
    expect(p.next_tier_progress).toEqual({ tier_level: 1, required_total: 1, required_met: 0, percent: 0 })
    expect(p.revenue_data).toBeNull()
    expect(p.permissions).toEqual({ can_edit: true, can_toggle_notifications: true, can_delete_files: true })

    const summary = CertificationSummary.parse((await h.call('GET', `/technician/summary/${tech.id}`, { token: tech.token })).body)
    expect(summary).toEqual({
      total: 4,
      valid: 3,
      expiring_soon: 1,
      expired: 1,
      required_total: 2,
      required_met: 2,
      current_tier: 0,
      next_tier_progress: { tier_level: 1, required_total: 1, required_met: 0, percent: 0 },
    })

    // Tiers are cumulative for compliance: at tier 1 the expired C counts as well.
    await h.sql('insert into technicians (user_id, current_tier, updated_at) values (?, 1, now())', [tech.id])
    const atTier1 = CertificationSummary.parse((await h.call('GET', `/technician/summary/${tech.id}`, { token: tech.token })).body)
    expect(atTier1).toMatchObject({ current_tier: 1, required_total: 3, required_met: 2, next_tier_progress: { tier_level: 2, required_total: 0, percent: 100 } })
  })

  it('shows a manager and an admin the profile with their permissions; the caller not yet projected sees their token’s name', async () => {
    const tech = await h.user({ branch: 'Seattle', department: 'Testing' })
    const manager = await h.user({ manager: { branches: ['Seattle'], departments: [] } })
    expect((await profileOf(manager, tech.id)).permissions).toEqual({ can_edit: false, can_toggle_notifications: false, can_delete_files: true })
    expect((await profileOf(admin, tech.id)).permissions).toEqual({ can_edit: true, can_toggle_notifications: false, can_delete_files: true })
    const fresh = await h.user({ known: false, name: 'Not Yet There' })
    expect((await profileOf(fresh, fresh.id)).user).toMatchObject({ name: 'Not Yet There', branch: null, employee_id: null })
    expect(await h.call('GET', `/technician/profile/${crypto.randomUUID()}`, { token: admin.token })).toMatchObject({ status: 404, body: { code: 'user_not_found' } })
    expect(await h.call('GET', '/technician/profile/not-a-uuid', { token: admin.token })).toMatchObject({ status: 400 })
  })
})

describe('pause and resume notifications (learner §4, §9)', () => {
  it('pauses for 30 days from now, caps a later pauseUntil, takes a sooner one, and resumes', async () => {
    const tech = await h.user()
    const res = await h.call('POST', '/technician/pause-notifications', { token: tech.token, body: { userId: tech.id } })
    expect(res.status).toBe(200)
    const paused = NotificationsStateResponse.parse(res.body)
    expect(paused.notifications_paused).toBe(true)
    const until = Date.parse(paused.notifications_paused_until!)
    expect(Math.abs(until - (h.now().getTime() + 30 * DAY))).toBeLessThan(5_000)
    expect((await profileOf(tech, tech.id)).tier).toMatchObject({ notifications_paused: true, notifications_paused_until: paused.notifications_paused_until })

    const capped = await h.call('POST', '/technician/pause-notifications', {
      token: tech.token,
      body: { userId: tech.id, pauseUntil: new Date(h.now().getTime() + 90 * DAY).toISOString() },
    })
    expect(Math.abs(Date.parse(capped.body.notifications_paused_until) - (h.now().getTime() + 30 * DAY))).toBeLessThan(5_000)
    const sooner = new Date(h.now().getTime() + 3 * DAY).toISOString()
    expect((await h.call('POST', '/technician/pause-notifications', { token: tech.token, body: { userId: tech.id, pauseUntil: sooner } })).body.notifications_paused_until).toBe(
      sooner,
    )
    expect(
      await h.call('POST', '/technician/pause-notifications', { token: tech.token, body: { userId: tech.id, pauseUntil: new Date(h.now().getTime() - DAY).toISOString() } }),
    ).toMatchObject({
      status: 400,
    })
    // A plain date means the start of that day; text that is neither is named.
    const day = new Date(h.now().getTime() + 10 * DAY).toISOString().slice(0, 10)
    expect((await h.call('POST', '/technician/pause-notifications', { token: tech.token, body: { userId: tech.id, pauseUntil: day } })).body.notifications_paused_until).toBe(
      `${day}T00:00:00.000Z`,
    )
    expect(await h.call('POST', '/technician/pause-notifications', { token: tech.token, body: { userId: tech.id, pauseUntil: 'next week' } })).toMatchObject({
      status: 400,
      body: { message: 'pauseUntil must be a date (YYYY-MM-DD) or an ISO 8601 date-time' },
    })
    expect((await h.call('POST', '/technician/pause-notifications', { token: tech.token, body: { userId: tech.id, pauseUntil: sooner } })).status).toBe(200)

    // A pause ends by itself.
    h.advance(4 * DAY)
    expect((await profileOf(tech, tech.id)).tier).toMatchObject({ notifications_paused: false, notifications_paused_until: null })
    h.advance(-4 * DAY)

    expect(await h.call('POST', '/technician/pause-notifications', { token: admin.token, body: { userId: crypto.randomUUID() } })).toMatchObject({
      status: 404,
      body: { code: 'user_not_found' },
    })
    const resumed = await h.call('POST', '/technician/resume-notifications', { token: tech.token, body: { userId: tech.id } })
    expect(resumed).toMatchObject({ status: 200, body: { notifications_paused: false, notifications_paused_until: null } })
    expect((await profileOf(tech, tech.id)).tier.notifications_paused).toBe(false)
  })
})

describe('a user deleted in identity', () => {
  it('loses their certifications, proofs and tier state; each certification is announced as deleted', async () => {
    const tech = await h.user()
    const t = await h.type(admin)
    const up = await h.upload('/technician/certifications/upload', tech.token, { certification_id: String(t.id), obtained_date: '2025-01-01' }, [['file', 'a.pdf', FILES.pdf]])
    const key = (await h.sql('select file_key from technician_certifications where id = ?', [up.body.certification.id]))[0]!.file_key as string
    await h.call('POST', '/technician/pause-notifications', { token: tech.token, body: { userId: tech.id } })
    await h.bus.publish({ id: crypto.randomUUID(), type: 'identity.user.deleted.v1', occurredAt: new Date().toISOString(), data: { userId: tech.id } })
    expect(await h.sql('select * from technician_certifications where user_id = ?', [tech.id])).toEqual([])
    expect(await h.sql('select * from technicians where user_id = ?', [tech.id])).toEqual([])
    expect((await h.events('certs.certification.deleted.v1')).map((e) => e.data.certificationId)).toContain(up.body.certification.id)
    expect(await h.garbage.sweep()).toBeGreaterThanOrEqual(1)
    expect(await h.storage.stat(key)).toBeNull()
    expect(await h.call('GET', `/technician/profile/${tech.id}`, { token: admin.token })).toMatchObject({ status: 404 })
  })
})

describe('who may call what (DESIGN "Security")', () => {
  // The owner works in Portland/Service; one manager's scope covers them, the other's does not.
  let owner: TestUser
  let other: TestUser
  let inScope: TestUser
  let outOfScope: TestUser
  beforeAll(async () => {
    owner = await h.user({ branch: 'Portland', department: 'Service' })
    other = await h.user({ branch: 'Portland', department: 'Service' })
    inScope = await h.user({ manager: { branches: ['Portland'], departments: ['Service'] } })
    outOfScope = await h.user({ manager: { branches: ['Seattle'], departments: [] } })
  })

  /** A fresh certification of the owner with a proof (each destructive call gets its own). */
  const freshCert = async () => {
    const t = await h.type(admin)
    const res = await h.upload('/technician/certifications/upload', owner.token, { certification_id: String(t.id), obtained_date: '2025-01-01' }, [['file', 'p.pdf', FILES.pdf]])
    return res.body.certification.id as number
  }
  type Caller = 'self' | 'other technician' | 'manager in scope' | 'manager out of scope' | 'admin' | 'unauthenticated'
  const token = (who: Caller) =>
    ({ self: owner, 'other technician': other, 'manager in scope': inScope, 'manager out of scope': outOfScope, admin, unauthenticated: undefined })[who]?.token

  const routes: { name: string; call: (t: string | undefined) => Promise<{ status: number }>; expect: Record<Caller, number> }[] = [
    {
      name: 'GET profile',
      call: (t) => h.call('GET', `/technician/profile/${owner.id}`, { token: t }),
      expect: { self: 200, 'other technician': 403, 'manager in scope': 200, 'manager out of scope': 403, admin: 200, unauthenticated: 401 },
    },
    {
      name: 'GET summary',
      call: (t) => h.call('GET', `/technician/summary/${owner.id}`, { token: t }),
      expect: { self: 200, 'other technician': 403, 'manager in scope': 200, 'manager out of scope': 403, admin: 200, unauthenticated: 401 },
    },
    {
      name: 'GET available',
      call: (t) => h.call('GET', `/technician/certifications/available/${owner.id}`, { token: t }),
      expect: { self: 200, 'other technician': 403, 'manager in scope': 200, 'manager out of scope': 403, admin: 200, unauthenticated: 401 },
    },
    {
      name: 'POST pause',
      call: (t) => h.call('POST', '/technician/pause-notifications', { token: t, body: { userId: owner.id } }),
      expect: { self: 200, 'other technician': 403, 'manager in scope': 403, 'manager out of scope': 403, admin: 200, unauthenticated: 401 },
    },
    {
      name: 'POST resume',
      call: (t) => h.call('POST', '/technician/resume-notifications', { token: t, body: { userId: owner.id } }),
      expect: { self: 200, 'other technician': 403, 'manager in scope': 403, 'manager out of scope': 403, admin: 200, unauthenticated: 401 },
    },
    {
      name: 'POST add',
      call: async (t) => {
        const type = await h.type(admin)
        return h.call('POST', '/technician/certifications/add', { token: t, body: { certification_id: type.id, certification_number: 'M', user_id: owner.id } })
      },
      expect: { self: 201, 'other technician': 403, 'manager in scope': 403, 'manager out of scope': 403, admin: 201, unauthenticated: 401 },
    },
    {
      name: 'POST upload',
      call: async (t) => {
        const type = await h.type(admin)
        const form = new FormData()
        form.append('certification_id', String(type.id))
        form.append('obtained_date', '2025-01-01')
        form.append('user_id', owner.id)
        form.append('file', new Blob([FILES.pdf]), 'p.pdf')
        return h.app.request('/technician/certifications/upload', { method: 'POST', headers: t ? { authorization: `Bearer ${t}` } : {}, body: form })
      },
      expect: { self: 201, 'other technician': 403, 'manager in scope': 403, 'manager out of scope': 403, admin: 201, unauthenticated: 401 },
    },
    {
      name: 'PUT certification',
      call: async (t) => h.call('PUT', `/technician/certifications/${await freshCert()}`, { token: t, body: { certification_number: 'E' } }),
      expect: { self: 200, 'other technician': 404, 'manager in scope': 403, 'manager out of scope': 404, admin: 200, unauthenticated: 401 },
    },
    {
      name: 'DELETE certification',
      call: async (t) => h.call('DELETE', `/technician/certifications/${await freshCert()}`, { token: t }),
      expect: { self: 200, 'other technician': 404, 'manager in scope': 403, 'manager out of scope': 404, admin: 200, unauthenticated: 401 },
    },
    {
      name: 'POST file (replace)',
      call: async (t) => {
        const id = await freshCert()
        const form = new FormData()
        form.append('file', new Blob([FILES.png]), 'p.png')
        return h.app.request(`/technician/certifications/${id}/file`, { method: 'POST', headers: t ? { authorization: `Bearer ${t}` } : {}, body: form })
      },
      expect: { self: 200, 'other technician': 404, 'manager in scope': 403, 'manager out of scope': 404, admin: 200, unauthenticated: 401 },
    },
    {
      name: 'GET file',
      call: async (t) => h.download(`/technician/certifications/${await freshCert()}/file`, t),
      expect: { self: 200, 'other technician': 404, 'manager in scope': 200, 'manager out of scope': 404, admin: 200, unauthenticated: 401 },
    },
    {
      name: 'DELETE file',
      call: async (t) => h.call('DELETE', `/technician/certifications/${await freshCert()}/file`, { token: t }),
      expect: { self: 200, 'other technician': 404, 'manager in scope': 200, 'manager out of scope': 404, admin: 200, unauthenticated: 401 },
    },
  ]

  const callers: Caller[] = ['self', 'other technician', 'manager in scope', 'manager out of scope', 'admin', 'unauthenticated']
  it.each(routes.map((r) => [r.name, r] as const))('%s', async (_name, route) => {
    const got: Record<string, number> = {}
    for (const who of callers) got[who] = (await route.call(token(who))).status
    expect(got).toEqual(route.expect)
  })

  it('leaves no file behind for uploads it refused', async () => {
    await h.garbage.sweep()
    // Proofs of earlier periods (replaced, renewed, deleted) are kept: their history refers to them.
    const referenced = new Set(
      (
        await h.sql<{ file_key: string }>(
          'select file_key from technician_certifications where file_key is not null union all select file_key from technician_certification_periods where file_key is not null',
        )
      ).map((r) => r.file_key),
    )
    const stored = await h.storage.list('proofs')
    expect(stored.filter((k) => !referenced.has(k))).toEqual([])
    expect(await h.sql('select key from storage_garbage')).toEqual([])
  })
})
