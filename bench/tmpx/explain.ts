import pg from 'pg'
import { refreshStaleFiguresStatement, teamPageStatement } from '/work/wt/perf/svc-certs/src/team/team.repository.ts'
const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/bench_team' })
await c.connect()
function toPg(sql: string, params: unknown[]) {
  const values: unknown[] = []; let i = 0
  const text = sql.replace(/\?/g, () => { const p = params[i++]; if (Array.isArray(p)) return p.map((v) => (values.push(v), `$${values.length}`)).join(', '); values.push(p); return `$${values.length}` })
  return { text, values }
}
const actor = { userId: '00000000-0000-4000-8000-000000000000', email: 'x', name: 'x', isAdmin: false, isManager: true, managerScope: { branches: [], departments: [] } }
const r = refreshStaleFiguresStatement(new Date().toISOString().slice(0, 10))
const p = teamPageStatement({ actor, scope: null } as never, { sort: 'name', order: 'asc' }, { limit: 100, offset: 0 })
for (const s of [r, p]) {
  const q = toPg(s.sql, s.params)
  for (let k = 0; k < 3; k++) { const t = performance.now(); await c.query(q.text, q.values); console.log('ms', (performance.now() - t).toFixed(1)) }
  const { rows } = await c.query('explain (analyze, buffers off) ' + q.text, q.values)
  console.log(rows.map((x) => x['QUERY PLAN']).join('\n'))
}
await c.end()
