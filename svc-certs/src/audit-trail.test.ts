import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AuditEntriesResponse } from '@portal/contracts'
import { createHarness, type Harness, type TestUser } from './harness.test-support.ts'

// Certs' admin changes in the audit trail (decisions 0030, 0036), each written with its change.
let h: Harness
let admin: TestUser
let manager: TestUser
let tech: TestUser
beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true, name: 'Ada Admin', branch: null, department: null })
  manager = await h.user({ name: 'Pat Manager', manager: { branches: ['Portland'], departments: [] } })
  tech = await h.user({ name: 'Audit Tess', branch: 'Portland', department: 'Service' })
})
afterAll(async () => {
  await h?.close()
})

const trail = async (query = '') => {
  const res = await h.call('GET', `/admin/audit/certs${query}`, { token: admin.token })
  expect(res.status).toBe(200)
  return AuditEntriesResponse.parse(res.body)
}

describe('GET /admin/audit/certs', () => {
  it('lists type and requirement edits, revenue entries, promotion decisions and rev/pay edits, newest first', async () => {
    const created = await h.call('POST', '/admin/certifications', { token: admin.token, body: { name: 'Audit Safety', code: 'AUD-1', tier_level: 1 } })
    expect(created.status).toBe(201)
    const id = (created.body as { certification: { id: number } }).certification.id
    expect(
      (await h.call('PUT', `/admin/certifications/${id}`, { token: admin.token, body: { name: 'Audit Safety', code: 'AUD-1', tier_level: 1, is_active: false } })).status,
    ).toBe(200)
    expect((await h.call('PUT', '/admin/certifications/tier-requirements', { token: admin.token, body: { tier_level: 1, certification_id: id, is_required: true } })).status).toBe(
      200,
    )
    const reqs = (await h.call('GET', '/admin/certifications/tier-requirements', { token: admin.token })).body as { requirements: { id: number }[] }
    expect((await h.call('DELETE', `/admin/certifications/tier-requirements/${reqs.requirements[0]!.id}`, { token: admin.token })).status).toBe(200)
    expect((await h.call('DELETE', `/admin/certifications/${id}`, { token: admin.token })).status).toBe(200)
    expect(
      (await h.call('POST', '/revenue/manual-entry', { token: admin.token, body: { user_id: tech.id, month: '2025-03', gross_revenue: 10000, pay_amount: 320 } })).status,
    ).toBe(201)
    expect(
      (await h.call('POST', '/revenue/manual-entry', { token: admin.token, body: { user_id: tech.id, month: '2025-03', gross_revenue: 12000, pay_amount: 320, replace: true } }))
        .status,
    ).toBe(200)
    const asked = await h.call('POST', '/manager/tier-promotion', { token: manager.token, body: { userId: tech.id, newTier: 2, justification: 'Ready' } })
    const request = (asked.body as { request: { id: number } }).request.id
    expect((await h.call('POST', `/manager/tier-promotions/${request}/decision`, { token: admin.token, body: { approve: true, note: 'Earned' } })).status).toBe(200)
    const again = await h.call('POST', '/manager/tier-promotion', { token: manager.token, body: { userId: tech.id, newTier: 3, justification: 'Soon' } })
    expect(
      (await h.call('POST', `/manager/tier-promotions/${(again.body as { request: { id: number } }).request.id}/decision`, { token: admin.token, body: { approve: false } }))
        .status,
    ).toBe(200)
    expect((await h.call('PUT', `/manager/rev-pay/${tech.id}`, { token: manager.token, body: { revPayRatio: 32.5 } })).status).toBe(200)
    expect((await h.call('PUT', `/manager/rev-pay/${tech.id}`, { token: admin.token, body: { revPayRatio: 30 } })).status).toBe(200)

    const entries = await trail()
    expect(entries.map((e) => [e.service, e.actor_name, e.action, e.target])).toEqual([
      ['certs', 'Ada Admin', 'rev_pay.updated', 'Audit Tess'],
      ['certs', 'Pat Manager', 'rev_pay.updated', 'Audit Tess'],
      ['certs', 'Ada Admin', 'tier_promotion.denied', 'Audit Tess'],
      ['certs', 'Ada Admin', 'tier_promotion.approved', 'Audit Tess'],
      ['certs', 'Ada Admin', 'revenue.updated', 'Audit Tess 2025-03'],
      ['certs', 'Ada Admin', 'revenue.recorded', 'Audit Tess 2025-03'],
      ['certs', 'Ada Admin', 'certification_type.deleted', 'AUD-1'],
      ['certs', 'Ada Admin', 'tier_requirement.removed', 'Tier 1: AUD-1'],
      ['certs', 'Ada Admin', 'tier_requirement.saved', 'Tier 1: AUD-1'],
      ['certs', 'Ada Admin', 'certification_type.updated', 'AUD-1'],
      ['certs', 'Ada Admin', 'certification_type.created', 'AUD-1'],
    ])
    expect(entries[0]!.details).toEqual({ user_id: tech.id, before: 32.5, after: 30 })
    expect(entries[3]!.details).toEqual({ user_id: tech.id, request_id: request, from_tier: 0, to_tier: 2, note: 'Earned' })
    expect(entries[4]!.details).toEqual({ user_id: tech.id, month: '2025-03', gross_revenue: 12000, pay_amount: 320 })
    expect(entries[9]!.details).toMatchObject({ before: { is_active: true }, after: { is_active: false } })
    expect((await trail('?action=tier_promotion')).map((e) => e.action)).toEqual(['tier_promotion.denied', 'tier_promotion.approved'])
    expect((await trail('?actor=Pat')).map((e) => e.action)).toEqual(['rev_pay.updated'])
  })

  it('lists notification configuration edits with what changed, and nothing for a save that changes nothing', async () => {
    const config = (await h.call('GET', '/certification-notifications/configs/Seattle/Testing', { token: admin.token })).body as { config: { id: number } }
    const put = (body: Record<string, unknown>) => h.call('PUT', `/certification-notifications/configs/${config.config.id}`, { token: admin.token, body })
    expect((await put({ manager_email: 'lead@example.com', is_active: true })).status).toBe(200)
    expect((await put({ manager_email: 'lead@example.com' })).status).toBe(200)
    // Activating without an e-mail is refused and leaves no trace.
    expect((await put({ manager_email: '', operations_manager_email: '' })).status).toBe(400)
    const edits = await trail('?action=notification_config')
    expect(edits.map((e) => [e.actor_name, e.action, e.target])).toEqual([['Ada Admin', 'notification_config.updated', 'Seattle / Testing']])
    expect(edits[0]!.details).toEqual({ before: { manager_email: null, is_active: false }, after: { manager_email: 'lead@example.com', is_active: true } })
  })

  it('records nothing for a refused change', async () => {
    const before = (await trail()).length
    expect((await h.call('PUT', '/admin/certifications/999999', { token: admin.token, body: { name: 'X', code: 'X-1' } })).status).toBe(404)
    expect((await h.call('POST', '/revenue/manual-entry', { token: admin.token, body: { user_id: admin.id, month: '2025-03', gross_revenue: 1, pay_amount: 1 } })).status).toBe(400)
    expect((await trail()).length).toBe(before)
  })

  it('is for admins only', async () => {
    expect((await h.call('GET', '/admin/audit/certs', { token: manager.token })).status).toBe(403)
    expect((await h.call('GET', '/admin/audit/certs', { token: tech.token })).status).toBe(403)
    expect((await h.call('GET', '/admin/audit/certs')).status).toBe(401)
  })
})
