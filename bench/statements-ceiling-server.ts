/**
 * The xAPI statements ceiling: a bare Hono + pg route that inserts the same statement JSON into a
 * table shaped like learning's xapi_statements (id, registration, verb, activity, agent, stored,
 * the statement) — no gateway, no credential, no validation, no cmi5 rules. Prints `READY <port>`.
 */
import { Hono } from 'hono'
import pg from 'pg'
import { listen } from '@portal/server-kit'

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
await pool.query(`create table if not exists bench_xapi_statements (
  id uuid primary key, registration uuid, verb_id text not null, activity_id text, agent_key text not null,
  stored timestamptz not null, statement jsonb not null)`)
await pool.query('truncate bench_xapi_statements')
const app = new Hono()
app.post('/statements', async (c) => {
  const s = (await c.req.json()) as { actor: { account: { name: string } }; verb: { id: string }; object: { id: string }; context: { registration: string } }
  const id = crypto.randomUUID()
  await pool.query(
    `insert into bench_xapi_statements (id, registration, verb_id, activity_id, agent_key, stored, statement)
     values ($1, $2, $3, $4, $5, now(), $6)`,
    [id, s.context.registration, s.verb.id, s.object.id, s.actor.account.name, JSON.stringify({ ...s, id })],
  )
  return c.json([id])
})
const server = await listen(app, Number(process.env.PORT ?? 0))
process.stdout.write(`READY ${server.port}\n`)
