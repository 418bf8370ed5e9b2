import pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Events, type EventEnvelope, type EventType } from '@portal/contracts'
import { assignmentRoutines, createInProcessBus, openDatabase } from '@portal/server-kit'
import { createTestDatabase, silentLogger } from '@portal/server-kit/testing'
import { entities } from '../server.ts'
import { migrationsList } from '../migrations/index.ts'
import { createCertsHandler, subscribeCerts } from './index.ts'

const TYPE = 12
const OTHER_TYPE = 13

let testDb: Awaited<ReturnType<typeof createTestDatabase>>
let db: Awaited<ReturnType<typeof openDatabase>>
let c: pg.Client
const bus = createInProcessBus()
let handler: ReturnType<typeof createCertsHandler>

beforeAll(async () => {
  testDb = await createTestDatabase('learning_certs')
  db = await openDatabase({
    service: 'learning',
    url: testDb.url,
    dataDir: '/tmp/unused',
    entities,
    migrations: migrationsList,
    routines: assignmentRoutines(),
    logger: silentLogger,
  })
  c = new pg.Client({ connectionString: testDb.url })
  await c.connect()
  handler = createCertsHandler({ orm: db.orm, logger: silentLogger })
  await subscribeCerts(bus, handler)
  await c.query(`insert into courses (id, title, is_assigned_to_all, created_at, updated_at) values (7, 'Lockout/Tagout', false, now(), now())`)
})
afterAll(async () => {
  await bus.close()
  await c?.end()
  await db?.close()
  await testDb?.drop()
})
beforeEach(async () => {
  await c.query('truncate assignment_people, certification_expiries, outbox, inbox')
  await c.query('delete from assignment_rules')
})

let nextRule = 1
async function rule(recurrence: unknown, deleted = false): Promise<number> {
  const id = nextRule++
  await c.query(
    `insert into assignment_rules (id, item_kind, item_id, audience, due, recurrence, due_soon_days, reminders, created_at, updated_at, deleted_at)
     values ($1, 'course', 7, '{"kind":"everyone"}', '{"kind":"relative","days":30,"from":"assignment"}', $2, 7, '{}', now(), now(), case when $3 then now() end)`,
    [id, JSON.stringify(recurrence), deleted],
  )
  return id
}
const following = (days_before = 60, type = TYPE) => ({ kind: 'certification', certification_type_id: type, days_before })

async function person(ruleId: number, user: string, o: { assigned: string; due: string; completed?: string; removed?: boolean }) {
  await c.query(
    `insert into assignment_people (rule_id, user_id, assigned_on, due_on, completed_on, removed_at, updated_at)
     values ($1, $2, $3, $4, $5, case when $6 then now() end, now())`,
    [ruleId, user, o.assigned, o.due, o.completed ?? null, Boolean(o.removed)],
  )
}
const row = async (ruleId: number, user: string) =>
  (
    await c.query(
      `select to_char(due_on, 'YYYY-MM-DD') as due_on, to_char(opens_on, 'YYYY-MM-DD') as opens_on, to_char(next_due_on, 'YYYY-MM-DD') as next_due_on,
              to_char(next_opens_on, 'YYYY-MM-DD') as next_opens_on, version
         from assignment_people where rule_id = $1 and user_id = $2`,
      [ruleId, user],
    )
  ).rows[0] as { due_on: string; opens_on: string | null; next_due_on: string | null; next_opens_on: string | null; version: number }

