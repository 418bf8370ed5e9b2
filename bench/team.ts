/**
 * Compliance surfaces benchmark (issues 11 and 23): svc-certs' real `start()` on the machine's
 * PostgreSQL with 10,000 technicians holding 8 certifications each, beside a bare Hono + pg
 * ceiling running the same statements, measured in the same run.
 * Goals: `GET /manager/team` (an admin, everyone; a one-branch manager), `GET
 * /admin/certifications/overview` and `GET /certification-notifications/dashboard` p95 <= 100 ms
 * and >= 40% of the ceiling; the 10,000-member export <= 3 s with the service's peak RSS <= 200 MB;
 * `GET /admin/certifications/consistency` <= 5 s on every run.
 * Runs alone with `node bench/team.ts` (BENCH_SECONDS, BENCH_CONSISTENCY_RUNS, BENCH_DATABASE_URL;
 * BENCH_SERVER: another script in place of bench/team-server.ts, e.g. one printing its memory, for
 * probes), writing bench/results/team-<time>.json.
 */
import { readFile, writeFile } from 'node:fs/promises'
import pg from 'pg'
import { PlatformEnv, createTokenIssuer, ensureDatabase, loadOrCreateSigningKey } from '@portal/server-kit'
import { CERT_NOTIFICATIONS, type ConsistencyReport } from '@portal/contracts'
import { CERTS_NODE_FLAGS } from 'svc-certs/node-flags'
import { BENCH_PG, writeBenchRecord } from './support.ts'
import { measureLatency, startChild, stopChild, type LatencyFigures } from './http-load.ts'

export const TEAM_BENCH = { technicians: 10_000, certificationsEach: 8, types: 12, managerBranch: 'Portland' } as const

export interface SurfaceFigures {
  ceiling: LatencyFigures
  ours: LatencyFigures
  ratio: number
}
export interface TeamBenchResult {
  technicians: number
  certifications: number
  connections: number
  /** What the seed made (counted from the database, as the surfaces see it). */
  data: { technicians: number; noBranch: number; expired: number; expiring30Days: number; within60Days: number; missingProof: number; requirementsMet: number }
  admin: SurfaceFigures
  manager: SurfaceFigures & { members: number }
  overview: SurfaceFigures & { bytes: number }
  dashboard: SurfaceFigures & { items: number; bytes: number }
  consistency: { seconds: number[]; ceilingSeconds: number[]; worst: number; consistent: boolean; differences: number; technicians: number }
  export: { rows: number; bytes: number; seconds: number; idleRssMb: number; peakRssMb: number }
  goals: { p95Ms: number; ratio: number; exportSeconds: number; exportPeakRssMb: number; consistencySeconds: number }
}

/**
 * As a real organisation's ledger looks: 12 types over the tiers (one for each of three
 * departments, one lifetime, one inactive, one optional), 10,000 technicians over every branch
 * (unevenly) and the departments each branch has, 2% without a branch (half of those without a
 * department either), tiers 0-3 thinning upwards, 1% with notifications paused, and 100 deleted
 * users' id-only rows. Each holds 8 of the types: 6% expired (up to a year ago), 8% within 80 days,
 * the rest later in their validity; 12% of the proofs a type asks for are missing, a third of the
 * uploaded ones verified. Deterministic (hashtext), so every run seeds the same ledger.
 */
