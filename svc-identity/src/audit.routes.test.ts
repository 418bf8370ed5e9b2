import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AuditEntriesResponse } from '@portal/contracts'
import { createHarness, type Harness } from './harness.test-support.ts'

let h: Harness
let admin: Awaited<ReturnType<Harness['signUp']>>
let tech: Awaited<ReturnType<Harness['signUp']>>
beforeAll(async () => {
  h = await createHarness()
  admin = await h.signUp({ admin: true, name: 'Ada Admin' })
  tech = await h.signUp({ name: 'Tess Tech' })
})
afterAll(async () => {
  await h?.close()
})

describe('identity’s audit trail (decision 0030)', () => {
  it('records groups made, group, role and employment changes and deletions of users, by whom', async () => {
    expect((await h.call('POST', '/admin/user-groups', { token: admin.token, body: { groupName: 'Audit Crew' } })).status).toBe(201)
    expect((await h.call('PATCH', `/users/${tech.user.id}/group`, { token: admin.token, body: { userGroup: 'Audit Crew' } })).status).toBe(200)
    expect(
      (await h.call('PUT', `/users/${tech.user.id}/roles`, { token: admin.token, body: { is_manager: true, manager_scope: { branches: ['Seattle'], departments: [] } } })).status,
    ).toBe(200)
    expect((await h.call('PUT', `/users/${tech.user.id}/employment`, { token: admin.token, body: { hire_date: '2025-02-03' } })).status).toBe(200)
    expect((await h.call('DELETE', `/users/${tech.user.id}`, { token: admin.token })).status).toBe(200)
    const res = await h.call('GET', '/admin/audit/identity', { token: admin.token })
    expect(res.status).toBe(200)
    const entries = AuditEntriesResponse.parse(res.body)
    expect(entries.map((e) => [e.actor_name, e.action])).toEqual([
      ['Ada Admin', 'user.deleted'],
      ['Ada Admin', 'user.employment_changed'],
      ['Ada Admin', 'user.roles_changed'],
      ['Ada Admin', 'user.group_changed'],
      ['Ada Admin', 'group.created'],
    ])
    expect(entries.find((e) => e.action === 'user.group_changed')).toMatchObject({ service: 'identity', details: { user_group: 'Audit Crew' } })
    expect(entries.find((e) => e.action === 'group.created')).toMatchObject({ target: 'Audit Crew' })
    expect(entries.find((e) => e.action === 'user.employment_changed')).toMatchObject({ details: { employee_id: null, hire_date: '2025-02-03' } })
    expect(entries.find((e) => e.action === 'user.deleted')).toMatchObject({ target: `user ${tech.user.id}` })
  })

  it('is for admins only', async () => {
    const other = await h.signUp({ name: 'Other Tech' })
    expect((await h.call('GET', '/admin/audit/identity')).status).toBe(401)
    expect((await h.call('GET', '/admin/audit/identity', { token: other.token })).status).toBe(403)
  })
})
