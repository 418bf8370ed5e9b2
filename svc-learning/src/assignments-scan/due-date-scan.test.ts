import pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { EventEnvelope, Events, addDays } from '@portal/contracts'
import { assignmentRoutines, createInProcessBus, openDatabase, startOutboxRelay } from '@portal/server-kit'
import { createTestDatabase, silentLogger } from '@portal/server-kit/testing'
import { entities } from '../server.ts'
import { migrationsList } from '../migrations/index.ts'
import { createDueDateScan, dueDateScanJob, DUE_DATE_SCAN, RETAKE_BATCH } from './index.ts'

const TODAY = '2026-11-28'
const REMINDERS = { before_days: 7, manager_after_days: 3, operations_after_days: 10 }

let testDb: Awaited<ReturnType<typeof createTestDatabase>>
let db: Awaited<ReturnType<typeof openDatabase>>
let c: pg.Client
const open = () =>
  openDatabase({ service: 'learning', url: testDb.url, dataDir: '/tmp/unused', entities, migrations: migrationsList, routines: assignmentRoutines(), logger: silentLogger })
const scanOf = (orm = db.orm) => createDueDateScan({ orm, logger: silentLogger, today: () => TODAY })

beforeAll(async () => {
  testDb = await createTestDatabase('learning_scan')
  db = await open()
  c = new pg.Client({ connectionString: testDb.url })
  await c.connect()
  await c.query(`insert into courses (id, title, is_assigned_to_all, created_at, updated_at) values (7, 'Lockout/Tagout', false, now(), now())`)
  await c.query(
    `insert into exams (id, name, time_limit, pass_score, total_questions, exam_type, created_at, updated_at) values (3, 'Ladder Safety', 10, 70, 3, 'final', now(), now())`,
  )
})
afterAll(async () => {
  await c?.end()
  await db?.close()
  await testDb?.drop()
})
beforeEach(async () => {
  await c.query('truncate assignment_reminders, assignment_people, outbox')
  await c.query('delete from assignment_rules')
})

let nextRule = 1
/** A rule (by SQL, as the admin's routes store it). */
async function rule(o: { kind?: 'course' | 'exam'; reminders?: unknown; recurrence?: unknown; deleted?: boolean } = {}): Promise<number> {
  const id = nextRule++
  await c.query(
    `insert into assignment_rules (id, item_kind, item_id, audience, due, recurrence, due_soon_days, reminders, created_at, updated_at, deleted_at)
     values ($1, $2, $3, '{"kind":"everyone"}', '{"kind":"relative","days":30,"from":"assignment"}', $4, 7, $5, now(), now(), case when $6 then now() end)`,
    [
      id,
      o.kind ?? 'course',
      (o.kind ?? 'course') === 'course' ? 7 : 3,
      o.recurrence ? JSON.stringify(o.recurrence) : null,
      JSON.stringify(o.reminders ?? REMINDERS),
      Boolean(o.deleted),
    ],
  )
  return id
}
/** A person's row of a rule; dates as offsets from TODAY. */
async function person(
  ruleId: number,
  o: { due: number; opens?: number; completed?: number; nextDue?: number; nextOpens?: number; exempt?: boolean; removed?: boolean; user?: string } = { due: 0 },
): Promise<string> {
  const user = o.user ?? crypto.randomUUID()
  const at = (n: number | undefined) => (n === undefined ? null : addDays(TODAY, n))
  await c.query(
    `insert into assignment_people (rule_id, user_id, assigned_on, due_on, opens_on, completed_on, next_due_on, next_opens_on, exempt_reason, removed_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, case when $10 then now() end, now())`,
    [ruleId, user, addDays(TODAY, -60), at(o.due), at(o.opens), at(o.completed), at(o.nextDue), at(o.nextOpens), o.exempt ? 'On leave' : null, Boolean(o.removed)],
  )
  return user
}
/** The reminder events in the outbox, checked against the contracts' envelope and event schemas. */
async function reminders() {
  const { rows } = await c.query<{ id: string; type: string; payload: unknown }>(
    "select id, type, payload from outbox where type in ('learning.assignment.due-soon.v1', 'learning.assignment.overdue.v1') order by seq",
  )
  return rows.map((r) => {
    const envelope = EventEnvelope.parse(r.payload)
    expect(envelope.id).toBe(r.id)
    expect(envelope.type).toBe(r.type)
    const data = Events[r.type as 'learning.assignment.overdue.v1'].parse(envelope.data)
    return { type: r.type, ...data } as { type: string; stage: string; daysLeft?: number; daysOverdue?: number } & Record<string, unknown>
  })
}
const stagesOf = async () => (await reminders()).map((e) => e.stage)
const ledger = async () => (await c.query<{ n: number }>('select count(*)::int as n from assignment_reminders')).rows[0]!.n

