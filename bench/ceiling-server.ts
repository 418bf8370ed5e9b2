/** The ceiling: a bare Hono + pg route selecting one row by primary key (no auth, no gateway). */
import { Hono } from 'hono'
import pg from 'pg'
import { listen } from '@portal/server-kit'

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
await pool.query('create table if not exists bench_users (id uuid primary key, name text not null, email text not null, branch text, department text)')
const id = '00000000-0000-4000-8000-000000000001'
await pool.query("insert into bench_users values ($1, 'Bench User', 'bench@example.com', 'Portland', 'Service') on conflict do nothing", [id])
const app = new Hono()
app.get('/users/:id', async (c) => {
  const { rows } = await pool.query('select id, name, email, branch, department from bench_users where id = $1', [c.req.param('id')])
  return rows[0] ? c.json({ user: rows[0] }) : c.json({ message: 'User not found' }, 404)
})
const server = await listen(app, Number(process.env.PORT ?? 0))
process.stdout.write(`READY ${server.port} ${id}\n`)
