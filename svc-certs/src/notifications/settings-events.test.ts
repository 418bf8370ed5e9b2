import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EventEnvelope, Events, type Branch, type Department } from '@portal/contracts'
import { openDatabase } from '@portal/server-kit'
import { createTestDatabase, outboxEvents, silentLogger, sqlOf } from '@portal/server-kit/testing'
import { createHarness, type Harness, type TestUser } from '../harness.test-support.ts'
import { migrationsList } from '../migrations/index.ts'
import { entities } from '../server.ts'

/**
 * Issue 24: svc-notify's inputs from certs: a branch/department configuration as it stands
 * (`certs.notification-config.changed.v1`, for the operations address of escalations) and a
 * technician's pause (`certs.notification-pause.changed.v1`), each announced in the transaction of
 * the change, and every existing one once by migration 0010.
 */
let h: Harness
let admin: TestUser
beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true, branch: null, department: null })
})
afterAll(() => h?.close())

const configEvents = async (configId: number) =>
  (await h.events('certs.notification-config.changed.v1')).map((e) => Events['certs.notification-config.changed.v1'].parse(e.data)).filter((d) => d.configId === configId)
const pauseEvents = async (userId: string) =>
  (await h.events('certs.notification-pause.changed.v1')).map((e) => Events['certs.notification-pause.changed.v1'].parse(e.data)).filter((d) => d.userId === userId)
const configId = async (branch: Branch, department: Department) =>
  ((await h.call('GET', `/certification-notifications/configs/${branch}/${department}`, { token: admin.token })).body.config as { id: number }).id

describe('certs.notification-config.changed.v1', () => {
  it('announces a configuration as it stands after each change (filled, activated, deactivated), not after a refused or empty one', async () => {
    const id = await configId('Anchorage', 'Construction')
    const put = (body: Record<string, unknown>) => h.call('PUT', `/certification-notifications/configs/${id}`, { token: admin.token, body })
    // Migration 0010 announced it once as it was.
    expect(await configEvents(id)).toEqual([expect.objectContaining({ configId: id, branch: 'Anchorage', department: 'Construction', managerEmail: null, isActive: false })])
    // Refused (activating without an address): nothing stored, nothing announced.
    expect(await put({ is_active: true })).toMatchObject({ status: 400, body: { code: 'config_empty' } })
    expect(await configEvents(id)).toHaveLength(1)
    expect((await put({ manager_email: 'Boss@Acme.test', operations_manager_email: 'ops@acme.test' })).status).toBe(200)
    expect((await put({ is_active: true })).status).toBe(200)
    // The same values again change nothing and announce nothing.
    expect((await put({ is_active: true })).status).toBe(200)
    expect((await put({ is_active: false })).status).toBe(200)
    const events = await configEvents(id)
    expect(events.map((e) => [e.managerEmail, e.operationsManagerEmail, e.isActive])).toEqual([
      [null, null, false],
      ['boss@acme.test', 'ops@acme.test', false],
      ['boss@acme.test', 'ops@acme.test', true],
      ['boss@acme.test', 'ops@acme.test', false],
    ])
  })
})

describe('certs.notification-pause.changed.v1', () => {
  it('announces a pause with its end and a resume with none; a refused pause announces nothing', async () => {
    const tech = await h.user({ name: 'Paused Pat' })
    const other = await h.user({ name: 'Other Olly' })
    const paused = await h.call('POST', '/technician/pause-notifications', { token: tech.token, body: { userId: tech.id } })
    expect(paused.status).toBe(200)
    expect(await h.call('POST', '/technician/pause-notifications', { token: other.token, body: { userId: tech.id } })).toMatchObject({ status: 403 })
    expect(
      await h.call('POST', '/technician/pause-notifications', { token: tech.token, body: { userId: tech.id, pauseUntil: new Date(h.now().getTime() - 60_000).toISOString() } }),
    ).toMatchObject({ status: 400 })
    expect((await h.call('POST', '/technician/resume-notifications', { token: admin.token, body: { userId: tech.id } })).status).toBe(200)
    const events = await pauseEvents(tech.id)
    expect(events).toEqual([
      { userId: tech.id, pausedUntil: paused.body.notifications_paused_until, at: expect.any(String) },
      { userId: tech.id, pausedUntil: null, at: expect.any(String) },
    ])
    expect(await pauseEvents(other.id)).toEqual([])
  })
})

describe('migration 0010', () => {
  it('announces every existing configuration and every current pause once, as events the contracts’ schemas read', async () => {
    const db = await createTestDatabase('certs_announce')
    const open = (migrations = migrationsList) => openDatabase({ service: 'certs', url: db.url, dataDir: '/tmp/unused', entities, migrations, logger: silentLogger })
    try {
      // The database as it was before: configurations filled, one technician paused, one whose pause ended, one never paused.
      const before = await open(migrationsList.filter((m) => m.name < '0010'))
      const sql = sqlOf(before.orm)
      await sql(
        "update notification_configs set manager_email = 'm@acme.test', operations_manager_email = 'ops@acme.test', is_active = true where branch = 'Seattle' and department = 'Service'",
      )
      const [paused, ended, never] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()]
      await sql(
        `insert into technicians (user_id, current_tier, notifications_paused_until, updated_at) values
           (?, 0, '2099-01-02T03:04:05.678Z', now()), (?, 0, now() - interval '1 day', now()), (?, 1, null, now())`,
        [paused, ended, never],
      )
      expect(await outboxEvents(sql)).toEqual([])
      await before.close()

      const after = await open()
      const events = await outboxEvents(sqlOf(after.orm))
      const configs = events.filter((e) => e.type === 'certs.notification-config.changed.v1')
      expect(configs).toHaveLength(14)
      // Envelopes as the bus takes them, each with its own id.
      for (const e of events) expect(EventEnvelope.safeParse(e).success).toBe(true)
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length)
      const seattle = configs.map((e) => Events['certs.notification-config.changed.v1'].parse(e.data)).find((d) => d.branch === 'Seattle' && d.department === 'Service')
      expect(seattle).toMatchObject({ managerEmail: 'm@acme.test', operationsManagerEmail: 'ops@acme.test', isActive: true })
      const pauses = events.filter((e) => e.type === 'certs.notification-pause.changed.v1').map((e) => Events['certs.notification-pause.changed.v1'].parse(e.data))
      expect(pauses).toEqual([{ userId: paused, pausedUntil: '2099-01-02T03:04:05.678Z', at: expect.any(String) }])
      await after.close()
      // Once: a later start announces nothing again.
      const again = await open()
      expect(await outboxEvents(sqlOf(again.orm))).toHaveLength(15)
      await again.close()
    } finally {
      await db.drop()
    }
  })
})
