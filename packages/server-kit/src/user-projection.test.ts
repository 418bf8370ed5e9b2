import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventEnvelope } from '@portal/contracts'
import type { Actor } from './auth.ts'
import { createInProcessBus } from './bus.ts'
import { openDatabase, type Database } from './db.ts'
import { startOutboxRelay } from './outbox.ts'
import { createTestDatabase, silentLogger } from './testing.ts'
import { ProjectedUser, UserProjectionTables, createUserProjection, requireReadableUser, type UserFacts } from './user-projection.ts'

let testDb: { url: string; drop(): Promise<void> }
let db: Database
const deletedWork: string[] = []
/** The user's branch as the onUpserted hook read it in the event's transaction. */
const upserted: { userId: string; branch: string | null }[] = []
let projection: ReturnType<typeof createUserProjection>

beforeAll(async () => {
  testDb = await createTestDatabase('server_kit_users')
  db = await openDatabase({
    service: 'users-test',
    url: testDb.url,
    dataDir: '/tmp',
    entities: [ProjectedUser],
    migrations: [{ name: '0001_users', class: UserProjectionTables }],
    logger: silentLogger,
  })
  projection = createUserProjection({
    orm: db.orm,
    logger: silentLogger,
    consumer: 'test-users',
    onDeleted: async (em, userId) => {
      await em.execute('select 1')
      deletedWork.push(userId)
    },
    onUpserted: async (em, userId) => {
      const [row] = (await em.execute('select branch from users where id = ?', [userId])) as { branch: string | null }[]
      upserted.push({ userId, branch: row!.branch })
    },
  })
})
afterAll(async () => {
  await db?.close()
  await testDb?.drop()
})

const at = (iso: string) => new Date(iso)
const event = (type: string, data: unknown, occurredAt: Date): EventEnvelope => ({ id: crypto.randomUUID(), type, occurredAt: occurredAt.toISOString(), data })
const facts = (userId: string, over: Partial<UserFacts> = {}): UserFacts => ({
  userId,
  name: 'Pat Portland',
  email: 'pat@acme.test',
  isAdmin: false,
  isManager: false,
  managerScope: { branches: [], departments: [] },
  branch: 'Portland',
  department: 'Service',
  userGroup: null,
  ...over,
})

describe('the user projection', () => {
  it('stores every fact, newer facts win in whatever order they arrive, and a redelivery is a no-op', async () => {
    const id = crypto.randomUUID()
    const registered = event(
      'identity.user.registered.v1',
      facts(id, { employeeId: 'E1', hireDate: '2022-01-10', authVersion: 1, isManager: true, managerScope: { branches: ['Portland'], departments: [] } }),
      at('2025-01-01T10:00:00Z'),
    )
    await projection.handle(registered)
    expect(await projection.find(id)).toMatchObject({
      name: 'Pat Portland',
      employeeId: 'E1',
      hireDate: '2022-01-10',
      authVersion: 1,
      isManager: true,
      managerScope: { branches: ['Portland'], departments: [] },
      deletedAt: null,
    })
    await projection.handle(event('identity.user.updated.v1', facts(id, { name: 'Pat Newer', authVersion: 2 }), at('2025-01-03T10:00:00Z')))
    // Older than what is stored: ignored, whatever it says.
    await projection.handle(event('identity.user.updated.v1', facts(id, { name: 'Pat Older', authVersion: 5 }), at('2025-01-02T10:00:00Z')))
    await projection.handle(registered)
    // Facts an older identity did not send (employee id, hire date) keep what is stored.
    expect(await projection.find(id)).toMatchObject({ name: 'Pat Newer', employeeId: 'E1', hireDate: '2022-01-10', authVersion: 2 })
    const inbox = (await db.orm.em.fork().execute('select count(*)::int as n from inbox where consumer = ? and event_id = ?', ['test-users', registered.id])) as { n: number }[]
    expect(inbox).toEqual([{ n: 1 }])
  })

  it('is final about a deletion: facts are forgotten, the service’s own deletion work runs once, nothing brings the user back', async () => {
    const id = crypto.randomUUID()
    await projection.handle(event('identity.user.registered.v1', facts(id, { employeeId: 'E2' }), at('2025-02-01T10:00:00Z')))
    const deleted = event('identity.user.deleted.v1', { userId: id }, at('2025-02-02T10:00:00Z'))
    await projection.handle(deleted)
    await projection.handle(deleted)
    await projection.handle(event('identity.user.updated.v1', facts(id, { name: 'Skewed' }), at('2025-02-02T10:00:01Z')))
    expect(await projection.find(id)).toMatchObject({ name: null, email: null, employeeId: null, branch: null })
    expect((await projection.find(id))!.deletedAt).not.toBeNull()
    expect(await projection.findExisting(id)).toBeNull()
    expect(deletedWork.filter((u) => u === id)).toEqual([id])
    // A deletion that overtook the registration.
    const other = crypto.randomUUID()
    await projection.handle(event('identity.user.deleted.v1', { userId: other }, at('2025-02-05T10:00:00Z')))
    await projection.handle(event('identity.user.registered.v1', facts(other), at('2025-02-04T10:00:00Z')))
    expect((await projection.find(other))!.deletedAt).not.toBeNull()
  })

  it('runs the service’s upsert work on the stored row once per stored fact, never for a stale, redelivered or post-deletion event', async () => {
    const id = crypto.randomUUID()
    const registered = event('identity.user.registered.v1', facts(id, { branch: 'Seattle' }), at('2025-03-01T10:00:00Z'))
    await projection.handle(registered)
    await projection.handle(registered)
    await projection.handle(event('identity.user.updated.v1', facts(id, { branch: 'Anchorage' }), at('2025-03-03T10:00:00Z')))
    // Older than what is stored: not stored, so no work.
    await projection.handle(event('identity.user.updated.v1', facts(id, { branch: 'Portland' }), at('2025-03-02T10:00:00Z')))
    await projection.handle(event('identity.user.deleted.v1', { userId: id }, at('2025-03-04T10:00:00Z')))
    await projection.handle(event('identity.user.updated.v1', facts(id, { branch: 'Tri-Cities' }), at('2025-03-05T10:00:00Z')))
    expect(upserted.filter((u) => u.userId === id)).toEqual([
      { userId: id, branch: 'Seattle' },
      { userId: id, branch: 'Anchorage' },
    ])
  })

  it('drops a malformed event and ignores other subjects', async () => {
    const id = crypto.randomUUID()
    await projection.handle(event('identity.user.registered.v1', { userId: id, name: 'No e-mail' }, new Date()))
    await projection.handle(event('identity.verification.requested.v1', { userId: id }, new Date()))
    expect(await projection.find(id)).toBeNull()
  })

  it('asks identity once for every user, through the outbox', async () => {
    const bus = createInProcessBus()
    const requests: EventEnvelope[] = []
    await bus.subscribe('identity-backfill', ['identity.users.backfill-requested.v1'], async (e) => void requests.push(e))
    const relay = startOutboxRelay({ orm: db.orm, bus, logger: silentLogger, intervalMs: 60_000 })
    try {
      expect(await projection.requestBackfill()).toBe(true)
      expect(await projection.requestBackfill()).toBe(false)
      await relay.flush()
      expect(requests.map((r) => [r.type, r.data])).toEqual([['identity.users.backfill-requested.v1', { consumer: 'test-users' }]])
      const [row] = (await db.orm.em.fork().execute('select event_id from user_projection_backfills where consumer = ?', ['test-users'])) as { event_id: string }[]
      expect(row!.event_id).toBe(requests[0]!.id)
    } finally {
      await relay.stop()
      await bus.close()
    }
  })
})

