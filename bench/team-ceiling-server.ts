/**
 * The compliance surfaces' ceiling: bare Hono + pg routes running the very statements svc-certs
 * runs, imported from it (`refreshStaleFiguresStatement`, `teamPageStatement`, `figuresStatement`,
 * `dashboardStatements`, `consistencyStatements`), for the same viewer and filters — no token, no
 * ORM, no validation, no shaping. Prints `READY <port>`.
 */
import { Hono } from 'hono'
import pg from 'pg'
import { CERT_NOTIFICATIONS, DEFAULT_COMPANY_TIME_ZONE, todayIn } from '@portal/contracts'
import { listen } from '@portal/server-kit'
import { consistencyStatements, figuresStatement, refreshStaleFiguresStatement } from 'svc-certs/compliance/ledger.repository'
import { dashboardStatements } from 'svc-certs/notifications/notification.repository'
import { teamPageStatement } from 'svc-certs/team/team.repository'

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
const BRANCH = (process.env.BENCH_MANAGER_BRANCH ?? 'Portland') as 'Portland'
// The service's today: the company's date (COMPANY_TIME_ZONE, unset in the benchmark).
const TIME_ZONE = process.env.COMPANY_TIME_ZONE ?? DEFAULT_COMPANY_TIME_ZONE
const actor = {
  userId: '00000000-0000-4000-8000-000000000000',
  email: 'x@example.com',
  name: 'x',
  isAdmin: false,
  isManager: true,
  managerScope: { branches: [], departments: [] },
}

/** `?` placeholders as pg's `$n`, arrays spread as lists (as the ORM's execute does). */
function toPg(sql: string, params: unknown[] = []) {
  const values: unknown[] = []
  let i = 0
  const text = sql.replace(/\?/g, () => {
    const p = params[i++]
    if (Array.isArray(p)) return p.map((v) => (values.push(v), `$${values.length}`)).join(', ')
    values.push(p)
    return `$${values.length}`
  })
  return { text, values }
}
const run = async <T = Record<string, unknown>>(s: { sql: string; params?: unknown[] }) => {
  const q = toPg(s.sql, s.params)
  return (await pool.query(q.text, q.values)).rows as T[]
}
const today = () => todayIn(TIME_ZONE)
// The same work as the service before every read: catch up on stale kept figures (none, mostly).
const refresh = () => run(refreshStaleFiguresStatement(today()))
const figures = async () => (await refresh(), run(figuresStatement()))
// The statements MikroORM builds for `certificationTypeRepository.listAll` and `.requirements` (tiny tables).
const types = () => run({ sql: 'select * from certification_types order by tier_level asc, name asc, id asc' })
const requirements = async () => {
  const reqs = await run<{ certification_id: number }>({ sql: 'select * from tier_requirements' })
  const ids = [...new Set(reqs.map((r) => r.certification_id))]
  return [reqs, ids.length ? await run({ sql: 'select * from certification_types where id in (?)', params: [ids] }) : []]
}
const teamPage = (scope: { branches: string[]; departments: string[] } | null, limit: number) =>
  run(teamPageStatement({ actor, scope: scope as never }, { sort: 'name', order: 'asc' }, { limit, offset: 0 }))

const app = new Hono()
app.get('/team/:who', async (c) => {
  const scope = c.req.param('who') === 'admin' ? null : { branches: [BRANCH], departments: [] }
  await refresh()
  const rows = await teamPage(scope, 100)
  return c.json(rows[0])
})
// GET /admin/certifications/overview: the types and the organisation's figures, side by side.
app.get('/overview', async (c) => {
  const [t, f] = await Promise.all([types(), figures()])
  return c.json({ types: t.length, figures: f })
})
// GET /certification-notifications/dashboard as the screen asks for it (60 days, expired included).
app.get('/dashboard', async (c) => {
  const day = today()
  const { list, counts } = dashboardStatements(day, new Date(), { days: CERT_NOTIFICATIONS.dashboardDays, include_expired: true, limit: CERT_NOTIFICATIONS.dashboardListed })
  // As the service: the list, the figures (the groups' counts with them) and, for a window that cuts a group, the counts, at once.
  const [rows, counted, compliance] = await Promise.all([run(list), counts ? run(counts) : null, figures()])
  return c.json({ rows, counted, compliance })
})
// GET /admin/certifications/consistency: the check's reads with the service's parallelism, no recompute or comparison.
app.get('/consistency', async (c) => {
  await refresh()
  const [[members, held, reqs], kept, f, team] = await Promise.all([
    Promise.all([run({ sql: consistencyStatements.members }), run({ sql: consistencyStatements.held }), requirements()]),
    run({ sql: consistencyStatements.kept }),
    figures(),
    (async () => (await refresh(), teamPage(null, 1)))(),
  ])
  return c.json({ members: members.length, held: held.length, requirements: reqs[0]!.length, kept: kept.length, branches: f.length, team: team.length })
})
const server = await listen(app, 0)
process.stdout.write(`READY ${server.port}\n`)