async function seed(client: pg.Client) {
  const n = TEAM_BENCH.technicians
  // name, code, tier, department (null: all), validity in months (null: lifetime), upload required, active; every one required by its tier but the elective
  await client.query(`insert into certification_types (name, code, tier_level, department, validity_period, upload_required, is_active, created_at, updated_at)
    select name, code, tier, department, validity, upload, active, now(), now() from (values
      ('Safety Orientation', 'B-SAFE', 0, null, 24, false, true), ('First Aid and CPR', 'B-CPR', 0, null, 24, true, true),
      ('OSHA 10', 'B-OSHA10', 0, null, null, true, true), ('Confined Space Entry', 'B-CSE', 1, null, 12, true, true),
      ('Fall Protection', 'B-FALL', 1, null, 36, false, true), ('NFPA 70E', 'B-70E', 1, 'Electricians', 36, true, true),
      ('Backflow Testing', 'B-BFT', 2, 'Testing', 36, true, true), ('Rigging and Signaling', 'B-RIG', 2, null, 60, false, true),
      ('Forklift Operator', 'B-FORK', 2, 'Construction', 36, false, true), ('Master Technician', 'B-MASTER', 3, null, 24, true, true),
      ('Legacy Hazmat', 'B-HAZ', 1, null, 24, false, false), ('Elective: Customer Care', 'B-CARE', 2, null, 24, true, true)
    ) v(name, code, tier, department, validity, upload, active)`)
  await client.query(`insert into tier_requirements (tier_level, certification_id, is_required, created_at)
    select tier_level, id, code <> 'B-CARE', now() from certification_types`)
  // Branches 35/30/20/15%, 2% none; departments as the branch has them (Anchorage and Tri-Cities have no Electricians).
  await client.query(`insert into users (id, name, email, is_admin, is_manager, branch, department, occurred_at, employee_id)
    select gen_random_uuid(), 'Tech ' || lpad(i::text, 5, '0'), 'tech' || i || '@bench.test', false, false, b.branch,
      case when b.branch is null then case when i % 100 = 0 then null else 'Service' end
           when b.branch in ('Portland', 'Seattle') then (array['Service','Testing','Construction','Electricians'])[1 + (i / 20) % 4]
           else (array['Service','Testing','Construction'])[1 + (i / 20) % 3] end,
      now(), 'B' || i
    from generate_series(1, ${n}) i
    cross join lateral (select case when i % 50 = 0 then null when i % 20 < 7 then 'Portland' when i % 20 < 13 then 'Seattle'
      when i % 20 < 17 then 'Anchorage' else 'Tri-Cities' end as branch) b`)
  await client.query(`insert into users (id, occurred_at, deleted_at) select gen_random_uuid(), now(), now() from generate_series(1, 100)`)
  // Tiers 40/30/20/10%; 1% with notifications paused for two weeks.
  await client.query(`insert into technicians (user_id, current_tier, notifications_paused_until, updated_at)
    select id, case when h < 40 then 0 when h < 70 then 1 when h < 90 then 2 else 3 end,
      case when i % 100 = 3 then now() + interval '14 days' end, now()
    from (select id, substr(employee_id, 2)::int as i, abs(hashtext('tier' || employee_id)) % 100 as h from users where employee_id like 'B%') u`)
  await client.query(`insert into technician_certifications (user_id, certification_id, certification_number, obtained_date, expiration_date,
      file_key, file_name, file_size, file_type, uploaded_at, verified_at, created_at, updated_at)
    select c.user_id, c.type_id, 'N-' || c.employee_id || '-' || c.k,
      coalesce((c.expires - make_interval(months => c.validity))::date, current_date - 30 - c.r), c.expires,
      case when c.proof then 'proofs/bench' end, case when c.proof then 'proof.pdf' end, case when c.proof then 1000 end,
      case when c.proof then 'application/pdf' end, case when c.proof then now() end, case when c.proof and c.f % 3 = 0 then now() end, now(), now()
    from (
      select u.id as user_id, u.employee_id, k, t.id as type_id, t.validity_period as validity, r, f,
        case when t.validity_period is null then null
             when r < 60 then current_date - (1 + r * 6)
             when r < 140 then current_date + (r - 60)
             else current_date + 80 + ((r - 140) * (t.validity_period * 30 - 80)) / 860 end as expires,
        case when t.upload_required then f >= 12 else f < 40 end as proof
      from (select id, employee_id, substr(employee_id, 2)::int as i from users where employee_id like 'B%') u
      cross join generate_series(0, ${TEAM_BENCH.certificationsEach - 1}) k
      join (select id, validity_period, upload_required, row_number() over (order by id) - 1 as idx from certification_types) t on t.idx = (u.i + k) % ${TEAM_BENCH.types}
      cross join lateral (select abs(hashtext(u.employee_id || ':' || k)) % 1000 as r, abs(hashtext('proof' || u.employee_id || ':' || k)) % 100 as f) h
    ) c`)
  await client.query('analyze')
}

