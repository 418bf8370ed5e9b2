/**
 * The learner dashboard (issue 24): `GET /assignments/mine` of a learner with 50 assignments,
 * through svc-learning's real `start()` on the machine's PostgreSQL, beside a bare Hono + pg route
 * running the same statement, measured in the same run. Goal: p95 <= 50 ms.
 * 50 rules (35 courses, 15 exams) each assigned to the learner and to 2,000 others (100,050 rows,
 * so the learner's rows are found among many): the learner's spread over every state (overdue, due
 * soon, open, not due yet, completed on time and late, a recurring one in its next cycle, exempt).
 * Each side is warmed for a second, then loaded by `connections` loops for `durationSeconds`.
 * `npm run bench` calls `benchLearnerDashboard`; `node bench/learner-dashboard.ts` runs this part
 * alone (BENCH_SECONDS, BENCH_DATABASE_URL), writing bench/results/learner-dashboard-<time>.json.
 */
import pg from 'pg'
import { MyAssignments } from '@portal/contracts'
import { PlatformEnv, assignmentRoutines, createTokenIssuer, ensureDatabase, loadOrCreateSigningKey, openDatabase } from '@portal/server-kit'
import { silentLogger } from '@portal/server-kit/testing'
import { createDueDateScan } from 'svc-learning/assignments-scan'
import { migrationsList } from 'svc-learning/migrations'
import { entities } from 'svc-learning/server'
import { BENCH_PG, writeBenchRecord } from './support.ts'
import { measureLatency, startChild, stopChild, type LatencyFigures } from './http-load.ts'

const RULES = 50
const OTHERS = 2_000

export interface LearnerDashboardBenchResult {
  assignments: number
  rows: number
  connections: number
  durationSeconds: number
  ceiling: LatencyFigures
  ours: LatencyFigures
  /** Our requests per second over the ceiling's. */
  ratio: number
  goals: { p95Ms: 50 }
}

const log = (msg: string) => process.env.BENCH_VERBOSE && process.stderr.write(`[learner-dashboard ${new Date().toISOString().slice(11, 19)}] ${msg}\n`)

/** The rules and everyone's rows; the learner's 50 over every state (dates around today, the service's today in UTC). */
async function seed(url: string, learner: string) {
  const today = new Date().toISOString().slice(0, 10)
  const db = await openDatabase({ service: 'learning', url, dataDir: '/tmp/unused', entities, migrations: migrationsList, routines: assignmentRoutines(), logger: silentLogger })
  const conn = db.orm.em.getConnection()
  await conn.execute(`insert into courses (id, title, is_assigned_to_all, created_at, updated_at)
    select i, 'Compliance course ' || i, false, now(), now() from generate_series(1, 35) i`)
  await conn.execute(`insert into exams (id, name, time_limit, pass_score, total_questions, exam_type, created_at, updated_at)
    select i, 'Compliance exam ' || i, 30, 70, 10, 'final', now(), now() from generate_series(36, ${RULES}) i`)
  await conn.execute(`insert into assignment_rules (id, item_kind, item_id, audience, due, recurrence, due_soon_days, reminders, created_at, updated_at)
    select i, case when i <= 35 then 'course' else 'exam' end, i, '{"kind":"everyone"}', '{"kind":"relative","days":30,"from":"assignment"}',
           case when i % 10 = 8 then '{"kind":"period","months":12,"window_days":30}'::jsonb end, 7,
           '{"before_days":7,"manager_after_days":7,"operations_after_days":14}', now(), now()
      from generate_series(1, ${RULES}) i`)
  await conn.execute(`insert into users (id, name, email, occurred_at) values (?, 'Bench Learner', 'learner@bench.test', now())`, [learner])
  await conn.execute(`insert into users (id, name, email, occurred_at)
    select ('00000000-0000-4000-8000-' || lpad(to_hex(u), 12, '0'))::uuid, 'Learner ' || u, 'learner' || u || '@bench.test', now() from generate_series(1, ${OTHERS}) u`)
  // Each one's announcement is not what is measured: the trigger is off while seeding.
  await conn.execute('alter table assignment_people disable trigger assignment_people_announce_insert')
  // k picks the state: 0-1 overdue, 2 due soon, 3-4 open, 5 not due yet, 6 completed on time, 7 late, 8 recurring in its next cycle, 9 exempt.
  await conn.execute(
    `insert into assignment_people (rule_id, user_id, assigned_on, due_on, opens_on, completed_on, completed_at, next_due_on, next_opens_on, exempt_reason, updated_at)
     select r, u, '${today}'::date - 90,
            case k when 0 then '${today}'::date - 1 - r % 20 when 1 then '${today}'::date - 30 when 2 then '${today}'::date + 3 when 3 then '${today}'::date + 20 + r
                   when 4 then '${today}'::date + 60 when 5 then '${today}'::date + 40 when 8 then '${today}'::date - 340 else '${today}'::date - 1 end,
            case when k = 5 then '${today}'::date + 10 end,
            case k when 6 then '${today}'::date - 5 when 7 then '${today}'::date + 0 when 8 then '${today}'::date - 345 end,
            case when k in (6, 7, 8) then now() end,
            case when k = 8 and r % 10 = 8 then '${today}'::date + 20 end, case when k = 8 and r % 10 = 8 then '${today}'::date - 10 end,
            case when k = 9 then 'On leave' end, now()
       from (select r, u, (r + abs(hashtext(u::text))) % 10 as k
               from generate_series(1, ${RULES}) r
               cross join (select ?::uuid as u union all select ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid from generate_series(1, ${OTHERS}) i) people) g`,
    [learner],
  )
  await conn.execute('alter table assignment_people enable trigger assignment_people_announce_insert')
  // Today's reminders already scanned and published, as on any day after the first: the service's
  // scan at start then finds nothing to send, and its relay nothing to publish while measured.
  await createDueDateScan({ orm: db.orm, logger: silentLogger, today: () => today }).runDueDateScan()
  await conn.execute('update outbox set sent_at = now() where sent_at is null')
  await conn.execute('vacuum analyze')
  const [{ rows }] = (await conn.execute('select count(*)::int as rows from assignment_people')) as { rows: number }[]
  await db.close()
  return rows
}

