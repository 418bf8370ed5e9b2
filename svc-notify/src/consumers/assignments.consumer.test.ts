import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { EventData, EventEnvelope, EventType } from '@portal/contracts'
import { ProjectedUser, openDatabase, projectedUsers, type Database } from '@portal/server-kit'
import { createTestDatabase, silentLogger } from '@portal/server-kit/testing'
import { EmailDelivery } from '../deliveries/index.ts'
import { MailboxEntry } from '../mailbox/index.ts'
import { migrationsList } from '../migrations/index.ts'
import { createAssignmentsHandler } from './assignments.consumer.ts'
import { createCertsConfigsHandler, createCertsPausesHandler } from './certs-org.consumer.ts'

const envelope = <T extends EventType>(type: T, data: EventData<T>, occurredAt = new Date().toISOString()): EventEnvelope => ({ id: crypto.randomUUID(), type, occurredAt, data })
const learner = { userId: crypto.randomUUID(), name: 'Lee Learner', email: 'Lee@Acme.test' }
const item = { ruleId: 7, userId: learner.userId, itemKind: 'course' as const, itemId: 70, itemTitle: 'Ladder Safety' }
const before = (dueOn: string) => envelope('learning.assignment.due-soon.v1', { ...item, dueOn, on: '2030-03-01', stage: 'before', daysLeft: 7 })
const escalation = (stage: 'manager' | 'operations') => envelope('learning.assignment.overdue.v1', { ...item, dueOn: '2030-03-01', on: '2030-03-15', stage, daysOverdue: 14 })
const changed = (version: number, facts: Partial<EventData<'learning.assignment.changed.v1'>>) =>
  envelope('learning.assignment.changed.v1', {
    ...item,
    assignedOn: '2030-01-01',
    dueOn: '2030-03-08',
    opensOn: null,
    completedOn: null,
    nextDueOn: null,
    nextOpensOn: null,
    exempt: false,
    exemptReason: null,
    dueSoonDays: 7,
    recurring: false,
    removed: false,
    version,
    at: new Date().toISOString(),
    ...facts,
  })