let at = Date.parse('2026-11-28T10:00:00Z')
/** A certs event, each one later than the last unless `occurredAt` says otherwise. */
function certEvent<T extends 'certs.certification.added.v1' | 'certs.certification.updated.v1' | 'certs.certification.deleted.v1'>(
  type: T,
  data: { certificationId: number; userId: string; expirationDate?: string | null; certificationTypeId?: number },
  occurredAt = new Date((at += 1000)).toISOString(),
): EventEnvelope {
  const facts =
    type === 'certs.certification.deleted.v1'
      ? { certificationId: data.certificationId, userId: data.userId, certificationTypeId: data.certificationTypeId ?? TYPE }
      : {
          certificationId: data.certificationId,
          userId: data.userId,
          certificationTypeId: data.certificationTypeId ?? TYPE,
          code: 'LOTO',
          name: 'Lockout/Tagout',
          tierLevel: 1,
          obtainedDate: '2025-01-01',
          expirationDate: data.expirationDate ?? null,
          hasFile: false,
        }
  return { id: crypto.randomUUID(), type, occurredAt, data: Events[type as EventType].parse(facts) }
}
const changed = async () => (await c.query("select count(*)::int as n from outbox where type = 'learning.assignment.changed.v1'")).rows[0]!.n as number

describe('the certs consumer', () => {
  it('moves an outstanding cycle to the new expiry, opening days_before ahead, and announces the change', async () => {
    const ruleId = await rule(following(60))
    const user = crypto.randomUUID()
    await person(ruleId, user, { assigned: '2026-11-01', due: '2026-12-31' })
    await bus.publish(certEvent('certs.certification.added.v1', { certificationId: 1, userId: user, expirationDate: '2027-06-30' }))
    expect(await row(ruleId, user)).toMatchObject({ due_on: '2027-06-30', opens_on: '2027-05-01', version: 2 })
    // The insert's announcement, then the move's.
    const events = (await c.query("select payload from outbox where type = 'learning.assignment.changed.v1' order by seq")).rows.map((r) =>
      Events['learning.assignment.changed.v1'].parse((r as { payload: { data: unknown } }).payload.data),
    )
    expect(events).toHaveLength(2)
    expect(events[1]).toMatchObject({ ruleId, userId: user, dueOn: '2027-06-30', opensOn: '2027-05-01', version: 2 })
  })

  it('opens a cycle at once when days_before ahead of the expiry is not after the assignment day', async () => {
    const ruleId = await rule(following(90))
    const user = crypto.randomUUID()
    await person(ruleId, user, { assigned: '2026-11-01', due: '2026-12-31' })
    await bus.publish(certEvent('certs.certification.added.v1', { certificationId: 1, userId: user, expirationDate: '2027-01-15' }))
    expect(await row(ruleId, user)).toMatchObject({ due_on: '2027-01-15', opens_on: null })
  })

  it('gives a completed cycle its next cycle from a renewed expiry later than the completion, and nothing from an earlier one', async () => {
    const ruleId = await rule(following(60))
    const renewed = crypto.randomUUID()
    const stale = crypto.randomUUID()
    await person(ruleId, renewed, { assigned: '2025-11-01', due: '2026-11-30', completed: '2026-11-20' })
    await person(ruleId, stale, { assigned: '2025-11-01', due: '2026-11-30', completed: '2026-11-20' })
    await bus.publish(certEvent('certs.certification.added.v1', { certificationId: 1, userId: renewed, expirationDate: '2028-11-20' }))
    await bus.publish(certEvent('certs.certification.added.v1', { certificationId: 2, userId: stale, expirationDate: '2026-11-20' }))
    expect(await row(ruleId, renewed)).toMatchObject({ due_on: '2026-11-30', next_due_on: '2028-11-20', next_opens_on: '2028-09-21', version: 2 })
    expect(await row(ruleId, stale)).toMatchObject({ due_on: '2026-11-30', next_due_on: null, version: 1 })
  })

  it('ignores an event older than what it holds of the certification, a deletion included', async () => {
    const ruleId = await rule(following(30))
    const user = crypto.randomUUID()
    await person(ruleId, user, { assigned: '2026-11-01', due: '2026-12-31' })
    const older = certEvent('certs.certification.added.v1', { certificationId: 1, userId: user, expirationDate: '2027-03-31' })
    const newer = certEvent('certs.certification.updated.v1', { certificationId: 1, userId: user, expirationDate: '2027-09-30' })
    await bus.publish(newer)
    await bus.publish(older)
    expect(await row(ruleId, user)).toMatchObject({ due_on: '2027-09-30', version: 2 })
    // Deleted, then its addition delivered late: the deletion stands (the projection keeps the row without an expiry).
    await bus.publish(certEvent('certs.certification.deleted.v1', { certificationId: 1, userId: user }))
    await bus.publish(certEvent('certs.certification.added.v1', { certificationId: 1, userId: user, expirationDate: '2027-09-30' }, new Date(at - 5000).toISOString()))
    const { rows } = await c.query('select expiration_date from certification_expiries where certification_id = 1')
    expect(rows).toEqual([{ expiration_date: null }])
    // Nothing left to follow: the due date stays where it was.
    expect(await row(ruleId, user)).toMatchObject({ due_on: '2027-09-30', version: 2 })
  })

  it('follows the latest expiry of the type among the person’s certifications', async () => {
    const ruleId = await rule(following(30))
    const user = crypto.randomUUID()
    await person(ruleId, user, { assigned: '2026-11-01', due: '2026-12-31' })
    await bus.publish(certEvent('certs.certification.added.v1', { certificationId: 1, userId: user, expirationDate: '2027-09-30' }))
    // An older certificate of the same type changes no latest expiry, so nothing moves.
    await bus.publish(certEvent('certs.certification.added.v1', { certificationId: 2, userId: user, expirationDate: '2027-02-28' }))
    expect(await row(ruleId, user)).toMatchObject({ due_on: '2027-09-30', version: 2 })
    // The later one deleted: the other is the latest now.
    await bus.publish(certEvent('certs.certification.deleted.v1', { certificationId: 1, userId: user }))
    expect(await row(ruleId, user)).toMatchObject({ due_on: '2027-02-28', opens_on: '2027-01-29', version: 3 })
  })

  it('moves no one else: another person, another type, a period rule, a deleted rule or a removed row', async () => {
    const user = crypto.randomUUID()
    const otherType = await rule(following(30, OTHER_TYPE))
    const period = await rule({ kind: 'period', months: 12, window_days: 30 })
    const deleted = await rule(following(30), true)
    const live = await rule(following(30))
    await person(otherType, user, { assigned: '2026-11-01', due: '2026-12-31' })
    await person(period, user, { assigned: '2026-11-01', due: '2026-12-31' })
    await person(deleted, user, { assigned: '2026-11-01', due: '2026-12-31' })
    await person(live, user, { assigned: '2026-11-01', due: '2026-12-31', removed: true })
    const someoneElse = crypto.randomUUID()
    await person(live, someoneElse, { assigned: '2026-11-01', due: '2026-12-31' })
    const announced = await changed()
    await bus.publish(certEvent('certs.certification.added.v1', { certificationId: 1, userId: user, expirationDate: '2027-09-30' }))
    for (const id of [otherType, period, deleted, live]) expect(await row(id, user)).toMatchObject({ due_on: '2026-12-31', version: 1 })
    expect(await row(live, someoneElse)).toMatchObject({ due_on: '2026-12-31', version: 1 })
    expect(await changed()).toBe(announced)
  })

  it('handles a redelivered event once', async () => {
    const ruleId = await rule(following(30))
    const user = crypto.randomUUID()
    await person(ruleId, user, { assigned: '2026-11-01', due: '2026-12-31' })
    const event = certEvent('certs.certification.added.v1', { certificationId: 1, userId: user, expirationDate: '2027-09-30' })
    await handler(event)
    await handler(event)
    const { rows } = await c.query("select count(*)::int as n from inbox where consumer = 'learning-certs'")
    expect(rows[0].n).toBe(1)
    expect(await row(ruleId, user)).toMatchObject({ due_on: '2027-09-30', version: 2 })
  })
})
