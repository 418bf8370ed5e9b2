/**
 * The exams slice's figures (issue 4), each beside a bare Hono + pg ceiling measured in the same run:
 * - the exam start spike: 1,000 `POST /api/exams/{id}/attempts` released at the same instant
 *   (50 questions drawn from a pool of 200), and the ceiling's snapshot insert hit the same way;
 * - submit and grade a 100-question attempt: `POST /api/exams/{id}/submit` on distinct prepared
 *   attempts, beside a ceiling transaction that reads, grades and updates a 100-question row.
 * Users come through the public API only (registration and the emailed verification code).
 * `npm run bench` calls `benchExams`; `node bench/exams.ts` runs this part alone on its own cluster.
 */
import { spawn } from 'node:child_process'
import { Agent, request } from 'node:http'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import type { AttemptQuestion, Exam, QuestionInput, StartAttemptResponse } from '@portal/contracts'
import { ensureDatabase } from '@portal/server-kit'
import { mapLimit } from '@portal/server-kit/testing'
import { BENCH_PG, startBenchCluster, startSmtpSink, verificationCode } from './support.ts'

const root = fileURLToPath(new URL('..', import.meta.url))

export interface ExamsBenchOptions {
  /** The gateway's base URL (`http://127.0.0.1:18080`). */
  gatewayUrl: string
  /** The PostgreSQL server's URL; the ceiling uses its own database `bench_ceiling` there. */
  pgUrl: string
  /** Mails received by the run's SMTP sink (verification codes are read from them). */
  mails: string[]
  /** ADMIN_REGISTRATION_CODE of the cluster (the bench registers its own admin). */
  adminCode: string
  durationSeconds: number
  connections: number
}

/** How many learners, spike starts and prepared submits (env BENCH_LEARNERS, BENCH_SPIKE, BENCH_SUBMITS). */
const LEARNERS = Number(process.env.BENCH_LEARNERS ?? 100)
const SPIKE = Number(process.env.BENCH_SPIKE ?? 1000)
const SUBMITS = Number(process.env.BENCH_SUBMITS ?? 2000)
const SPIKE_POOL = 200
const SPIKE_DRAW = 50
const SUBMIT_QUESTIONS = 100

export interface Percentiles {
  p50: number
  p95: number
  p99: number
  max: number
}
export interface SpikeFigures extends Percentiles {
  requests: number
  ok: number
  errors: number
  /** Starts per second from the release to the last answer. */
  drainPerSecond: number
  drainMs: number
}
export interface LoadFigures {
  rps: number
  p50: number
  p99: number
  total: number
  non2xx: number
  errors: number
}
export interface ExamsBenchResult {
  learners: number
  startSpike: { ceiling: SpikeFigures; ours: SpikeFigures; drainRatio: number }
  ceilingStartSustained: LoadFigures
  submit: { ceiling: LoadFigures; ours: LoadFigures; ratio: number; questions: number }
  goals: { spikeErrors: 0; spikeP95Ms: 1000; submitRatio: 0.5 }
  setupSeconds: number
}

/** Progress on stderr with BENCH_VERBOSE=1. */
const log = (msg: string) => process.env.BENCH_VERBOSE && process.stderr.write(`[exams ${new Date().toISOString().slice(11, 19)}] ${msg}\n`)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const round = (n: number) => Math.round(n * 10) / 10

function percentiles(values: number[]): Percentiles {
  const s = [...values].sort((a, b) => a - b)
  const at = (q: number) => round(s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? 0)
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: round(s.at(-1) ?? 0) }
}

const load = (opts: autocannon.Options) => new Promise<autocannon.Result>((resolve, reject) => autocannon(opts, (err, r) => (err ? reject(err) : resolve(r))))
/** Throughput as answers over the run's wall time (a bounded run's last second is partial). */
const figures = (r: autocannon.Result): LoadFigures => ({
  rps: Math.round(r.requests.total / r.duration),
  p50: r.latency.p50,
  p99: r.latency.p99,
  total: r.requests.total,
  non2xx: r.non2xx,
  errors: r.errors,
})