/** What the seed made, as the surfaces count it (today: the database's own date, for this summary only). */
async function seededData(client: pg.Client): Promise<TeamBenchResult['data']> {
  const { rows } = await client.query(`select
      (select count(*) from users u where not u.is_admin and u.deleted_at is null and u.name is not null)::int as technicians,
      (select count(*) from users u where not u.is_admin and u.deleted_at is null and u.name is not null and u.branch is null)::int as "noBranch",
      (select count(*) from technician_certifications where expiration_date < current_date)::int as expired,
      (select count(*) from technician_certifications where expiration_date between current_date and current_date + 30)::int as "expiring30Days",
      (select count(*) from technician_certifications where expiration_date between current_date and current_date + 60)::int as "within60Days",
      (select count(*) from technician_certifications tc join certification_types ct on ct.id = tc.certification_id where ct.upload_required and tc.file_name is null)::int as "missingProof",
      (select count(*) from team_member_figures where completion_percentage >= 100)::int as "requirementsMet"`)
  return rows[0]
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

export async function benchTeam(opts: { pgUrl?: string; durationSeconds: number; connections?: number; consistencyRuns?: number }): Promise<TeamBenchResult> {
  const connections = opts.connections ?? 4
  const consistencyRuns = opts.consistencyRuns ?? 5
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
  const certs = await startChild(process.env.BENCH_SERVER ?? 'bench/team-server.ts', { DATABASE_URL: db.toString(), BENCH_JWKS: JSON.stringify(issuer.jwks()) }, CERTS_NODE_FLAGS)
  const client = new pg.Client({ connectionString: db.toString() })
  await client.connect()
  let ceiling: Awaited<ReturnType<typeof startChild>> | undefined
  try {
    const step = (what: string) => process.stderr.write(`[team bench] ${what}\n`)
    step('seeding')
    await seed(client)
    step('seeded')
    const [adminId, managerId] = [crypto.randomUUID(), crypto.randomUUID()]
    const scope = { branches: [TEAM_BENCH.managerBranch], departments: [] }
    await client.query(
      `insert into users (id, name, email, is_admin, is_manager, manager_scope, occurred_at) values ($1, 'Bench Admin', 'admin@bench.test', true, false, '{"branches":[],"departments":[]}', now()), ($2, 'Bench Manager', 'manager@bench.test', false, true, $3, now())`,
      [adminId, managerId, JSON.stringify(scope)],
    )
    const none = { branches: [], departments: [] }
    const adminAuth = {
      authorization: `Bearer ${await issuer.sign({ userId: adminId, email: 'admin@bench.test', name: 'Bench Admin', isAdmin: true, isManager: false, managerScope: none })}`,
    }
    const managerAuth = {
      authorization: `Bearer ${await issuer.sign({ userId: managerId, email: 'manager@bench.test', name: 'Bench Manager', isAdmin: false, isManager: true, managerScope: scope })}`,
    }
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
    const data = await seededData(client)
    step(`seeded data: ${JSON.stringify(data)}`)

    const teamUrl = `${base}/manager/team`
    const overviewUrl = `${base}/admin/certifications/overview`
    // As Certification Notification Management asks for it (the ceiling runs the same query).
    // As the screen asks for it: the first of each group, the counts being the totals.
    const dashboardUrl = `${base}/certification-notifications/dashboard?days=${CERT_NOTIFICATIONS.dashboardDays}&include_expired=true&limit=${CERT_NOTIFICATIONS.dashboardListed}`
    const consistencyUrl = `${base}/admin/certifications/consistency`
    const json = async <T>(url: string, headers: Record<string, string>) => {
      const r = await fetch(url, { headers })
      const text = await r.text()
      if (!r.ok) throw new Error(`${url}: ${r.status} ${text.slice(0, 300)}`)
      return { body: JSON.parse(text) as T, bytes: Buffer.byteLength(text) }
    }
    const first = (await json<{ total: number }>(teamUrl, managerAuth)).body
    step(`manager sees ${first.total}`)
    const overview = await json<{ technicians: number }>(overviewUrl, adminAuth)
    const dashboard = await json<{ counts: Record<string, number> }>(dashboardUrl, adminAuth)
    const items = Object.values(dashboard.body.counts).reduce((a, b) => a + b, 0)
    step(
      `overview: ${overview.body.technicians} technicians; dashboard: ${items} certifications counted, the first ${CERT_NOTIFICATIONS.dashboardListed} of each group listed (${JSON.stringify(dashboard.body.counts)}), ${(dashboard.bytes / 1024).toFixed(0)} KB`,
    )

    /** One request's seconds and answer. */
    const timed = async (url: string, headers: Record<string, string>) => {
      const t = performance.now()
      const body = (await json(url, headers)).body
      return { seconds: Number(((performance.now() - t) / 1000).toFixed(2)), body }
    }
    type Surface = 'admin' | 'manager' | 'overview' | 'dashboard'
    const SURFACES: readonly Surface[] = ['admin', 'manager', 'overview', 'dashboard']
    ceiling = await startChild('bench/team-ceiling-server.ts', { DATABASE_URL: db.toString(), BENCH_MANAGER_BRANCH: TEAM_BENCH.managerBranch })
    const cBase = `http://127.0.0.1:${ceiling.port}`
    step('ceiling up')
    const sides = {
      ceiling: {
        urls: { admin: `${cBase}/team/admin`, manager: `${cBase}/team/manager`, overview: `${cBase}/overview`, dashboard: `${cBase}/dashboard` },
        auth: { admin: {}, manager: {} },
      },
      ours: { urls: { admin: teamUrl, manager: teamUrl, overview: overviewUrl, dashboard: dashboardUrl }, auth: { admin: adminAuth, manager: managerAuth } },
    }
    // Each surface on the ceiling, then at once on svc-certs (each warmed 1 s first): on a shared
    // machine the load changes less between the two than between two whole passes.
    const c = {} as Record<Surface, LatencyFigures>
    const o = {} as Record<Surface, LatencyFigures>
    for (const key of SURFACES) {
      for (const [side, out] of [
        ['ceiling', c],
        ['ours', o],
      ] as const) {
        const { urls, auth } = sides[side]
        const headers = key === 'manager' ? auth.manager : auth.admin
        const report = (err: Error) => process.stderr.write(`[team bench] ${urls[key]}: ${err.message}\n`)
        await measureLatency(urls[key], headers, 1, connections, report)
        step(`measuring ${key} (${side})`)
        out[key] = await measureLatency(urls[key], headers, opts.durationSeconds, connections, report)
      }
    }
    // The consistency check, one run at a time, alternating with the same statements run bare.
    step('consistency')
    const cConsistency: number[] = []
    const oConsistency: number[] = []
    let report: ConsistencyReport | undefined
    for (let i = 0; i < consistencyRuns; i++) {
      cConsistency.push((await timed(`${cBase}/consistency`, {})).seconds)
      const run = await timed(consistencyUrl, adminAuth)
      oConsistency.push(run.seconds)
      report = run.body as ConsistencyReport
    }
    await stopChild(ceiling.proc)
    const ratio = (ours: LatencyFigures, ceil: LatencyFigures) => Number((ours.rps / ceil.rps).toFixed(3))
    const surface = (key: Surface) => ({ ceiling: c[key], ours: o[key], ratio: ratio(o[key], c[key]) })
    return {
      technicians: TEAM_BENCH.technicians,
      certifications: TEAM_BENCH.technicians * TEAM_BENCH.certificationsEach,
      connections,
      data,
      admin: surface('admin'),
      manager: { members: first.total, ...surface('manager') },
      overview: { bytes: overview.bytes, ...surface('overview') },
      dashboard: { items, bytes: dashboard.bytes, ...surface('dashboard') },
      consistency: {
        seconds: oConsistency,
        ceilingSeconds: cConsistency,
        worst: Math.max(...oConsistency),
        consistent: report!.consistent,
        differences: report!.difference_count,
        technicians: report!.technicians,
      },
      export: { rows: TEAM_BENCH.technicians, bytes, seconds: Number(exportSeconds.toFixed(2)), idleRssMb: idleRss, peakRssMb: exportPeak },
      goals: { p95Ms: 100, ratio: 0.4, exportSeconds: 3, exportPeakRssMb: 200, consistencySeconds: 5 },
    }
  } finally {
    await client.end()
    if (ceiling) await stopChild(ceiling.proc)
    await stopChild(certs.proc)
  }
}

export const formatTeam = (r: TeamBenchResult) => {
  const goal = `(goal p95 <= ${r.goals.p95Ms} ms, >= ${r.goals.ratio * 100}%)`
  const line = (what: string, x: SurfaceFigures) =>
    what.padEnd(46) +
    `${x.ours.rps} req/s, p50 ${x.ours.p50} ms, p95 ${x.ours.p95} ms, p99 ${x.ours.p99} ms; ceiling ${x.ceiling.rps} req/s, p95 ${x.ceiling.p95} ms; ratio ${(x.ratio * 100).toFixed(1)}% ${goal}` +
    (x.ours.failures || x.ceiling.failures ? `, failures ${x.ours.failures} (ceiling ${x.ceiling.failures})` : '')
  const d = r.data
  return [
    `team: ${r.technicians} technicians x ${r.certifications / r.technicians} certifications, ${r.connections} connections`,
    `  seeded: ${d.technicians} technicians (${d.noBranch} without branch), ${d.expired} certifications expired, ${d.expiring30Days} within 30 days, ${d.within60Days} within 60, ${d.missingProof} proofs missing, ${d.requirementsMet} meeting every requirement`,
    line('team dashboard (admin, everyone)', r.admin),
    line(`team dashboard (manager, ${r.manager.members} members)`, r.manager),
    line(`admin overview (${r.overview.bytes} B)`, r.overview),
    line(`notification dashboard (${r.dashboard.items} rows, ${(r.dashboard.bytes / 1024 / 1024).toFixed(1)} MB)`, r.dashboard),
    `consistency check (${r.consistency.technicians} technicians)`.padEnd(46) +
      `${r.consistency.seconds.join(' s, ')} s (worst ${r.consistency.worst} s), ${r.consistency.consistent ? 'consistent' : `${r.consistency.differences} differences`}; same statements bare ${r.consistency.ceilingSeconds.join(' s, ')} s (goal <= ${r.goals.consistencySeconds} s)`,
    `team export (${r.export.rows} rows)`.padEnd(46) +
      `${r.export.seconds} s, ${(r.export.bytes / 1024 / 1024).toFixed(1)} MB, service idle RSS ${r.export.idleRssMb} MB, peak RSS ${r.export.peakRssMb} MB (goal <= 3 s, <= 200 MB)`,
  ].join('\n')
}

if (import.meta.main) {
  const { loadavg } = await import('node:os')
  const load = () => loadavg().map((l) => Number(l.toFixed(2)))
  const loadBefore = load()
  const result = await benchTeam({
    durationSeconds: Number(process.env.BENCH_SECONDS ?? 10),
    connections: process.env.BENCH_TEAM_CONNECTIONS ? Number(process.env.BENCH_TEAM_CONNECTIONS) : undefined,
    consistencyRuns: process.env.BENCH_CONSISTENCY_RUNS ? Number(process.env.BENCH_CONSISTENCY_RUNS) : undefined,
  })
  const file = await writeBenchRecord('team', { durationSeconds: Number(process.env.BENCH_SECONDS ?? 10), ...result }, { loadAverageBefore: loadBefore, loadAverageAfter: load() })
  console.log(formatTeam(result))
  console.log(`written to ${file}`)
}
