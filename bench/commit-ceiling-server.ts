/**
 * The SCORM commit ceiling: a bare Hono + pg route that upserts the same commit JSON into a table
 * shaped like learning's scorm_states, with the same "only newer wins" condition — no gateway, no
 * token, no validation. Prints `READY <port>`.
 */
import { Hono } from 'hono'
import pg from 'pg'
import { listen } from '@portal/server-kit'

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
await pool.query(`create table if not exists bench_scorm_states (
  user_id text not null, module_id int not null, item_id text not null,
  launch_at bigint not null, seq int not null, cmi jsonb not null, updated_at timestamptz not null,
  primary key (user_id, module_id, item_id))`)
await pool.query('truncate bench_scorm_states')
const app = new Hono()
app.post('/commit/:user/:module', async (c) => {
  const body = (await c.req.json()) as { itemId: string; seq: number; runtimeData: unknown }
  await pool.query(
    `insert into bench_scorm_states (user_id, module_id, item_id, launch_at, seq, cmi, updated_at)
     values ($1, $2, $3, $4, $5, $6, now())
     on conflict (user_id, module_id, item_id) do update set launch_at = excluded.launch_at, seq = excluded.seq,
       cmi = excluded.cmi, updated_at = excluded.updated_at
     where (bench_scorm_states.launch_at, bench_scorm_states.seq) < (excluded.launch_at, excluded.seq)`,
    [c.req.param('user'), Number(c.req.param('module')), body.itemId, 1, body.seq, JSON.stringify(body.runtimeData)],
  )
  return c.json({ result: true, errorCode: 0 })
})
const server = await listen(app, Number(process.env.PORT ?? 0))
process.stdout.write(`READY ${server.port}\n`)
