import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MESSAGES } from '@portal/contracts'
import { createHarness, type Harness } from '../harness.test-support.ts'

let h: Harness
let admin: Awaited<ReturnType<Harness['signUp']>>
let tech: Awaited<ReturnType<Harness['signUp']>>
let other: Awaited<ReturnType<Harness['signUp']>>

beforeAll(async () => {
  h = await createHarness()
  admin = await h.signUp({ name: 'Ada Admin', admin: true })
  tech = await h.signUp({ name: 'Tom Tech' })
  other = await h.signUp({ name: 'Bea Other' })
})
afterAll(async () => {
  await h?.close()
})

const eventsFor = async (type: string, userId: string) => (await h.events(type)).filter((e) => e.data.userId === userId)
const row = async (id: string) => (await h.sql('select * from users where id = ?', [id]))[0]

describe('GET /users/me', () => {
  it('returns the caller', async () => {
    const res = await h.call('GET', '/users/me', { token: tech.token })
    expect(res.status).toBe(200)
    expect(res.body.user).toMatchObject({ id: tech.user.id, name: 'Tom Tech', branch: null, department: null, is_manager: false })
  })
  it('needs a token', async () => {
    const res = await h.call('GET', '/users/me')
    expect(res.status).toBe(401)
    expect(res.body.code).toBe('invalid_token')
  })
  it('refuses the token of an account that no longer exists (401 stale, so the shell ends the session)', async () => {
    const ghost = await h.signRaw({ sub: crypto.randomUUID() })
    const res = await h.call('GET', '/users/me', { token: ghost })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ message: MESSAGES.sessionExpired, code: 'token_stale', expired: true })
  })
})

describe('GET /users', () => {
  it('lists every user ordered by name, for admins', async () => {
    const res = await h.call('GET', '/users', { token: admin.token })
    expect(res.status).toBe(200)
    expect(res.body.map((u: { name: string }) => u.name)).toEqual(['Ada Admin', 'Bea Other', 'Tom Tech'])
    expect(res.body[0]).not.toHaveProperty('password_hash')
    expect(res.body[0]).not.toHaveProperty('passwordHash')
  })
  it('is forbidden to a technician and to the anonymous', async () => {
    const res = await h.call('GET', '/users', { token: tech.token })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ message: 'Admin access required', code: 'admin_required' })
    expect((await h.call('GET', '/users')).status).toBe(401)
  })
})

describe('PUT /users/{id}/profile', () => {
  it('lets a user set their own branch and department and records the update', async () => {
    const res = await h.call('PUT', `/users/${tech.user.id}/profile`, { token: tech.token, body: { branch: 'Seattle', department: 'Electricians' } })
    expect(res.status).toBe(200)
    expect(res.body.user).toMatchObject({ id: tech.user.id, branch: 'Seattle', department: 'Electricians' })
    const events = await eventsFor('identity.user.updated.v1', tech.user.id)
    expect(events.at(-1)!.data).toMatchObject({ branch: 'Seattle', department: 'Electricians', name: 'Tom Tech' })
  })
  it('lets an admin set anyone’s profile', async () => {
    const res = await h.call('PUT', `/users/${other.user.id}/profile`, { token: admin.token, body: { branch: 'Portland', department: 'Testing' } })
    expect(res.status).toBe(200)
    expect(res.body.user.branch).toBe('Portland')
  })
  it('forbids changing another user’s profile and writes nothing', async () => {
    const before = await row(other.user.id)
    const res = await h.call('PUT', `/users/${other.user.id}/profile`, { token: tech.token, body: { branch: 'Seattle', department: 'Service' } })
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('forbidden')
    expect(await row(other.user.id)).toEqual(before)
    expect((await h.call('PUT', `/users/${other.user.id}/profile`, { body: { branch: 'Seattle', department: 'Service' } })).status).toBe(401)
  })
  it('validates branch, department and their combination', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ department: 'Service' }, MESSAGES.branchRequired],
      [{ branch: null, department: 'Service' }, MESSAGES.branchRequired],
      [{ branch: 'Seattle' }, MESSAGES.departmentRequired],
      [{}, MESSAGES.branchRequired],
      [{ branch: 'Seattle', department: 'Teleportation' }, 'Invalid option: expected one of "Service"|"Testing"|"Construction"|"Electricians"'],
      [{ branch: 'Anchorage', department: 'Electricians' }, 'That department does not exist in this branch'],
      [{ branch: 'Atlantis', department: 'Service' }, 'Invalid option: expected one of "Portland"|"Seattle"|"Anchorage"|"Tri-Cities"'],
    ]
    const eventsBefore = (await h.events()).length
    for (const [body, message] of cases) {
      const res = await h.call('PUT', `/users/${tech.user.id}/profile`, { token: tech.token, body })
      expect(res.status, message).toBe(400)
      expect(res.body).toMatchObject({ message, code: 'validation_failed' })
    }
    expect((await h.call('PUT', `/users/${tech.user.id}/profile`, { token: tech.token, raw: '{bad' })).status).toBe(400)
    expect((await h.events()).length).toBe(eventsBefore)
  })
  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    const bad = await h.call('PUT', '/users/123/profile', { token: admin.token, body: { branch: 'Seattle', department: 'Service' } })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ message: 'Invalid id', code: 'validation_failed' })
    const unknown = await h.call('PUT', `/users/${crypto.randomUUID()}/profile`, { token: admin.token, body: { branch: 'Seattle', department: 'Service' } })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ message: 'User not found', code: 'user_not_found' })
  })
})

