/**
 * The ceilings: bare Hono + pg routes (no auth, no gateway, no ORM) doing the least work the
 * portal's routes must do.
 * - `GET /users/:id`: one row by primary key (identity's profile).
 * - `POST /exams/:id/attempts`: reads the exam's pool (one jsonb row), draws the questions and
 *   inserts the attempt's snapshot row (an exam start).
 * - `POST /attempts/:id/submit`: in one transaction, reads the attempt row (locked), grades it in
 *   JS with the service's own grading function and updates it (an exam submit). It grades and
 *   writes every time, so a prepared row can be hit again with the same work.
 * - `POST /setup/exams`: (re)creates the exam tables with a pool and prepared attempts.
 */
import { randomUUID } from 'node:crypto'
import { Hono } from 'hono'
import pg from 'pg'
import type { Answer, Question } from '@portal/contracts'
import { listen } from '@portal/server-kit'
import { draw } from 'svc-learning/exams/attempts/draw'
import { gradeAttempt } from 'svc-learning/exams/attempts/grading'

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
await pool.query('create table if not exists bench_users (id uuid primary key, name text not null, email text not null, branch text, department text)')
const id = '00000000-0000-4000-8000-000000000001'
await pool.query("insert into bench_users values ($1, 'Bench User', 'bench@example.com', 'Portland', 'Service') on conflict do nothing", [id])
const app = new Hono()
app.get('/users/:id', async (c) => {
  const { rows } = await pool.query('select id, name, email, branch, department from bench_users where id = $1', [c.req.param('id')])
  return rows[0] ? c.json({ user: rows[0] }) : c.json({ message: 'User not found' }, 404)
})

const publicQuestion = (q: Question) => ({
  id: q.id,
  question_type: q.question_type,
  question_text: q.question_text,
  options: q.options,
  subject_category: q.subject_category,
})

app.post('/setup/exams', async (c) => {
  const body = await c.req.json<{ examId: number; pool: Question[]; totalQuestions: number; prepared: { count: number; questions: Question[] } }>()
  await pool.query('drop table if exists bench_exam_pools, bench_attempts')
  await pool.query('create table bench_exam_pools (id int primary key, total_questions int not null, time_limit int not null, questions jsonb not null)')
  await pool.query(`create table bench_attempts (
    id uuid primary key, exam_id int not null, user_id uuid not null, questions jsonb not null, answers jsonb not null,
    status text not null, started_at timestamptz not null, deadline timestamptz not null,
    score double precision, passed boolean, result jsonb)`)
  await pool.query('insert into bench_exam_pools values ($1, $2, 60, $3)', [body.examId, body.totalQuestions, JSON.stringify(body.pool)])
  const { rows } = await pool.query<{ id: string }>(
    `insert into bench_attempts (id, exam_id, user_id, questions, answers, status, started_at, deadline)
     select gen_random_uuid(), $1, gen_random_uuid(), $2::jsonb, $3::jsonb, 'in_progress', now(), now() + interval '1 hour'
     from generate_series(1, $4) returning id`,
    [body.examId, JSON.stringify(body.prepared.questions), JSON.stringify(body.prepared.questions.map(() => -1)), body.prepared.count],
  )
  return c.json({ prepared: rows.map((r) => r.id) })
})

app.post('/exams/:id/attempts', async (c) => {
  const { rows } = await pool.query<{ total_questions: number; time_limit: number; questions: Question[] }>(
    'select total_questions, time_limit, questions from bench_exam_pools where id = $1',
    [Number(c.req.param('id'))],
  )
  const exam = rows[0]
  if (!exam) return c.json({ message: 'Exam not found' }, 404)
  const questions = draw(exam.questions, exam.total_questions)
  const startedAt = new Date()
  const deadline = new Date(startedAt.getTime() + exam.time_limit * 60_000)
  const attemptId = randomUUID()
  await pool.query("insert into bench_attempts (id, exam_id, user_id, questions, answers, status, started_at, deadline) values ($1, $2, $3, $4, $5, 'in_progress', $6, $7)", [
    attemptId,
    Number(c.req.param('id')),
    randomUUID(),
    JSON.stringify(questions),
    JSON.stringify(questions.map(() => -1)),
    startedAt,
    deadline,
  ])
  return c.json({ attemptId, questions: questions.map(publicQuestion), deadline: deadline.toISOString(), startedAt: startedAt.toISOString(), attemptNumber: 1 }, 201)
})

app.post('/attempts/:id/submit', async (c) => {
  const body = await c.req.json<{ answers: Answer[]; questionIds: number[] }>()
  const client = await pool.connect()
  try {
    await client.query('begin')
    const { rows } = await client.query<{ id: string; exam_id: number; questions: Question[] }>('select id, exam_id, questions from bench_attempts where id = $1 for update', [
      c.req.param('id'),
    ])
    const a = rows[0]
    if (!a) {
      await client.query('rollback')
      return c.json({ message: 'Attempt not found' }, 404)
    }
    const given = new Map(body.questionIds.map((qid, i) => [qid, body.answers[i]!]))
    const answers = a.questions.map((q) => given.get(q.id) ?? -1)
    const result = gradeAttempt({
      attemptId: a.id,
      examId: a.exam_id,
      examName: 'Bench exam',
      passScore: 70,
      attemptNumber: 1,
      questions: a.questions,
      answers,
      submittedAt: new Date(),
    })
    await client.query("update bench_attempts set answers = $2, status = 'submitted', score = $3, passed = $4, result = $5 where id = $1", [
      a.id,
      JSON.stringify(answers),
      result.score,
      result.passed,
      JSON.stringify(result),
    ])
    await client.query('commit')
    return c.json(result)
  } catch (err) {
    await client.query('rollback').catch(() => {})
    throw err
  } finally {
    client.release()
  }
})

const server = await listen(app, Number(process.env.PORT ?? 0))
process.stdout.write(`READY ${server.port} ${id}\n`)
