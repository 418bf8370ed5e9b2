import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TeamResponse, todayIso } from '@portal/contracts'
import { FILES, createHarness, type Harness, type TestUser } from '../harness.test-support.ts'

// The dashboard reads kept per-member figures (decision 0036): each change that moves them is seen
// on the next read, through the same routes the screens use.
let h: Harness
let admin: TestUser
let tech: TestUser
const DAY = 86_400_000
const daysFromToday = (days: number) => new Date(Date.parse(`${todayIso(h.now())}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10)
let alpha: { id: number; code: string; name: string }
let bravo: { id: number; code: string; name: string }

beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true, branch: null, department: null })
  alpha = await h.type(admin, { name: 'Alpha Safety', tier_level: 0, validity_period: null })
  bravo = await h.type(admin, { name: 'Bravo Orientation', tier_level: 0, upload_required: false, validity_period: null })
  for (const id of [alpha.id, bravo.id])
    await h.call('PUT', '/admin/certifications/tier-requirements', { token: admin.token, body: { tier_level: 0, certification_id: id, is_required: true } })
  tech = await h.user({ name: 'Figures Tess', branch: 'Portland', department: 'Service' })
})
afterAll(async () => {
  await h?.close()
})

/** Tess's row: [tier, completion %, expired, expiring soon]. */
const row = async () => {
  const res = await h.call('GET', '/manager/team?search=Figures', { token: admin.token })
  expect(res.status).toBe(200)
  const m = TeamResponse.parse(res.body).teamMembers
  expect(m).toHaveLength(1)
  return [m[0]!.tier.current_tier, m[0]!.completion_percentage, m[0]!.expired_certifications, m[0]!.expiring_soon]
}
const moveTo = (department: 'Service' | 'Testing') =>
  h.bus.publish({
    id: crypto.randomUUID(),
    type: 'identity.user.updated.v1',
    occurredAt: new Date().toISOString(),
    data: { ...tech.actor, branch: 'Portland', department, userGroup: null, employeeId: null, hireDate: null },
  })
const typeBody = (t: { code: string; name: string }, over: Record<string, unknown>) => ({ name: t.name, code: t.code, tier_level: 0, validity_period: null, ...over })

describe('kept team figures', () => {
  it('follow a technician’s certifications: added, uploaded, updated, deleted', async () => {
    expect(await row()).toEqual([0, 0, 0, 0])
    const b = await h.call('POST', '/technician/certifications/add', { token: tech.token, body: { certification_id: bravo.id, certification_number: 'B-1' } })
    expect(b.status).toBe(201)
    expect(await row()).toEqual([0, 50, 0, 0])
    const a = await h.upload(
      '/technician/certifications/upload',
      tech.token,
      { certification_id: String(alpha.id), obtained_date: daysFromToday(-10), expiration_date: daysFromToday(40) },
      [['file', 'p.pdf', FILES.pdf]],
    )
    expect(a.status).toBe(201)
    expect(await row()).toEqual([0, 100, 0, 0])
    const id = (a.body as { certification: { id: number } }).certification.id
    expect(
      (await h.call('PUT', `/technician/certifications/${id}`, { token: tech.token, body: { obtained_date: daysFromToday(-10), expiration_date: daysFromToday(20) } })).status,
    ).toBe(200)
    expect(await row()).toEqual([0, 100, 0, 1])
    expect(
      (await h.call('PUT', `/technician/certifications/${id}`, { token: tech.token, body: { obtained_date: daysFromToday(-10), expiration_date: daysFromToday(-1) } })).status,
    ).toBe(200)
    expect(await row()).toEqual([0, 50, 1, 0])
    expect((await h.call('DELETE', `/technician/certifications/${id}/file`, { token: tech.token })).status).toBe(200)
    expect(
      (await h.call('PUT', `/technician/certifications/${id}`, { token: tech.token, body: { obtained_date: daysFromToday(-10), expiration_date: daysFromToday(40) } })).status,
    ).toBe(200)
    // Held, not expired, but its proof is gone: not met.
    expect(await row()).toEqual([0, 50, 0, 0])
    expect((await h.call('DELETE', `/technician/certifications/${id}`, { token: tech.token })).status).toBe(200)
    expect(await row()).toEqual([0, 50, 0, 0])
    const again = await h.upload(
      '/technician/certifications/upload',
      tech.token,
      { certification_id: String(alpha.id), obtained_date: daysFromToday(-10), expiration_date: daysFromToday(40) },
      [['file', 'p.pdf', FILES.pdf]],
    )
    expect(again.status).toBe(201)
    expect(await row()).toEqual([0, 100, 0, 0])
  })

  it('follow requirement and type edits', async () => {
    const charlie = await h.type(admin, { name: 'Charlie Service', tier_level: 0, department: 'Service', validity_period: null })
    const put = await h.call('PUT', '/admin/certifications/tier-requirements', { token: admin.token, body: { tier_level: 0, certification_id: charlie.id, is_required: true } })
    expect(put.status).toBe(200)
    expect(await row()).toEqual([0, 66, 0, 0])
    // For another department: not Tess's requirement.
    expect((await h.call('PUT', `/admin/certifications/${charlie.id}`, { token: admin.token, body: typeBody(charlie, { department: 'Testing' }) })).status).toBe(200)
    expect(await row()).toEqual([0, 100, 0, 0])
    expect((await h.call('PUT', `/admin/certifications/${charlie.id}`, { token: admin.token, body: typeBody(charlie, { department: 'Service' }) })).status).toBe(200)
    expect(await row()).toEqual([0, 66, 0, 0])
    // Inactive types ask nothing.
    expect((await h.call('PUT', `/admin/certifications/${charlie.id}`, { token: admin.token, body: typeBody(charlie, { department: 'Service', is_active: false }) })).status).toBe(
      200,
    )
    expect(await row()).toEqual([0, 100, 0, 0])
    expect((await h.call('PUT', `/admin/certifications/${charlie.id}`, { token: admin.token, body: typeBody(charlie, { department: 'Service', is_active: true }) })).status).toBe(
      200,
    )
    expect(await row()).toEqual([0, 66, 0, 0])
    // Moved to another department (identity's event, the projection): Service's type no longer counts.
    await moveTo('Testing')
    expect(await row()).toEqual([0, 100, 0, 0])
    await moveTo('Service')
    expect(await row()).toEqual([0, 66, 0, 0])
    const reqs = (await h.call('GET', '/admin/certifications/tier-requirements', { token: admin.token })).body as { requirements: { id: number; certification_id: number }[] }
    const req = reqs.requirements.find((r) => r.certification_id === charlie.id)!
    expect((await h.call('DELETE', `/admin/certifications/tier-requirements/${req.id}`, { token: admin.token })).status).toBe(200)
    expect(await row()).toEqual([0, 100, 0, 0])
  })

  it('follow a tier promotion', async () => {
    const delta = await h.type(admin, { name: 'Delta Lead', tier_level: 2, validity_period: null })
    await h.call('PUT', '/admin/certifications/tier-requirements', { token: admin.token, body: { tier_level: 2, certification_id: delta.id, is_required: true } })
    expect(await row()).toEqual([0, 100, 0, 0])
    const asked = await h.call('POST', '/manager/tier-promotion', { token: admin.token, body: { userId: tech.id, newTier: 2, justification: 'Ready to lead' } })
    expect(asked.status).toBe(201)
    const id = (asked.body as { request: { id: number } }).request.id
    expect((await h.call('POST', `/manager/tier-promotions/${id}/decision`, { token: admin.token, body: { approve: true } })).status).toBe(200)
    expect(await row()).toEqual([2, 66, 0, 0])
    await h.sql('delete from tier_requirements where certification_id = ?', [delta.id])
    expect(await row()).toEqual([2, 100, 0, 0])
  })

  it('follow the days passing: expiring soon, then expired', async () => {
    // Alpha expires in 40 days (first test).
    expect(await row()).toEqual([2, 100, 0, 0])
    h.advance(9 * DAY)
    expect(await row()).toEqual([2, 100, 0, 0])
    h.advance(1 * DAY)
    expect(await row()).toEqual([2, 100, 0, 1])
    h.advance(30 * DAY)
    expect(await row()).toEqual([2, 100, 0, 1])
    h.advance(1 * DAY)
    expect(await row()).toEqual([2, 50, 1, 0])
    const [kept] = (await h.sql('select computed_on::text as computed_on, stale_on from team_member_figures where user_id = ?', [tech.id])) as {
      computed_on: string
      stale_on: string | null
    }[]
    expect(kept).toEqual({ computed_on: todayIso(h.now()), stale_on: null })
  })
})
