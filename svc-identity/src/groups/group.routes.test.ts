import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MESSAGES } from '@portal/contracts'
import { createHarness, type Harness } from '../harness.test-support.ts'

let h: Harness
let admin: Awaited<ReturnType<Harness['signUp']>>
let tech: Awaited<ReturnType<Harness['signUp']>>

beforeAll(async () => {
  h = await createHarness()
  admin = await h.signUp({ admin: true })
  tech = await h.signUp()
})
afterAll(async () => {
  await h?.close()
})

const countGroups = async () => Number((await h.sql<{ n: string }>('select count(*) as n from user_groups'))[0]!.n)

describe('/admin/user-groups', () => {
  it('creates groups and lists them by name', async () => {
    const created = await h.call('POST', '/admin/user-groups', { token: admin.token, body: { groupName: '  Seattle Crew ' } })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ name: 'Seattle Crew' })
    expect(created.body.id).toMatch(/^[0-9a-f-]{36}$/)
    // Announced, so notify makes the group's notification rule.
    expect((await h.events('identity.group.created.v1')).map((e) => e.data)).toContainEqual({ groupId: created.body.id, name: 'Seattle Crew', createdAt: created.body.created_at })
    await h.call('POST', '/admin/user-groups', { token: admin.token, body: { groupName: 'Anchorage Crew' } })
    const list = await h.call('GET', '/admin/user-groups', { token: admin.token })
    expect(list.status).toBe(200)
    expect(list.body.map((g: { name: string }) => g.name)).toEqual(['Anchorage Crew', 'Seattle Crew'])
  })
  it('refuses a duplicate name whatever its case', async () => {
    const before = await countGroups()
    const res = await h.call('POST', '/admin/user-groups', { token: admin.token, body: { groupName: 'SEATTLE crew' } })
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ message: 'A group with this name already exists', code: 'group_exists' })
    expect(await countGroups()).toBe(before)
  })
  it('requires a group name', async () => {
    for (const body of [{}, { groupName: '   ' }, { groupName: 7 }]) {
      const res = await h.call('POST', '/admin/user-groups', { token: admin.token, body })
      expect(res.status).toBe(400)
      expect(res.body.code).toBe('validation_failed')
    }
    const blank = await h.call('POST', '/admin/user-groups', { token: admin.token, body: { groupName: '' } })
    expect(blank.body.message).toBe(MESSAGES.groupNameRequired)
    const long = await h.call('POST', '/admin/user-groups', { token: admin.token, body: { groupName: 'x'.repeat(101) } })
    expect(long.status).toBe(400)
    expect((await h.call('POST', '/admin/user-groups', { token: admin.token, raw: '{' })).status).toBe(400)
  })
  it('is for admins only', async () => {
    expect((await h.call('GET', '/admin/user-groups', { token: tech.token })).status).toBe(403)
    expect((await h.call('POST', '/admin/user-groups', { token: tech.token, body: { groupName: 'Mine' } })).status).toBe(403)
    expect((await h.call('GET', '/admin/user-groups')).status).toBe(401)
    expect((await h.call('POST', '/admin/user-groups', { body: { groupName: 'Mine' } })).status).toBe(401)
  })
})