describe('the due-date scan', () => {
  it('reaches before, on the day, after, the manager copy and operations on the right days, each once', async () => {
    const ruleId = await rule()
    const user = await person(ruleId, { due: 0 })
    const scan = scanOf()
    const on = async (offset: number) => (await scan.runDueDateScan(addDays(TODAY, offset))).stages
    expect(await on(-8)).toEqual({})
    expect(await on(-7)).toEqual({ before: 1 })
    expect(await on(-6)).toEqual({})
    expect(await on(-1)).toEqual({})
    expect(await on(0)).toEqual({ due: 1 })
    expect(await on(1)).toEqual({ overdue: 1 })
    expect(await on(2)).toEqual({})
    expect(await on(3)).toEqual({ manager: 1 })
    expect(await on(9)).toEqual({})
    expect(await on(10)).toEqual({ operations: 1 })
    expect(await on(40)).toEqual({})
    const events = await reminders()
    expect(events.map((e) => [e.type, e.stage, e.on, e.daysLeft ?? -(e.daysOverdue ?? 0)])).toEqual([
      ['learning.assignment.due-soon.v1', 'before', addDays(TODAY, -7), 7],
      ['learning.assignment.due-soon.v1', 'due', TODAY, 0],
      ['learning.assignment.overdue.v1', 'overdue', addDays(TODAY, 1), -1],
      ['learning.assignment.overdue.v1', 'manager', addDays(TODAY, 3), -3],
      ['learning.assignment.overdue.v1', 'operations', addDays(TODAY, 10), -10],
    ])
    expect(events[0]).toMatchObject({ ruleId, userId: user, itemKind: 'course', itemId: 7, itemTitle: 'Lockout/Tagout', dueOn: TODAY })
  })

  it('names an exam by its name, and a rule without escalation reaches only the learner', async () => {
    const ruleId = await rule({ kind: 'exam', reminders: { before_days: 0, manager_after_days: null, operations_after_days: null } })
    await person(ruleId, { due: -30 })
    await person(ruleId, { due: 3 })
    const run = await scanOf().runDueDateScan()
    expect(run).toMatchObject({ ran: true, scanned: 2, emitted: 1, stages: { overdue: 1 } })
    expect(await reminders()).toMatchObject([{ itemKind: 'exam', itemId: 3, itemTitle: 'Ladder Safety', stage: 'overdue', daysOverdue: 30 }])
  })

  it('records and announces nothing on a second run the same day', async () => {
    const ruleId = await rule()
    for (const due of [-20, -5, -3, 0, 2, 7, 8]) await person(ruleId, { due })
    const first = await scanOf().runDueDateScan()
    expect(first.emitted).toBe(10)
    expect(first.stages).toEqual({ before: 2, due: 1, overdue: 3, manager: 3, operations: 1 })
    const second = await scanOf().runDueDateScan()
    expect(second).toMatchObject({ ran: true, scanned: 7, emitted: 0, stages: {} })
    expect(await reminders()).toHaveLength(10)
    expect(await ledger()).toBe(10)
  })

  it('gives one set of events when two instances scan at once', async () => {
    const ruleId = await rule()
    for (let i = 0; i < 200; i++) await person(ruleId, { due: (i % 30) - 15 })
    const other = await open()
    try {
      const runs = await Promise.all([scanOf().runDueDateScan(), scanOf(other.orm).runDueDateScan()])
      const emitted = runs.reduce((n, r) => n + r.emitted, 0)
      const events = await reminders()
      expect(events.length).toBe(emitted)
      expect(emitted).toBe(await ledger())
      const keys = events.map((e) => `${e.ruleId}/${e.userId}/${e.dueOn}/${e.stage}`)
      expect(new Set(keys).size).toBe(keys.length)
      expect(emitted).toBeGreaterThan(100)
    } finally {
      await other.close()
    }
  })

  it('holds without the lock too: a statement racing an uncommitted one inserts nothing once it commits', async () => {
    const ruleId = await rule()
    for (const due of [-12, -4, 0, 5]) await person(ruleId, { due })
    const a = new pg.Client({ connectionString: testDb.url })
    const b = new pg.Client({ connectionString: testDb.url })
    await Promise.all([a.connect(), b.connect()])
    try {
      await a.query('begin')
      await b.query('begin')
      const first = await a.query<{ emitted: number }>(DUE_DATE_SCAN, [TODAY])
      // b waits on a's uncommitted ledger rows, then finds them there.
      const racing = b.query<{ emitted: number }>(DUE_DATE_SCAN, [TODAY])
      await new Promise((r) => setTimeout(r, 200))
      await a.query('commit')
      const second = await racing
      await b.query('commit')
      expect(first.rows[0]!.emitted).toBe(7)
      expect(second.rows[0]!.emitted).toBe(0)
      expect(await reminders()).toHaveLength(7)
    } finally {
      await Promise.all([a.end(), b.end()])
    }
  })

  it('skips the run while another instance holds the scan', async () => {
    const ruleId = await rule()
    await person(ruleId, { due: 0 })
    const holder = new pg.Client({ connectionString: testDb.url })
    await holder.connect()
    try {
      await holder.query('begin')
      await holder.query("select pg_advisory_xact_lock(hashtext('learning.assignment-scan'))")
      expect(await scanOf().runDueDateScan()).toMatchObject({ ran: false, emitted: 0 })
      await holder.query('commit')
      expect(await scanOf().runDueDateScan()).toMatchObject({ ran: true, emitted: 1 })
    } finally {
      await holder.end()
    }
  })

  it('reminds nobody of a completed, exempt or removed row, a deleted rule, or a cycle not open yet', async () => {
    const live = await rule()
    const deleted = await rule({ deleted: true })
    await person(live, { due: -5, completed: -6 })
    await person(live, { due: -5, completed: -2 })
    await person(live, { due: -5, exempt: true })
    await person(live, { due: -5, removed: true })
    await person(deleted, { due: -5 })
    await person(live, { due: 3, opens: 1 })
    const run = await scanOf().runDueDateScan()
    expect(run).toMatchObject({ scanned: 0, emitted: 0 })
    expect(await reminders()).toEqual([])
  })

  it('reminds a recurring row of its next due date once the next cycle has opened, not before', async () => {
    const recurrence = { kind: 'period', months: 12, window_days: 30 }
    const ruleId = await rule({ recurrence })
    const opened = await person(ruleId, { due: -360, completed: -362, nextDue: 5, nextOpens: -25 })
    await person(ruleId, { due: -300, completed: -310, nextDue: 40, nextOpens: 10 })
    await scanOf().runDueDateScan()
    expect(await reminders()).toMatchObject([{ userId: opened, stage: 'before', dueOn: addDays(TODAY, 5), daysLeft: 5 }])
  })

  it('catching up after days sends the learner where they stand, not every step missed, and no earlier step after a later one', async () => {
    const ruleId = await rule()
    const late = await person(ruleId, { due: -12 })
    await scanOf().runDueDateScan()
    expect((await stagesOf()).sort()).toEqual(['manager', 'operations', 'overdue'])
    expect((await reminders()).every((e) => e.userId === late)).toBe(true)
    // A due date whose day was announced: a scan on an earlier day (the clock or time zone gone back) sends no `before`.
    await c.query('truncate outbox')
    const onTime = await person(ruleId, { due: 0 })
    await scanOf().runDueDateScan()
    expect(await stagesOf()).toEqual(['due'])
    await scanOf().runDueDateScan(addDays(TODAY, -3))
    expect(await stagesOf()).toEqual(['due'])
    const { rows } = await c.query('select stage from assignment_reminders where user_id = $1', [onTime])
    expect(rows).toEqual([{ stage: 'due' }])
  })

  it('first rolls recurring rows whose next cycle opened forward (in batches, once across instances), then reminds them of the new cycle', async () => {
    const recurrence = { kind: 'period', months: 12, window_days: 30 }
    const course = await rule({ recurrence })
    const exam = await rule({ kind: 'exam', recurrence })
    // More people than one batch of the scan rolls: their next cycle opened 27 days ago and is due in 3 days.
    await c.query(
      `insert into assignment_people (rule_id, user_id, assigned_on, due_on, completed_on, completed_at, next_due_on, next_opens_on, updated_at)
       select $1, gen_random_uuid(), $2::date - 400, $2::date - 360, $2::date - 362, now(), $2::date + 3, $2::date - 27, now() from generate_series(1, $3)`,
      [course, TODAY, RETAKE_BATCH + 20],
    )
    const examTaker = await person(exam, { due: -360, completed: -362, nextDue: 3, nextOpens: -27 })
    const waiting = await person(course, { due: -300, completed: -310, nextDue: 40, nextOpens: 10 })
    const exempt = await person(course, { due: -360, completed: -362, nextDue: 3, nextOpens: -27, exempt: true })
    const other = await open()
    try {
      const runs = await Promise.all([scanOf().runDueDateScan(), scanOf(other.orm).runDueDateScan()])
      expect(runs.reduce((n, r) => n + r.rolled, 0)).toBe(RETAKE_BATCH + 21)
      const { rows } = await c.query<{ cycle: number; n: number }>(
        `select cycle, count(*)::int as n from assignment_people
          where completed_on is null and due_on = $1::date + 3 and opens_on = $1::date - 27 and next_due_on is null group by cycle`,
        [TODAY],
      )
      expect(rows).toEqual([{ cycle: 2, n: RETAKE_BATCH + 21 }])
      expect((await c.query('select counts_from from exam_attempt_resets where exam_id = 3 and user_id = $1', [examTaker])).rows).toEqual([{ counts_from: 1 }])
      // The reminders are of the new cycle, each once (the same step the rows' effective due date gave before they rolled).
      const events = await reminders()
      expect(events).toHaveLength(RETAKE_BATCH + 21)
      expect(events.every((e) => e.stage === 'before' && e.dueOn === addDays(TODAY, 3))).toBe(true)
      // Not opened yet, or exempt: as they were.
      const untouched = await c.query('select user_id, cycle, completed_on is not null as completed from assignment_people where user_id = any($1::uuid[]) order by cycle', [
        [waiting, exempt],
      ])
      expect(untouched.rows.map((r) => [r.cycle, r.completed])).toEqual([
        [1, true],
        [1, true],
      ])
      expect(await scanOf().runDueDateScan()).toMatchObject({ ran: true, rolled: 0, emitted: 0 })
    } finally {
      await other.close()
    }
  })

  it('runs as a job at start, and the relay publishes its events on the bus', async () => {
    const ruleId = await rule()
    const user = await person(ruleId, { due: -1 })
    const bus = createInProcessBus()
    const received: unknown[] = []
    await bus.subscribe('test-reminders', ['learning.assignment.due-soon.v1', 'learning.assignment.overdue.v1'], async (e) => void received.push(e))
    const relay = startOutboxRelay({ orm: db.orm, bus, logger: silentLogger, intervalMs: 50 })
    const job = dueDateScanJob(createDueDateScan({ orm: db.orm, logger: silentLogger, today: () => TODAY, kick: relay.kick }), { logger: silentLogger, intervalMs: 60_000 })
    try {
      job.start()
      for (let i = 0; i < 100 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 50))
      expect(received).toMatchObject([{ type: 'learning.assignment.overdue.v1', data: { userId: user, stage: 'overdue', daysOverdue: 1 } }])
    } finally {
      await job.stop()
      await relay.stop()
      await bus.close()
    }
  })
})