// ---- Questions (the same generator for the portal's exams and the ceiling's rows) ----

const CATEGORIES = ['Safety', 'Products', 'Service', 'Policy']
const pick = (n: number) => Math.floor(Math.random() * n)

/** A realistic pool: three in four single-answer (4 options), the rest multi-select (5 options, 2 right). */
function makeQuestions(count: number): QuestionInput[] {
  return Array.from({ length: count }, (_, i) => {
    const multi = i % 4 === 3
    const options = Array.from({ length: multi ? 5 : 4 }, (_, o) => `Option ${o + 1} of question ${i + 1}: a plausible answer text`)
    const first = pick(4)
    return {
      question_type: multi ? 'multi_select' : 'multiple_choice',
      question_text: `Question ${i + 1}: which of these statements about procedure ${i + 1} of the handbook is right?`,
      options,
      correct_answer: multi ? [first, first + 1] : first,
      subject_category: CATEGORIES[i % CATEGORIES.length]!,
      category_weight: i % 5 === 0 ? 2 : 1,
    }
  })
}

/** A learner's answer: mostly right-looking guesses, some left unanswered. */
function answerFor(q: Pick<AttemptQuestion, 'question_type' | 'options'>) {
  if (Math.random() < 0.05) return -1
  if (q.question_type === 'multiple_choice') return pick(q.options.length)
  const a = pick(q.options.length - 1)
  return [a, a + 1]
}

// ---- HTTP helpers ----

function makeApi(base: string) {
  return async <T>(method: string, path: string, body?: unknown, token?: string): Promise<T> => {
    const res = await fetch(`${base}/api${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`)
    return (text ? JSON.parse(text) : undefined) as T
  }
}

interface SpikeRequest {
  path: string
  headers: Record<string, string>
}