describe('requireReadableUser', () => {
  const actor = (over: Partial<Actor> = {}): Actor => ({
    userId: crypto.randomUUID(),
    email: 'x@acme.test',
    name: 'X',
    isAdmin: false,
    isManager: false,
    managerScope: { branches: [], departments: [] },
    ...over,
  })
  it('lets the user, admins and managers whose scope covers the user in; others get 403, unknown and deleted users 404', async () => {
    const id = crypto.randomUUID()
    await projection.handle(event('identity.user.registered.v1', facts(id, { branch: 'Seattle', department: 'Testing' }), new Date()))
    const em = () => db.orm.em.fork()
    expect(await requireReadableUser(em(), actor({ userId: id }), id)).toMatchObject({ id })
    expect(await requireReadableUser(em(), actor({ isAdmin: true }), id)).toMatchObject({ id })
    expect(await requireReadableUser(em(), actor({ isManager: true, managerScope: { branches: ['Seattle'], departments: [] } }), id)).toMatchObject({ id })
    await expect(requireReadableUser(em(), actor({ isManager: true, managerScope: { branches: ['Portland'], departments: [] } }), id)).rejects.toMatchObject({ status: 403 })
    await expect(requireReadableUser(em(), actor(), id)).rejects.toMatchObject({ status: 403 })
    await expect(requireReadableUser(em(), actor({ isAdmin: true }), crypto.randomUUID())).rejects.toMatchObject({ status: 404, code: 'user_not_found' })
    // The caller themself before their registration arrived.
    const fresh = crypto.randomUUID()
    expect(await requireReadableUser(em(), actor({ userId: fresh }), fresh)).toBeNull()
  })

  it('takes a manager’s role and scope from the projection when it knows them: a scope narrowed after the token was signed no longer covers', async () => {
    const id = crypto.randomUUID()
    await projection.handle(event('identity.user.registered.v1', facts(id, { branch: 'Anchorage', department: 'Testing' }), new Date()))
    const manager = actor({ isManager: true, managerScope: { branches: [], departments: [] } })
    const em = () => db.orm.em.fork()
    // Not in the projection yet: the token's scope (everything).
    expect(await requireReadableUser(em(), manager, id)).toMatchObject({ id })
    await projection.handle(event('identity.user.updated.v1', facts(manager.userId, { isManager: true, managerScope: { branches: ['Portland'], departments: [] } }), new Date()))
    await expect(requireReadableUser(em(), manager, id)).rejects.toMatchObject({ status: 403 })
    await projection.handle(
      event('identity.user.updated.v1', facts(manager.userId, { isManager: false, managerScope: { branches: [], departments: [] } }), new Date(Date.now() + 1_000)),
    )
    await expect(requireReadableUser(em(), manager, id)).rejects.toMatchObject({ status: 403 })
  })
})
