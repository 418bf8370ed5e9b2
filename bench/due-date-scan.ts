/**
 * The daily due-date scan (issue 24) over 100,000 assignments on the machine's PostgreSQL, beside a
 * bare SQL write of the same row count in the same run:
 * - ceiling: one `insert ... select` that copies every assignment row into a table shaped like the
 *   reminder ledger (same primary key): the least a scan that records something per row has to do;
 * - ours: `runDueDateScan` as svc-learning runs it (advisory lock, outstanding rows and their
 *   effective due dates, reminder steps, ledger rows and one outbox event per step, one statement),
 *   then a second run the same day, which must record and announce nothing.
 * 2,000 learners × 50 rules (one course each): due dates spread from 60 days ago to 89 days ahead,
 * so every step is reached (a first scan catching up on a portal's whole backlog); 10 % completed,
 * 2 % exempt, 1 % removed; a quarter of the rules recur yearly, so some completed rows are in a
 * next cycle that has opened. Reminder plans vary by rule (7/7/14 days, 14/3/10, none beyond the day).
 * `npm run bench` calls `benchDueDateScan`; `node bench/due-date-scan.ts` runs this part alone.
 * BENCH_SCAN_USERS sets the number of learners (50 assignments each).
 */
import { assignmentRoutines, ensureDatabase, openDatabase } from '@portal/server-kit'
import { silentLogger } from '@portal/server-kit/testing'
import { createDueDateScan } from 'svc-learning/assignments-scan'
import { migrationsList } from 'svc-learning/migrations'
import { entities } from 'svc-learning/server'
import { BENCH_PG, writeBenchRecord } from './support.ts'

const RULES = 50

export interface DueDateScanBenchResult {
  assignments: number
  outstanding: number
  seedSeconds: number
  ceilingInsertMs: number
  firstRun: { ms: number; scanned: number; emitted: number; stages: Record<string, number> }
  secondRun: { ms: number; emitted: number }
  ratio: number
  goals: { firstRunMs: 5_000; secondRunEmitted: 0 }
}

const log = (msg: string) => process.env.BENCH_VERBOSE && process.stderr.write(`[due-date-scan ${new Date().toISOString().slice(11, 19)}] ${msg}\n`)