function send(agent: Agent, url: URL, method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<number>((resolve, reject) => {
    const req = request({ agent, hostname: url.hostname, port: url.port, method, path, headers, timeout: 60_000 }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', reject)
    req.end()
  })
}

/**
 * Releases every request at the same instant, each on its own connection (opened beforehand with
 * `warmPath`, as a learner's browser holds one to the portal when the exam opens).
 */
async function spike(base: string, warmPath: string, requests: SpikeRequest[], okStatus: number): Promise<SpikeFigures> {
  const url = new URL(base)
  const agents = requests.map(() => new Agent({ keepAlive: true, maxSockets: 1 }))
  try {
    for (let i = 0; i < agents.length; i += 100) await Promise.all(agents.slice(i, i + 100).map((a) => send(a, url, 'GET', warmPath)))
    const t0 = performance.now()
    const outcomes = await Promise.all(
      requests.map((r, i) =>
        send(agents[i]!, url, 'POST', r.path, r.headers).then(
          (status) => ({ status, ms: performance.now() - t0 }),
          () => ({ status: 0, ms: performance.now() - t0 }),
        ),
      ),
    )
    const drainMs = Math.max(...outcomes.map((o) => o.ms))
    const ok = outcomes.filter((o) => o.status === okStatus).length
    return {
      requests: requests.length,
      ok,
      errors: requests.length - ok,
      drainPerSecond: Math.round((requests.length / drainMs) * 1000),
      drainMs: Math.round(drainMs),
      ...percentiles(outcomes.map((o) => o.ms)),
    }
  } finally {
    for (const a of agents) a.destroy()
  }
}

// ---- Users through the public API ----

/** Registers an admin and `count` learners through the public API; resolves with their tokens (and e-mails, admin first, and password). */
export async function registerUsers(o: Pick<ExamsBenchOptions, 'gatewayUrl' | 'mails' | 'adminCode'>, count: number) {
  const api = makeApi(o.gatewayUrl)
  const stamp = Date.now()
  const password = 'Bench1234!'
  const people = [
    { email: `bench.${stamp}.admin@example.com`, name: 'Bench Admin', admin: true },
    ...Array.from({ length: count }, (_, i) => ({ email: `bench.${stamp}.learner${i}@example.com`, name: `Bench Learner ${i}`, admin: false })),
  ]
  // scrypt per registration: a few at a time, as the identity service's cores allow.
  const registered = await mapLimit(people, 8, (p) =>
    api<{ userId: string }>('POST', '/auth/register', {
      name: p.name,
      email: p.email,
      password,
      ...(p.admin ? { isAdmin: true, adminCode: o.adminCode } : {}),
    }),
  )
  const codes: (string | undefined)[] = people.map(() => undefined)
  for (let tries = 0; tries < 300 && codes.some((c) => !c); tries++) {
    people.forEach((p, i) => (codes[i] ??= verificationCode(o.mails, p.email)))
    if (codes.some((c) => !c)) await sleep(100)
  }
  if (codes.some((c) => !c)) throw new Error(`verification mails missing for ${codes.filter((c) => !c).length} of ${people.length} users`)
  const tokens = await mapLimit(
    registered,
    16,
    async (r, i) => (await api<{ token: string }>('POST', '/auth/verify-email', { userId: r.userId, verificationCode: codes[i] })).token,
  )
  return { adminToken: tokens[0]!, learnerTokens: tokens.slice(1), emails: people.map((p) => p.email), password }
}

// ---- The ceiling server ----

async function startCeiling(pgUrl: string) {
  const db = new URL(pgUrl)
  db.pathname = '/bench_ceiling'
  await ensureDatabase(db.toString())
  const proc = spawn(process.execPath, ['bench/ceiling-server.ts'], { cwd: root, env: { ...process.env, DATABASE_URL: db.toString() }, stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise<number>((resolve, reject) => {
    proc.stdout.on('data', (d: Buffer) => {
      const m = /READY (\d+) /.exec(String(d))
      if (m) resolve(Number(m[1]))
    })
    proc.on('exit', (code) => reject(new Error(`ceiling server exited ${code}`)))
  })
  return {
    url: `http://127.0.0.1:${port}`,
    warmPath: '/users/00000000-0000-4000-8000-000000000001',
    close: () =>
      new Promise<void>((r) => {
        if (proc.exitCode !== null) return r()
        proc.once('exit', () => r())
        proc.kill('SIGTERM')
      }),
  }
}

/** The same pool the portal gets, with the ids the portal's questions would have. */
const asStored = (qs: QuestionInput[]) => qs.map((q, i) => ({ ...q, id: i + 1, subject_category: q.subject_category ?? null, category_weight: q.category_weight ?? 1 }))

async function measureCeiling(o: ExamsBenchOptions) {
  const ceiling = await startCeiling(o.pgUrl)
  try {
    const preparedCount = 1000
    const submitQuestions = asStored(makeQuestions(SUBMIT_QUESTIONS))
    const setup = await fetch(`${ceiling.url}/setup/exams`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        examId: 1,
        pool: asStored(makeQuestions(SPIKE_POOL)),
        totalQuestions: SPIKE_DRAW,
        prepared: { count: preparedCount, questions: submitQuestions },
      }),
    })
    if (!setup.ok) throw new Error(`ceiling setup: ${setup.status}`)
    const { prepared } = (await setup.json()) as { prepared: string[] }

    log('ceiling: start spike')
    const startSpike = await spike(
      ceiling.url,
      ceiling.warmPath,
      Array.from({ length: SPIKE }, () => ({ path: '/exams/1/attempts', headers: {} })),
      201,
    )
    const startSustained = figures(await load({ url: `${ceiling.url}/exams/1/attempts`, method: 'POST', connections: o.connections, duration: Math.min(o.durationSeconds, 5) }))
    log(`ceiling: start spike ${JSON.stringify(startSpike)}, sustained ${JSON.stringify(startSustained)}`)
    const bodies = prepared.map((id) => ({
      path: `/attempts/${id}/submit`,
      body: JSON.stringify({ questionIds: submitQuestions.map((q) => q.id), answers: submitQuestions.map(answerFor) }),
    }))
    let next = 0
    const submit = figures(
      await load({
        url: ceiling.url,
        connections: o.connections,
        duration: o.durationSeconds,
        requests: [
          {
            method: 'POST',
            setupRequest: (req) => {
              const b = bodies[next++ % bodies.length]!
              return { ...req, path: b.path, headers: { 'content-type': 'application/json' }, body: b.body }
            },
          },
        ],
      }),
    )
    log(`ceiling: submit ${JSON.stringify(submit)}`)
    return { startSpike, startSustained, submit }
  } finally {
    await ceiling.close()
  }
}