describe('PATCH /users/{id}/group', () => {
  it('puts a user in an existing group (any case) and takes them out again', async () => {
    expect((await h.call('POST', '/admin/user-groups', { token: admin.token, body: { groupName: 'Field Crew' } })).status).toBe(201)
    const res = await h.call('PATCH', `/users/${tech.user.id}/group`, { token: admin.token, body: { userGroup: 'field crew' } })
    expect(res.status).toBe(200)
    expect(res.body.user.user_group).toBe('Field Crew')
    expect((await eventsFor('identity.user.updated.v1', tech.user.id)).at(-1)!.data.userGroup).toBe('Field Crew')
    const cleared = await h.call('PATCH', `/users/${tech.user.id}/group`, { token: admin.token, body: { userGroup: '' } })
    expect(cleared.body.user.user_group).toBeNull()
    const nulled = await h.call('PATCH', `/users/${tech.user.id}/group`, { token: admin.token, body: { userGroup: null } })
    expect(nulled.status).toBe(200)
  })
  it('refuses an unknown group and writes nothing', async () => {
    const eventsBefore = (await h.events()).length
    const res = await h.call('PATCH', `/users/${tech.user.id}/group`, { token: admin.token, body: { userGroup: 'Nope' } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ message: 'Unknown user group', code: 'unknown_user_group' })
    expect((await h.events()).length).toBe(eventsBefore)
  })
  it('is for admins only and validates the body', async () => {
    expect((await h.call('PATCH', `/users/${tech.user.id}/group`, { token: tech.token, body: { userGroup: null } })).status).toBe(403)
    const missing = await h.call('PATCH', `/users/${tech.user.id}/group`, { token: admin.token, body: {} })
    expect(missing.status).toBe(400)
    expect(missing.body.code).toBe('validation_failed')
    expect((await h.call('PATCH', `/users/${tech.user.id}/group`, { token: admin.token, body: { userGroup: 5 } })).status).toBe(400)
    expect((await h.call('PATCH', `/users/${crypto.randomUUID()}/group`, { token: admin.token, body: { userGroup: null } })).status).toBe(404)
  })
})