describe('the assignment reminders handler on PostgreSQL', () => {
  let testDb: Awaited<ReturnType<typeof createTestDatabase>>
  let db: Database
  const now = new Date('2030-03-01T20:00:00Z')
  const handle = (e: EventEnvelope) => createAssignmentsHandler({ orm: db.orm, logger: silentLogger, now: () => now })(e)
  const sql = async (q: string, p: unknown[] = []) => (await db.orm.em.fork().getConnection().execute(q, p)) as Record<string, unknown>[]
  const rows = () => sql('select due_on::text, stage, recipient, role, status from assignment_reminders order by id')

  beforeAll(async () => {
    testDb = await createTestDatabase('notify_assignments_handler')
    db = await openDatabase({
      service: 'notify',
      url: testDb.url,
      dataDir: '.data',
      entities: [EmailDelivery, MailboxEntry, ProjectedUser],
      migrations: migrationsList,
      logger: silentLogger,
    })
    await db.orm.em
      .fork()
      .transactional((em) =>
        projectedUsers.applyFacts(
          em,
          { ...learner, isAdmin: false, isManager: false, managerScope: { branches: [], departments: [] }, branch: 'Seattle', department: 'Service', userGroup: null },
          new Date(),
        ),
      )
  })
  afterAll(async () => {
    await db?.close()
    await testDb?.drop()
  })
  afterEach(async () => {
    await sql('delete from assignment_reminders; delete from assignment_facts; delete from notification_pauses; delete from certs_notification_configs; delete from inbox')
  })

  it('records a learner step once for the learner, lower case, however often it comes', async () => {
    const e = before('2030-03-08')
    await Promise.all([handle(e), handle(e), handle({ ...e, id: crypto.randomUUID() })])
    expect(await rows()).toEqual([{ due_on: '2030-03-08', stage: 'before', recipient: 'lee@acme.test', role: 'learner', status: 'pending' }])
  })

  it('cancels the pending reminders of the completed due date, and ignores an older version delivered late', async () => {
    await handle(before('2030-03-08'))
    await handle(changed(3, {}))
    expect((await rows()).map((r) => r.status)).toEqual(['pending'])
    await handle(changed(5, { completedOn: '2030-03-02' }))
    expect((await rows()).map((r) => r.status)).toEqual(['cancelled'])
    // Older facts (not completed) change nothing, and a step raised anyway is recorded as cancelled.
    await handle(changed(4, {}))
    await handle(envelope('learning.assignment.due-soon.v1', { ...item, dueOn: '2030-03-08', on: '2030-03-08', stage: 'due', daysLeft: 0 }))
    expect((await rows()).map((r) => [r.stage, r.status])).toEqual([
      ['before', 'cancelled'],
      ['due', 'cancelled'],
    ])
  })

  it('cancels every pending reminder of the rule on an exemption or removal, and those of a moved due date', async () => {
    await handle(before('2030-03-08'))
    await handle(changed(2, { dueOn: '2030-04-30' }))
    expect((await rows()).map((r) => r.status)).toEqual(['cancelled'])
    await handle(before('2030-04-30'))
    expect((await rows()).map((r) => r.status)).toEqual(['cancelled', 'pending'])
    await handle(changed(3, { dueOn: '2030-04-30', exempt: true, exemptReason: 'On leave' }))
    expect((await rows()).map((r) => r.status)).toEqual(['cancelled', 'cancelled'])
  })

  it("holds a paused learner's own reminders but not the escalations about them", async () => {
    const config = {
      configId: 3,
      branch: 'Seattle' as const,
      department: 'Service' as const,
      managerEmail: 'Branch@acme.test',
      operationsManagerEmail: 'ops@acme.test',
      isActive: true,
    }
    await createCertsConfigsHandler({ orm: db.orm, logger: silentLogger })(envelope('certs.notification-config.changed.v1', { ...config, at: '2030-01-01T00:00:00.000Z' }))
    await createCertsPausesHandler({ orm: db.orm, logger: silentLogger })(
      envelope('certs.notification-pause.changed.v1', { userId: learner.userId, pausedUntil: '2030-03-02T00:00:00.000Z', at: '2030-02-01T00:00:00.000Z' }),
    )
    await handle(before('2030-03-08'))
    await handle(escalation('manager'))
    await handle(escalation('operations'))
    expect(await rows()).toEqual([
      { due_on: '2030-03-08', stage: 'before', recipient: 'lee@acme.test', role: 'learner', status: 'paused' },
      { due_on: '2030-03-01', stage: 'manager', recipient: 'branch@acme.test', role: 'manager', status: 'pending' },
      { due_on: '2030-03-01', stage: 'operations', recipient: 'ops@acme.test', role: 'operations', status: 'pending' },
    ])
  })

  it('records no escalation when the configuration is inactive (and none without one)', async () => {
    const handleConfig = createCertsConfigsHandler({ orm: db.orm, logger: silentLogger })
    const config = { configId: 4, branch: 'Seattle' as const, department: 'Service' as const, managerEmail: 'm@acme.test', operationsManagerEmail: 'ops@acme.test' }
    await handleConfig(envelope('certs.notification-config.changed.v1', { ...config, isActive: true, at: '2030-01-01T00:00:00.000Z' }))
    await handleConfig(envelope('certs.notification-config.changed.v1', { ...config, isActive: false, at: '2030-01-02T00:00:00.000Z' }))
    await handle(escalation('operations'))
    expect(await rows()).toEqual([])
  })

  it('retries a step for a learner the projection does not know yet, and drops it after an hour', async () => {
    const stranger = { ...item, userId: crypto.randomUUID(), dueOn: '2030-03-08', on: '2030-03-01', stage: 'before' as const, daysLeft: 7 }
    await expect(handle(envelope('learning.assignment.due-soon.v1', stranger))).rejects.toThrow(/not in notify's projection yet/)
    await handle(envelope('learning.assignment.due-soon.v1', stranger, new Date(Date.now() - 2 * 3600_000).toISOString()))
    expect(await rows()).toEqual([])
  })
})
