/**
 * The team dashboard's ceiling: a bare Hono + pg route running the very statements svc-certs runs
 * (`refreshStaleFiguresStatement`, `teamPageStatement`) for the same viewer and filters — no token, no ORM, no validation, no
 * shaping. Prints `READY <port>`.
 */
import { Hono } from 'hono'
import pg from 'pg'
import { todayIso } from '@portal/contracts'
import { listen } from '@portal/server-kit'
import { refreshStaleFiguresStatement } from 'svc-certs/compliance/ledger.repository'
import { teamPageStatement } from 'svc-certs/team/team.repository'

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
const BRANCH = (process.env.BENCH_MANAGER_BRANCH ?? 'Portland') as 'Portland'
const actor = { userId: '00000000-0000-4000-8000-000000000000', email: 'x@example.com', name: 'x', isAdmin: false, isManager: true, managerScope: { branches: [], departments: [] } }

/** `?` placeholders as pg's `$n`, arrays spread as lists (as the ORM's execute does). */
function toPg(sql: string, params: unknown[]) {
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

const app = new Hono()
app.get('/team/:who', async (c) => {
  const scope = c.req.param('who') === 'admin' ? null : { branches: [BRANCH], departments: [] }
  // The same work as the service: catch up on stale kept figures (none, mostly), then the page.
  const refresh = refreshStaleFiguresStatement(todayIso(new Date()))
  const r = toPg(refresh.sql, refresh.params)
  await pool.query(r.text, r.values)
  const { sql, params } = teamPageStatement({ actor, scope }, { sort: 'name', order: 'asc' }, { limit: 100, offset: 0 })
  const q = toPg(sql, params)
  const { rows } = await pool.query(q.text, q.values)
  return c.json(rows[0])
})
const server = await listen(app, 0)
process.stdout.write(`READY ${server.port}\n`)