describe('PUT /users/{id}/roles', () => {
  it('grants manager with a scope, then removes it', async () => {
    const res = await h.call('PUT', `/users/${other.user.id}/roles`, {
      token: admin.token,
      body: { is_manager: true, manager_scope: { branches: ['Portland', 'Portland'], departments: ['Service'] } },
    })
    expect(res.status).toBe(200)
    expect(res.body.user).toMatchObject({ is_manager: true, manager_scope: { branches: ['Portland'], departments: ['Service'] } })
    expect((await eventsFor('identity.user.updated.v1', other.user.id)).at(-1)!.data).toMatchObject({ isManager: true })
    // The next sign-in carries the manager role and scope.
    const login = await h.call('POST', '/auth/login', { body: { email: other.email, password: other.password } })
    const claims = JSON.parse(Buffer.from(login.body.token.split('.')[1], 'base64url').toString())
    expect(claims).toMatchObject({ roles: ['manager'], scope: { branches: ['Portland'], departments: ['Service'] } })
    const removed = await h.call('PUT', `/users/${other.user.id}/roles`, { token: admin.token, body: { is_manager: false } })
    expect(removed.body.user).toMatchObject({ is_manager: false, manager_scope: { branches: [], departments: [] } })
  })
  it('is for admins only and validates the body', async () => {
    expect((await h.call('PUT', `/users/${tech.user.id}/roles`, { token: tech.token, body: { is_manager: true } })).status).toBe(403)
    const bad = await h.call('PUT', `/users/${tech.user.id}/roles`, { token: admin.token, body: { is_manager: 'yes' } })
    expect(bad.status).toBe(400)
    const badScope = await h.call('PUT', `/users/${tech.user.id}/roles`, { token: admin.token, body: { is_manager: true, manager_scope: { branches: ['Mars'], departments: [] } } })
    expect(badScope.status).toBe(400)
    expect((await row(tech.user.id)).is_manager).toBe(false)
    expect((await h.call('PUT', `/users/${crypto.randomUUID()}/roles`, { token: admin.token, body: { is_manager: true } })).status).toBe(404)
  })
})

describe('PUT /users/{id}/employment', () => {
  it('sets the hire date and employee id, announces them, and leaves an absent key as it is', async () => {
    const res = await h.call('PUT', `/users/${other.user.id}/employment`, { token: admin.token, body: { employee_id: 'E7001', hire_date: '2026-10-01' } })
    expect(res.status).toBe(200)
    expect(res.body.user).toMatchObject({ employee_id: 'E7001', hire_date: '2026-10-01' })
    expect((await eventsFor('identity.user.updated.v1', other.user.id)).at(-1)!.data).toMatchObject({ employeeId: 'E7001', hireDate: '2026-10-01' })
    const cleared = await h.call('PUT', `/users/${other.user.id}/employment`, { token: admin.token, body: { hire_date: null } })
    expect(cleared.body.user).toMatchObject({ employee_id: 'E7001', hire_date: null })
  })
  it('is for admins only and names the bad field', async () => {
    expect((await h.call('PUT', `/users/${tech.user.id}/employment`, { token: tech.token, body: { hire_date: '2020-01-01' } })).status).toBe(403)
    const bad = await h.call('PUT', `/users/${tech.user.id}/employment`, { token: admin.token, body: { hire_date: '2026-13-01' } })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.body.details)).toContain('hire_date')
    expect((await h.call('PUT', `/users/${tech.user.id}/employment`, { token: admin.token, body: {} })).status).toBe(400)
    expect((await row(tech.user.id)).hire_date).toBeNull()
    expect((await h.call('PUT', `/users/${crypto.randomUUID()}/employment`, { token: admin.token, body: { hire_date: '2020-01-01' } })).status).toBe(404)
  })
})

describe('DELETE /users/{id}', () => {
  it('deletes a user and records the event', async () => {
    const victim = await h.signUp({ name: 'Zed Gone' })
    const res = await h.call('DELETE', `/users/${victim.user.id}`, { token: admin.token })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ message: 'User deleted successfully' })
    expect(await row(victim.user.id)).toBeUndefined()
    expect(await eventsFor('identity.user.deleted.v1', victim.user.id)).toHaveLength(1)
    expect((await h.call('DELETE', `/users/${victim.user.id}`, { token: admin.token })).status).toBe(404)
    expect((await h.call('POST', '/auth/login', { body: { email: victim.email, password: victim.password } })).status).toBe(401)
  })
  it('refuses to delete yourself, non-admin callers and malformed ids', async () => {
    const self = await h.call('DELETE', `/users/${admin.user.id}`, { token: admin.token })
    expect(self.status).toBe(400)
    expect(self.body).toEqual({ message: 'You cannot delete your own account', code: 'cannot_delete_self' })
    expect((await h.call('DELETE', `/users/${other.user.id}`, { token: tech.token })).status).toBe(403)
    expect((await h.call('DELETE', `/users/${other.user.id}`)).status).toBe(401)
    expect((await h.call('DELETE', '/users/not-a-uuid', { token: admin.token })).status).toBe(400)
    expect(await row(other.user.id)).toBeDefined()
  })
})