export async function benchDueDateScan(pgUrl = BENCH_PG, users = Number(process.env.BENCH_SCAN_USERS ?? 2_000)): Promise<DueDateScanBenchResult> {
  const url = new URL(pgUrl)
  url.pathname = '/bench_due_date_scan'
  {
    const { default: pg } = await import('pg')
    const client = new pg.Client({ connectionString: pgUrl })
    await client.connect()
    await client.query('drop database if exists bench_due_date_scan with (force)')
    await client.end()
  }
  await ensureDatabase(url.toString())
  const db = await openDatabase({
    service: 'learning',
    url: url.toString(),
    dataDir: '/tmp/unused',
    entities,
    migrations: migrationsList,
    routines: assignmentRoutines(),
    logger: silentLogger,
  })
  const conn = db.orm.em.getConnection()
  const today = new Date().toISOString().slice(0, 10)

  const seedStart = performance.now()
  await conn.execute(`insert into courses (id, title, is_assigned_to_all, created_at, updated_at)
    select i, 'Compliance course ' || i, false, now(), now() from generate_series(1, ${RULES}) i`)
  await conn.execute(`insert into assignment_rules (id, item_kind, item_id, audience, due, recurrence, due_soon_days, reminders, created_at, updated_at)
    select i, 'course', i, '{"kind":"everyone"}', '{"kind":"relative","days":30,"from":"assignment"}',
           case when i % 4 = 0 then '{"kind":"period","months":12,"window_days":30}'::jsonb end, 7,
           case when i % 7 = 0 then '{"before_days":0,"manager_after_days":null,"operations_after_days":null}'::jsonb
                when i % 5 = 0 then '{"before_days":14,"manager_after_days":3,"operations_after_days":10}'::jsonb
                else '{"before_days":7,"manager_after_days":7,"operations_after_days":14}'::jsonb end,
           now(), now()
      from generate_series(1, ${RULES}) i`)
  // The rows' announcements are not what is measured: the trigger is off while seeding (the outbox stays empty).
  await conn.execute('alter table assignment_people disable trigger assignment_people_announce_insert')
  await conn.execute(
    `insert into assignment_people (rule_id, user_id, assigned_on, due_on, completed_on, completed_at, next_due_on, next_opens_on, exempt_reason, removed_at, updated_at)
     select r, ('00000000-0000-4000-8000-' || lpad(to_hex(u), 12, '0'))::uuid, ?::date - 90, due, completed, case when completed is not null then now() end,
            case when completed is not null and r % 4 = 0 then next_due end, case when completed is not null and r % 4 = 0 then next_due - 30 end,
            case when h % 50 = 1 then 'On leave' end, case when h % 100 = 3 then now() end, now()
       from (select u, r, h, ?::date - 60 + h % 150 as due, case when h % 10 = 7 then ?::date - 60 + h % 150 - 3 end as completed, ?::date - 5 + h % 40 as next_due
               from generate_series(1, ${users}) u cross join generate_series(1, ${RULES}) r
               cross join lateral (select abs(hashint4(u * 7919 + r * 104729)) % 1000 as h) x) g`,
    [today, today, today, today],
  )
  await conn.execute('alter table assignment_people enable trigger assignment_people_announce_insert')
  await conn.execute(`create table bench_ceiling (like assignment_reminders including all)`)
  await conn.execute('vacuum analyze')
  await conn.execute('checkpoint').catch(() => undefined)
  const seedSeconds = Math.round((performance.now() - seedStart) / 100) / 10
  const [{ assignments, outstanding }] = (await conn.execute(
    `select count(*)::int as assignments,
            count(*) filter (where removed_at is null and exempt_reason is null
              and assignment_state(due_on, opens_on, completed_on, next_due_on, next_opens_on, false, 7, ?::date) in ('overdue', 'due_soon', 'open'))::int as outstanding
       from assignment_people`,
    [today],
  )) as { assignments: number; outstanding: number }[]
  log(`seeded ${assignments} assignments (${outstanding} outstanding) in ${seedSeconds}s`)

  // The ceiling: one row written per assignment into a table shaped like the ledger.
  const ceilingStart = performance.now()
  await conn.execute(
    `insert into bench_ceiling (rule_id, user_id, due_on, stage, on_day, recorded_at)
    select rule_id, user_id, due_on, 'overdue', ?::date, now() from assignment_people`,
    [today],
  )
  const ceilingInsertMs = Math.round(performance.now() - ceilingStart)
  log(`bare insert ... select ${ceilingInsertMs} ms`)

  const scan = createDueDateScan({ orm: db.orm, logger: silentLogger, today: () => today })
  const timed = async () => {
    const t = performance.now()
    const run = await scan.runDueDateScan(today)
    if (!run.ran) throw new Error('the due-date scan did not run: its lock was held')
    return { ms: Math.round(performance.now() - t), run }
  }
  const first = await timed()
  log(`first run ${first.ms} ms, ${first.run.emitted} events`)
  const second = await timed()
  log(`second run ${second.ms} ms, ${second.run.emitted} events`)
  const [{ ledger, events }] = (await conn.execute(
    `select (select count(*) from assignment_reminders)::int as ledger,
            (select count(*) from outbox where type in ('learning.assignment.due-soon.v1', 'learning.assignment.overdue.v1'))::int as events`,
  )) as { ledger: number; events: number }[]
  await db.close()
  if (second.run.emitted !== 0) throw new Error(`the second scan of the same day emitted ${second.run.emitted} events (goal 0)`)
  if (ledger !== first.run.emitted || events !== first.run.emitted)
    throw new Error(`ledger rows ${ledger} and reminder events ${events} differ from the ${first.run.emitted} emitted`)
  if (first.run.scanned !== outstanding) throw new Error(`the scan looked at ${first.run.scanned} rows, ${outstanding} are outstanding`)
  return {
    assignments,
    outstanding,
    seedSeconds,
    ceilingInsertMs,
    firstRun: { ms: first.ms, scanned: first.run.scanned, emitted: first.run.emitted, stages: first.run.stages },
    secondRun: { ms: second.ms, emitted: second.run.emitted },
    ratio: Number((first.ms / Math.max(1, ceilingInsertMs)).toFixed(1)),
    goals: { firstRunMs: 5_000, secondRunEmitted: 0 },
  }
}

export const formatDueDateScan = (r: DueDateScanBenchResult) =>
  [
    `due-date scan over ${r.assignments.toLocaleString('en-US')} assignments (${r.outstanding.toLocaleString('en-US')} outstanding; seeded in ${r.seedSeconds} s)`,
    `  bare insert ... select of as many rows: ${r.ceilingInsertMs} ms`,
    `  first scan: ${r.firstRun.ms} ms (goal ≤ ${r.goals.firstRunMs} ms), ${r.ratio}× the bare insert, ${r.firstRun.emitted.toLocaleString('en-US')} reminder events (${Object.entries(
      r.firstRun.stages,
    )
      .map(([stage, n]) => `${stage} ${n}`)
      .join(', ')})`,
    `  second scan the same day: ${r.secondRun.ms} ms, ${r.secondRun.emitted} events (goal 0)`,
  ].join('\n')

if (import.meta.main) {
  const result = await benchDueDateScan()
  await writeBenchRecord('due-date-scan', result)
  console.log(formatDueDateScan(result))
}
