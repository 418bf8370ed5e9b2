import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Events } from '@portal/contracts'
import { silentLogger } from '@portal/server-kit/testing'
import { createHarness, type Harness } from '../harness.test-support.ts'
import { UserEntity, userFacts } from '../users/index.ts'
import { createBackfillHandler } from './backfill.consumer.ts'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(async () => {
  await h?.close()
})

describe('identity.users.backfill-requested.v1', () => {
  it('announces every user once more with their current facts, once per request', async () => {
    await h.signUp({ name: 'First' })
    await h.signUp({ name: 'Second' })
    const admin = await h.signUp({ admin: true })
    expect((await h.call('POST', '/admin/user-groups', { token: admin.token, body: { groupName: 'Backfill Crew' } })).status).toBe(201)
    const groupsBefore = (await h.events('identity.group.created.v1')).length
    const handle = createBackfillHandler({ orm: h.orm, logger: silentLogger })
    const before = (await h.events('identity.user.updated.v1')).length
    const request = { id: crypto.randomUUID(), type: 'identity.users.backfill-requested.v1', occurredAt: new Date().toISOString(), data: { consumer: 'certs-users' } }
    await handle(request)
    await handle(request) // a redelivery
    const announced = (await h.events('identity.user.updated.v1')).slice(before)
    const users = await h.orm.em.fork().find(UserEntity, {})
    expect(announced).toHaveLength(users.length)
    for (const e of announced) {
      const facts = Events['identity.user.updated.v1'].parse(e.data)
      expect(facts).toEqual(userFacts(users.find((u) => u.id === facts.userId)!))
    }
    // Every group once more too (notify's rules are made from them).
    const groups = (await h.events('identity.group.created.v1')).slice(groupsBefore).map((e) => Events['identity.group.created.v1'].parse(e.data))
    expect(groups.map((g) => g.name)).toEqual(['Backfill Crew'])
  })
})