export async function benchLearnerDashboard(opts: { pgUrl?: string; durationSeconds: number; connections?: number }): Promise<LearnerDashboardBenchResult> {
  const connections = opts.connections ?? 4
  const db = new URL(opts.pgUrl ?? BENCH_PG)
  db.pathname = '/bench_learner_dashboard'
  const admin = new pg.Client({ connectionString: opts.pgUrl ?? BENCH_PG })
  await admin.connect()
  await admin.query('drop database if exists bench_learner_dashboard with (force)')
  await admin.end()
  await ensureDatabase(db.toString())

  const learner = crypto.randomUUID()
  const rows = await seed(db.toString(), learner)
  log(`seeded ${rows} assignment rows`)

  const env = PlatformEnv.parse({})
  const issuer = createTokenIssuer(await loadOrCreateSigningKey(undefined), { issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE, ttlSeconds: 7200 })
  const token = await issuer.sign({
    userId: learner,
    email: 'learner@bench.test',
    name: 'Bench Learner',
    isAdmin: false,
    isManager: false,
    managerScope: { branches: [], departments: [] },
  })
  const auth = { authorization: `Bearer ${token}` }

  const learning = await startChild('bench/learner-dashboard-server.ts', { DATABASE_URL: db.toString(), BENCH_JWKS: JSON.stringify(issuer.jwks()) })
  let ceiling: Awaited<ReturnType<typeof startChild>> | undefined
  try {
    ceiling = await startChild('bench/learner-dashboard-ceiling-server.ts', { DATABASE_URL: db.toString() })
    const oursUrl = `http://127.0.0.1:${learning.port}/assignments/mine`
    const ceilingUrl = `http://127.0.0.1:${ceiling.port}/mine/${learner}`

    // The answer the dashboard reads: the contract's shape, all 50, what is overdue first.
    const res = await fetch(oursUrl, { headers: auth })
    if (!res.ok) throw new Error(`GET /assignments/mine: ${res.status} ${(await res.text()).slice(0, 300)}`)
    const mine = MyAssignments.parse(await res.json())
    if (mine.assignments.length !== RULES) throw new Error(`GET /assignments/mine listed ${mine.assignments.length} assignments, not ${RULES}`)
    if (mine.assignments[0]!.state !== 'overdue') throw new Error(`GET /assignments/mine leads with ${mine.assignments[0]!.state}, not overdue`)
    const ceilingAnswer = (await (await fetch(ceilingUrl)).json()) as { assignments: unknown[] }
    if (ceilingAnswer.assignments.length !== RULES) throw new Error(`the ceiling listed ${ceilingAnswer.assignments.length} assignments, not ${RULES}`)
    log(`states: ${[...new Set(mine.assignments.map((a) => a.state))].join(', ')}`)

    // The ceiling, then ours, each warmed for a second first.
    await measureLatency(ceilingUrl, {}, 1, connections)
    const ceilingFigures = await measureLatency(ceilingUrl, {}, opts.durationSeconds, connections)
    log(`ceiling p95 ${ceilingFigures.p95} ms, ${ceilingFigures.rps}/s`)
    await measureLatency(oursUrl, auth, 1, connections)
    const ours = await measureLatency(oursUrl, auth, opts.durationSeconds, connections)
    log(`ours p95 ${ours.p95} ms, ${ours.rps}/s`)
    if (ours.failures > 0 || ceilingFigures.failures > 0) throw new Error(`failed requests: ours ${ours.failures}, ceiling ${ceilingFigures.failures}`)
    return {
      assignments: mine.assignments.length,
      rows,
      connections,
      durationSeconds: opts.durationSeconds,
      ceiling: ceilingFigures,
      ours,
      ratio: Number((ours.rps / ceilingFigures.rps).toFixed(3)),
      goals: { p95Ms: 50 },
    }
  } finally {
    await Promise.all([stopChild(learning.proc), ceiling ? stopChild(ceiling.proc) : undefined])
  }
}

export const formatLearnerDashboard = (r: LearnerDashboardBenchResult) =>
  [
    `learner dashboard: GET /assignments/mine with ${r.assignments} assignments (${r.rows.toLocaleString('en-US')} assignment rows in all), ${r.connections} connections`,
    `  ceiling (bare Hono + pg, same statement): p95 ${r.ceiling.p95} ms, p50 ${r.ceiling.p50} ms, ${r.ceiling.rps} req/s`,
    `  svc-learning: p95 ${r.ours.p95} ms (goal ≤ ${r.goals.p95Ms} ms), p50 ${r.ours.p50} ms, ${r.ours.rps} req/s, ${(r.ratio * 100).toFixed(1)}% of the ceiling`,
  ].join('\n')

if (import.meta.main) {
  const result = await benchLearnerDashboard({ durationSeconds: Number(process.env.BENCH_SECONDS ?? 10) })
  await writeBenchRecord('learner-dashboard', result)
  console.log(formatLearnerDashboard(result))
  process.exit(0)
}
