import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EventEnvelope, Events } from '@portal/contracts'
import { assignmentRoutines, openDatabase } from '@portal/server-kit'
import { silentLogger } from '@portal/server-kit/testing'
import { entities } from '../server.ts'
import { migrationsList } from '../migrations/index.ts'
import { createDueDateScan } from './index.ts'

let dataDir: string
let db: Awaited<ReturnType<typeof openDatabase>>
// PGlite starts and migrates in process: slow on a loaded machine.
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'learning-scan-pglite-'))
  db = await openDatabase({ service: 'learning', dataDir, entities, migrations: migrationsList, routines: assignmentRoutines(), logger: silentLogger })
}, 120_000)
afterAll(async () => {
  await db?.close()
  await rm(dataDir, { recursive: true, force: true })
})

describe('the due-date scan in single-node mode', () => {
  it('runs on the embedded PGlite (pool of one) as on PostgreSQL: steps recorded once, events that parse', async () => {
    const conn = db.orm.em.getConnection()
    await conn.execute(
      `insert into exams (id, name, time_limit, pass_score, total_questions, exam_type, created_at, updated_at) values (3, 'Ladder Safety', 10, 70, 3, 'final', now(), now())`,
    )
    await conn.execute(`insert into assignment_rules (id, item_kind, item_id, audience, due, due_soon_days, reminders, created_at, updated_at)
        values (1, 'exam', 3, '{"kind":"everyone"}', '{"kind":"absolute","date":"2026-11-20"}', 7, '{"before_days":7,"manager_after_days":7,"operations_after_days":14}', now(), now())`)
    await conn.execute(`insert into assignment_people (rule_id, user_id, assigned_on, due_on, updated_at) values
        (1, '00000000-0000-4000-8000-000000000001', '2026-11-01', '2026-11-20', now()), (1, '00000000-0000-4000-8000-000000000002', '2026-11-01', '2026-11-30', now())`)
    const scan = createDueDateScan({ orm: db.orm, logger: silentLogger, today: () => '2026-11-28' })
    expect(await scan.runDueDateScan()).toMatchObject({ ran: true, scanned: 2, emitted: 3, stages: { overdue: 1, manager: 1, before: 1 } })
    expect(await scan.runDueDateScan()).toMatchObject({ ran: true, emitted: 0 })
    const rows = (await conn.execute("select payload from outbox where type in ('learning.assignment.due-soon.v1', 'learning.assignment.overdue.v1') order by seq")) as {
      payload: unknown
    }[]
    const events = rows.map((r) => EventEnvelope.parse(typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload))
    expect(events.map((e) => Events[e.type as 'learning.assignment.overdue.v1'].parse(e.data).stage).sort()).toEqual(['before', 'manager', 'overdue'])
  })
})