// ---- The portal ----

async function createExams(o: ExamsBenchOptions, adminToken: string, count: number, pool: number, draw: number, label: string) {
  const api = makeApi(o.gatewayUrl)
  return mapLimit(
    Array.from({ length: count }, (_, i) => i),
    4,
    async (i) =>
      api<Exam>(
        'POST',
        '/exams',
        {
          name: `Bench ${label} ${i + 1} (${new Date().toISOString()})`,
          time_limit: 60,
          pass_score: 70,
          total_questions: draw,
          subject_categories: CATEGORIES,
          exam_type: 'practice',
          is_assigned_to_all: true,
          questions: makeQuestions(pool),
        },
        adminToken,
      ),
  )
}

export async function benchExams(o: ExamsBenchOptions): Promise<ExamsBenchResult> {
  const ceiling = await measureCeiling(o)

  const setupStarted = performance.now()
  const api = makeApi(o.gatewayUrl)
  const { adminToken, learnerTokens } = await registerUsers(o, LEARNERS)
  log(`${learnerTokens.length} learners registered`)
  const spikeExams = await createExams(o, adminToken, Math.ceil(SPIKE / LEARNERS), SPIKE_POOL, SPIKE_DRAW, 'start spike')
  const submitExams = await createExams(o, adminToken, Math.ceil(SUBMITS / LEARNERS), SUBMIT_QUESTIONS, SUBMIT_QUESTIONS, 'submit')
  let setupMs = performance.now() - setupStarted
  log(`${spikeExams.length + submitExams.length} exams created`)

  try {
    // Each (learner, exam) pair is one start: one open attempt per learner and exam.
    const pairs = spikeExams.flatMap((e) => learnerTokens.map((token) => ({ examId: e.id, token }))).slice(0, SPIKE)
    const oursSpike = await spike(
      o.gatewayUrl,
      '/healthz',
      pairs.map((p) => ({ path: `/api/exams/${p.examId}/attempts`, headers: { authorization: `Bearer ${p.token}` } })),
      201,
    )

    log(`ours: start spike ${JSON.stringify(oursSpike)}`)
    // Distinct attempts under way, answered in advance; each submit grades one of them.
    const prepStarted = performance.now()
    const toStart = submitExams.flatMap((e) => learnerTokens.map((token) => ({ examId: e.id, token }))).slice(0, SUBMITS)
    const prepared = await mapLimit(toStart, 32, async (p) => {
      const a = await api<StartAttemptResponse>('POST', `/exams/${p.examId}/attempts`, undefined, p.token)
      return {
        path: `/api/exams/${p.examId}/submit`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${p.token}` },
        body: JSON.stringify({ attemptId: a.attemptId, questionIds: a.questions.map((q) => q.id), answers: a.questions.map(answerFor) }),
      }
    })
    setupMs += performance.now() - prepStarted
    log(`${prepared.length} attempts prepared`)
    let next = 0
    const oursSubmit = figures(
      await load({
        url: o.gatewayUrl,
        connections: o.connections,
        amount: prepared.length,
        requests: [{ method: 'POST', setupRequest: (req) => ({ ...req, ...prepared[Math.min(next++, prepared.length - 1)]! }) }],
      }),
    )

    return {
      learners: LEARNERS,
      startSpike: { ceiling: ceiling.startSpike, ours: oursSpike, drainRatio: Number((oursSpike.drainPerSecond / ceiling.startSpike.drainPerSecond).toFixed(3)) },
      ceilingStartSustained: ceiling.startSustained,
      submit: { ceiling: ceiling.submit, ours: oursSubmit, ratio: Number((oursSubmit.rps / ceiling.submit.rps).toFixed(3)), questions: SUBMIT_QUESTIONS },
      goals: { spikeErrors: 0, spikeP95Ms: 1000, submitRatio: 0.5 },
      setupSeconds: round(setupMs / 1000),
    }
  } finally {
    // Deleting the exams drops the attempts still under way (no sweeper work left for later runs).
    await mapLimit([...spikeExams, ...submitExams], 4, (e) => api('DELETE', `/exams/${e.id}`, undefined, adminToken))
  }
}

/** The summary lines, in the style of the identity figures. */
export function examsSummary(r: ExamsBenchResult) {
  const s = r.startSpike
  const spikeLine = (f: SpikeFigures) => `${f.drainPerSecond} starts/s drain (${f.drainMs} ms), p50 ${f.p50} ms, p95 ${f.p95} ms, p99 ${f.p99} ms, errors ${f.errors}`
  return `exam start spike: ${s.ours.requests} starts released at once (${SPIKE_DRAW} of ${SPIKE_POOL} questions, ${r.learners} learners)
  ceiling (bare Hono + pg insert)  ${spikeLine(s.ceiling)}
  ceiling sustained (autocannon)   ${r.ceilingStartSustained.rps} starts/s, p99 ${r.ceilingStartSustained.p99} ms
  POST /api/exams/{id}/attempts    ${spikeLine(s.ours)}
  drain ratio                      ${(s.drainRatio * 100).toFixed(1)}% of the ceiling's (goal: 0 errors, p95 <= 1000 ms)
submit and grade a ${r.submit.questions}-question attempt
  ceiling (Hono + pg transaction)  ${r.submit.ceiling.rps} req/s, p50 ${r.submit.ceiling.p50} ms, p99 ${r.submit.ceiling.p99} ms
  POST /api/exams/{id}/submit      ${r.submit.ours.rps} req/s, p50 ${r.submit.ours.p50} ms, p99 ${r.submit.ours.p99} ms, non-2xx ${r.submit.ours.non2xx}, ${r.submit.ours.total} distinct attempts
  ratio                            ${(r.submit.ratio * 100).toFixed(1)}% (goal >= 50%)`
}

if (import.meta.main) {
  const { mkdir, writeFile } = await import('node:fs/promises')
  const { randomBytes } = await import('node:crypto')
  const PG = BENCH_PG
  const smtp = await startSmtpSink()
  const mails = smtp.mails
  const adminCode = randomBytes(12).toString('base64url')
  const started = performance.now()
  const cluster = await startBenchCluster(smtp.port, adminCode)
  try {
    const result = await benchExams({
      gatewayUrl: cluster.url,
      pgUrl: PG,
      mails,
      adminCode,
      durationSeconds: Number(process.env.BENCH_SECONDS ?? 10),
      connections: 50,
    })
    const at = new Date().toISOString()
    await mkdir(`${root}bench/results`, { recursive: true })
    const file = `${root}bench/results/exams-${at.replace(/[:.]/g, '-')}.json`
    await writeFile(file, JSON.stringify({ at, machine: { cores: (await import('node:os')).cpus().length, node: process.version }, exams: result }, null, 2) + '\n')
    console.log(`\n${examsSummary(result)}\n(${Math.round((performance.now() - started) / 1000)} s) written to ${file}\n`)
  } finally {
    await cluster.close()
    smtp.close()
  }
  process.exit(0)
}
