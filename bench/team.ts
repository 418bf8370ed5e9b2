/**
 * Team dashboard and export benchmark (issue 11): svc-certs' real `start()` on the machine's
 * PostgreSQL with 10,000 technicians holding 8 certifications each, beside a bare Hono + pg
 * ceiling running the same statement, measured in the same run.
 * Goals: `GET /manager/team` p95 <= 100 ms and >= 40% of the ceiling, for an admin (everyone) and
 * a one-branch manager; the 10,000-member export <= 3 s with the service's peak RSS <= 200 MB.
 * Runs alone with `node bench/team.ts` (BENCH_SECONDS, BENCH_DATABASE_URL; BENCH_SERVER: another
 * script in place of bench/team-server.ts, e.g. one printing its memory, for probes).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { PlatformEnv, createTokenIssuer, ensureDatabase, loadOrCreateSigningKey } from '@portal/server-kit'
import { CERTS_NODE_FLAGS } from 'svc-certs/node-flags'
import { BENCH_PG } from './support.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
export const TEAM_BENCH = { technicians: 10_000, certificationsEach: 8, types: 10, managerBranch: 'Portland' } as const

export interface LatencyFigures {
  rps: number
  p50: number
  p95: number
  p99: number
  requests: number
  failures: number
}
export interface TeamBenchResult {
  technicians: number
  certifications: number
  connections: number
  admin: { ceiling: LatencyFigures; ours: LatencyFigures; ratio: number }
  manager: { members: number; ceiling: LatencyFigures; ours: LatencyFigures; ratio: number }
  export: { rows: number; bytes: number; seconds: number; idleRssMb: number; peakRssMb: number }
  goals: { p95Ms: number; ratio: number; exportSeconds: number; exportPeakRssMb: number }
}

/** Starts a bench child that prints `READY <port>`, with its own Node flags. */
async function child(script: string, env: Record<string, string>, flags: readonly string[] = []): Promise<{ proc: ChildProcess; port: number }> {
  const proc = spawn(process.execPath, [...flags, script], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise<number>((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      const m = /READY (\d+)/.exec(String(d))
      if (m) resolve(Number(m[1]))
    })
    proc.on('exit', (code) => reject(new Error(`${script} exited ${code}`)))
  })
  return { proc, port }
}
/** Stops a bench child: SIGTERM, then SIGKILL when it still waits on open connections after 3 s. */
const stop = (proc: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve()
    const force = setTimeout(() => proc.kill('SIGKILL'), 3000)
    proc.once('exit', () => (clearTimeout(force), resolve()))
    proc.kill()
  })

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0
const round1 = (n: number) => Math.round(n * 10) / 10

/** `connections` loops each sending the next request when the last answered, for `seconds`; latencies of every request. */
async function measure(url: string, headers: Record<string, string>, seconds: number, connections: number): Promise<LatencyFigures> {
  const latencies: number[] = []
  let failures = 0
  const until = performance.now() + seconds * 1000
  const started = performance.now()
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now()
        try {
          const res = await fetch(url, { headers })
          await res.arrayBuffer()
          if (!res.ok) failures++
        } catch (err) {
          failures++
          process.stderr.write(`[team bench] ${url}: ${(err as Error).message}\n`)
        }
        latencies.push(performance.now() - t0)
      }
    }),
  )
  const elapsed = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  return {
    rps: Math.round(latencies.length / elapsed),
    p50: round1(percentile(latencies, 50)),
    p95: round1(percentile(latencies, 95)),
    p99: round1(percentile(latencies, 99)),
    requests: latencies.length,
    failures,
  }
}

