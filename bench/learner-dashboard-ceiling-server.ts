/**
 * The learner dashboard's ceiling: a bare Hono + pg route running the statement svc-learning's
 * `GET /assignments/mine` runs (the learner's rows on their index, each with its item's title, its
 * state and due date by the SQL twins of the state rule, in the dashboard's order), prepared once
 * per connection, for the user in the path — no token, no ORM, no shaping. Prints `READY <port>`.
 */
import { Hono } from 'hono'
import pg from 'pg'
import { ASSIGNMENT_STATES } from '@portal/contracts'
import { listen } from '@portal/server-kit'

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
const MINE = `select * from (
    select ap.rule_id, ap.user_id, r.item_kind, r.item_id,
           case r.item_kind when 'course' then (select c.title from courses c where c.id = r.item_id) else (select e.name from exams e where e.id = r.item_id) end as item_title,
           ap.assigned_on::text as assigned_on, ap.due_on::text as due_on, ap.opens_on::text as opens_on, ap.completed_on::text as completed_on,
           ap.next_due_on::text as next_due_on, ap.next_opens_on::text as next_opens_on, r.recurrence is not null as recurring, ap.exempt_reason, r.due_soon_days,
           assignment_state(ap.due_on, ap.opens_on, ap.completed_on, ap.next_due_on, ap.next_opens_on, ap.exempt_reason is not null, r.due_soon_days, $2::date) as state,
           assignment_effective_due(ap.due_on, ap.completed_on, ap.next_due_on, ap.next_opens_on, $2::date) as effective_due
      from assignment_people ap join assignment_rules r on r.id = ap.rule_id
     where ap.user_id = $1 and ap.removed_at is null and r.deleted_at is null) p
  order by array_position(array[${ASSIGNMENT_STATES.map((s) => `'${s}'`).join(', ')}]::text[], state), p.effective_due, p.item_title, p.rule_id`

const app = new Hono()
app.get('/mine/:userId', async (c) => {
  const today = new Date().toISOString().slice(0, 10)
  const { rows } = await pool.query({ name: 'mine', text: MINE, values: [c.req.param('userId'), today] })
  return c.json({ today, assignments: rows })
})
const server = await listen(app, 0)
process.stdout.write(`READY ${server.port}\n`)
