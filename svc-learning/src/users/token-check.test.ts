// Tokens that outlived their facts (issue 9 item 4): the projection of identity's users refuses them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Exam, MESSAGES } from '@portal/contracts'
import { createHarness, examInput, type Harness, type TestUser } from '../harness.test-support.ts'

let h: Harness
let admin: TestUser
beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true })
})
afterAll(async () => {
  await h?.close()
})

const stale = { message: MESSAGES.sessionExpired, code: 'token_stale', expired: true }
/** Publishes identity's event for the user, as identity's outbox would. */
const publish = (type: string, data: Record<string, unknown>) => h.bus.publish({ id: crypto.randomUUID(), type, occurredAt: new Date().toISOString(), data })
const facts = (u: TestUser, over: Record<string, unknown>) => ({ ...u.actor, branch: 'Portland', department: 'Service', userGroup: null, ...over })

describe('the token check of every bearer route', () => {
  it('refuses a demoted manager’s token once the update reaches the projection; a token of the new version passes', async () => {
    const manager = await h.user({ manager: { branches: ['Portland'], departments: [] }, branch: 'Portland', department: 'Service' })
    const tech = await h.user({ branch: 'Portland', department: 'Service' })
    expect((await h.call('GET', `/users/${tech.id}/stats`, { token: manager.token })).status).toBe(200)
    await publish('identity.user.updated.v1', facts(manager, { isManager: false, managerScope: { branches: [], departments: [] }, authVersion: 1 }))
    // Within the check's short memory of the user (1 s).
    await expect.poll(async () => (await h.call('GET', `/users/${tech.id}/stats`, { token: manager.token })).body, { timeout: 3_000 }).toEqual(stale)
    const [row] = await h.sql('select auth_version from users where id = ?', [manager.id])
    expect(row).toEqual({ auth_version: 1 })
    const renewed = await h.issuer.sign({ ...manager.actor, isManager: false, managerScope: { branches: [], departments: [] }, tokenVersion: 1 })
    expect((await h.call('GET', `/users/${manager.id}/stats`, { token: renewed })).status).toBe(200)
    expect((await h.call('GET', `/users/${tech.id}/stats`, { token: renewed })).status).toBe(403)
  })

  it('refuses a deleted user’s token: no attempt started, no content launched', async () => {
    const exam = Exam.parse((await h.call('POST', '/exams', { token: admin.token, body: examInput({ name: 'After deletion' }) })).body)
    const gone = await h.user()
    expect((await h.call('GET', '/exams', { token: gone.token })).status).toBe(200)
    await publish('identity.user.deleted.v1', { userId: gone.id })
    await expect.poll(async () => (await h.call('GET', '/courses/with-progress', { token: gone.token })).body, { timeout: 3_000 }).toEqual(stale)
    expect((await h.call('POST', `/exams/${exam.id}/attempts`, { token: gone.token })).body).toEqual(stale)
    expect((await h.call('GET', '/scorm/1/launch', { token: gone.token })).body).toEqual(stale)
    expect(await h.sql('select id from exam_attempts where user_id = ?', [gone.id])).toEqual([])
  })

  it('lets a token through whose user the projection does not know yet, and an event without a version lowers nothing', async () => {
    const early = await h.issuer.sign({
      userId: crypto.randomUUID(),
      email: 'early@acme.test',
      name: 'Early',
      isAdmin: false,
      isManager: false,
      managerScope: { branches: [], departments: [] },
    })
    expect((await h.call('GET', '/exams', { token: early })).status).toBe(200)
    const u = await h.user()
    await publish('identity.user.updated.v1', facts(u, { authVersion: 3 }))
    await publish('identity.user.updated.v1', facts(u, { name: 'Renamed' })) // an older producer's event
    const [row] = await h.sql('select name, auth_version from users where id = ?', [u.id])
    expect(row).toEqual({ name: 'Renamed', auth_version: 3 })
  })
})