/** 10 types over the tiers (every one required by its tier), 10,000 technicians over the branches and departments, 8 certifications each. */
async function seed(client: pg.Client) {
  const n = TEAM_BENCH.technicians
  await client.query(`insert into certification_types (name, code, tier_level, department, validity_period, upload_required, is_active, created_at, updated_at)
    select 'Bench type ' || i, 'BENCH-' || i, (array[0,0,0,1,1,1,2,2,3,3])[i], null, 24, i % 2 = 0, true, now(), now() from generate_series(1, ${TEAM_BENCH.types}) i`)
  await client.query(`insert into tier_requirements (tier_level, certification_id, is_required, created_at) select tier_level, id, true, now() from certification_types`)
  await client.query(`insert into users (id, name, email, is_admin, is_manager, branch, department, occurred_at, employee_id)
    select gen_random_uuid(), 'Tech ' || lpad(i::text, 5, '0'), 'tech' || i || '@bench.test', false, false,
      (array['Portland','Seattle','Anchorage','Tri-Cities'])[1 + i % 4], (array['Service','Testing','Construction','Electricians'])[1 + (i / 4) % 4], now(), 'B' || i
    from generate_series(1, ${n}) i`)
  await client.query(`insert into technicians (user_id, current_tier, updated_at) select id, (substr(employee_id, 2)::int % 4), now() from users where employee_id like 'B%'`)
  // Spread obtained dates so some are expired, some expiring soon, most valid; half the uploads done.
  await client.query(`insert into technician_certifications (user_id, certification_id, certification_number, obtained_date, expiration_date, file_key, file_name, file_size, file_type, uploaded_at, created_at, updated_at)
    select u.id, t.id, 'N-' || u.employee_id || '-' || k, current_date - ((u.i * 7 + k * 13) % 760), current_date - ((u.i * 7 + k * 13) % 760) + 730,
      case when (u.i + k) % 2 = 0 then 'proofs/bench' end, case when (u.i + k) % 2 = 0 then 'proof.pdf' end, case when (u.i + k) % 2 = 0 then 1000 end,
      case when (u.i + k) % 2 = 0 then 'application/pdf' end, case when (u.i + k) % 2 = 0 then now() end, now(), now()
    from (select id, employee_id, substr(employee_id, 2)::int as i from users where employee_id like 'B%') u
    cross join generate_series(0, ${TEAM_BENCH.certificationsEach - 1}) k
    join (select id, row_number() over (order by id) - 1 as idx from certification_types) t on t.idx = (u.i + k) % ${TEAM_BENCH.types}`)
  await client.query('analyze')
}

/** Peak resident set of a process (VmHWM) in MB; `reset` clears it first (clear_refs 5). */
async function peakRss(pid: number, reset = false): Promise<number> {
  if (reset) await writeFile(`/proc/${pid}/clear_refs`, '5')
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  return Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) / 1024)
}

/** Resident set of a process (VmRSS) in MB, whole process (every thread). */
async function rss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024)
}

export async function benchTeam(opts: { pgUrl?: string; durationSeconds: number; connections?: number }): Promise<TeamBenchResult> {
  const connections = opts.connections ?? 4
  const db = new URL(opts.pgUrl ?? BENCH_PG)
  db.pathname = '/bench_team'
  const admin = new pg.Client({ connectionString: opts.pgUrl ?? BENCH_PG })
  await admin.connect()
  await admin.query('drop database if exists bench_team with (force)')
  await admin.end()
  await ensureDatabase(db.toString())

  const env = PlatformEnv.parse({})
  const issuer = createTokenIssuer(await loadOrCreateSigningKey(undefined), { issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE, ttlSeconds: 7200 })
  // svc-certs with the flags its image starts it with.
  const certs = await child(process.env.BENCH_SERVER ?? 'bench/team-server.ts', { DATABASE_URL: db.toString(), BENCH_JWKS: JSON.stringify(issuer.jwks()) }, CERTS_NODE_FLAGS)
  const client = new pg.Client({ connectionString: db.toString() })
  await client.connect()
  let ceiling: Awaited<ReturnType<typeof child>> | undefined
  try {
    const step = (what: string) => process.stderr.write(`[team bench] ${what}\n`)
    step('seeding')
    await seed(client)
    step('seeded')
    const [adminId, managerId] = [crypto.randomUUID(), crypto.randomUUID()]
    const scope = { branches: [TEAM_BENCH.managerBranch], departments: [] }
    await client.query(`insert into users (id, name, email, is_admin, is_manager, manager_scope, occurred_at) values ($1, 'Bench Admin', 'admin@bench.test', true, false, '{"branches":[],"departments":[]}', now()), ($2, 'Bench Manager', 'manager@bench.test', false, true, $3, now())`, [
      adminId,
      managerId,
      JSON.stringify(scope),
    ])
    const none = { branches: [], departments: [] }
    const adminAuth = { authorization: `Bearer ${await issuer.sign({ userId: adminId, email: 'admin@bench.test', name: 'Bench Admin', isAdmin: true, isManager: false, managerScope: none })}` }
    const managerAuth = { authorization: `Bearer ${await issuer.sign({ userId: managerId, email: 'manager@bench.test', name: 'Bench Manager', isAdmin: false, isManager: true, managerScope: scope })}` }
    const base = `http://127.0.0.1:${certs.port}`

    step('export')
    // The export first, on a fresh process, its peak RSS counted from just before it.
    const idleRss = await rss(certs.proc.pid!)
    await peakRss(certs.proc.pid!, true)
    const t0 = performance.now()
    const res = await fetch(`${base}/reports/certifications/export?format=excel`, { headers: adminAuth })
    if (!res.ok) throw new Error(`export failed: ${res.status} ${await res.text()}`)
    let bytes = 0
    const reader = res.body!.getReader()
    for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.length
    const exportSeconds = (performance.now() - t0) / 1000
    const exportPeak = await peakRss(certs.proc.pid!)

    step(`export done in ${exportSeconds.toFixed(2)} s`)
    const teamUrl = `${base}/manager/team`
    const first = (await (await fetch(teamUrl, { headers: managerAuth })).json()) as { total: number }
    step(`manager sees ${first.total}`)
    // Warm both up, then measure: the ceiling first (alone), then ours.
    ceiling = await child('bench/team-ceiling-server.ts', { DATABASE_URL: db.toString(), BENCH_MANAGER_BRANCH: TEAM_BENCH.managerBranch })
    const cBase = `http://127.0.0.1:${ceiling.port}`
    step('ceiling up')
    await measure(`${cBase}/team/admin`, {}, 1, connections)
    const ceilingAdmin = await measure(`${cBase}/team/admin`, {}, opts.durationSeconds, connections)
    const ceilingManager = await measure(`${cBase}/team/manager`, {}, opts.durationSeconds, connections)
    await stop(ceiling.proc)
    await measure(teamUrl, adminAuth, 1, connections)
    step('measuring svc-certs')
    const oursAdmin = await measure(teamUrl, adminAuth, opts.durationSeconds, connections)
    const oursManager = await measure(teamUrl, managerAuth, opts.durationSeconds, connections)
    const ratio = (o: LatencyFigures, c: LatencyFigures) => Number((o.rps / c.rps).toFixed(3))
    return {
      technicians: TEAM_BENCH.technicians,
      certifications: TEAM_BENCH.technicians * TEAM_BENCH.certificationsEach,
      connections,
      admin: { ceiling: ceilingAdmin, ours: oursAdmin, ratio: ratio(oursAdmin, ceilingAdmin) },
      manager: { members: first.total, ceiling: ceilingManager, ours: oursManager, ratio: ratio(oursManager, ceilingManager) },
      export: { rows: TEAM_BENCH.technicians, bytes, seconds: Number(exportSeconds.toFixed(2)), idleRssMb: idleRss, peakRssMb: exportPeak },
      goals: { p95Ms: 100, ratio: 0.4, exportSeconds: 3, exportPeakRssMb: 200 },
    }
  } finally {
    await client.end()
    if (ceiling) await stop(ceiling.proc)
    await stop(certs.proc)
  }
}

export const formatTeam = (r: TeamBenchResult) => {
  const line = (who: string, x: TeamBenchResult['admin']) =>
    `team dashboard (${who})`.padEnd(34) +
    `${x.ours.rps} req/s, p95 ${x.ours.p95} ms, p99 ${x.ours.p99} ms; ceiling ${x.ceiling.rps} req/s, p95 ${x.ceiling.p95} ms; ratio ${(x.ratio * 100).toFixed(1)}% (goal p95 <= 100 ms, >= 40%)`
  return [
    `team: ${r.technicians} technicians x ${r.certifications / r.technicians} certifications, ${r.connections} connections`,
    line('admin, everyone', r.admin),
    line(`manager, ${r.manager.members} members`, r.manager),
    `team export (${r.export.rows} rows)`.padEnd(34) + `${r.export.seconds} s, ${(r.export.bytes / 1024 / 1024).toFixed(1)} MB, service idle RSS ${r.export.idleRssMb} MB, peak RSS ${r.export.peakRssMb} MB (goal <= 3 s, <= 200 MB)`,
  ].join('\n')
}

if (import.meta.main) {
  const result = await benchTeam({ durationSeconds: Number(process.env.BENCH_SECONDS ?? 10), connections: process.env.BENCH_TEAM_CONNECTIONS ? Number(process.env.BENCH_TEAM_CONNECTIONS) : undefined })
  console.log(JSON.stringify(result, null, 2))
  console.log(formatTeam(result))
}
