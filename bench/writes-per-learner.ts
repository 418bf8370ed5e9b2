/**
 * Database writes and events per learner action (issue 29's capacity model), measured on a cluster
 * of its own: for each action, every service database's committed transactions
 * (`pg_stat_database.xact_commit`, reads included) and rows inserted, updated and deleted
 * (`pg_stat_user_tables`), its size, and the events the action put on JetStream, read before and
 * after `BENCH_LEARNERS` learners (default 50) each do it, then divided by their number.
 * Actions: registration (register and verify the e-mail), sign-in, a course's first launch, a SCORM
 * commit (`BENCH_COMMITS` per learner, default 20, ~8 KB each), the course's completing commit, an
 * exam start and its submit (20 questions), setting one's branch and department, a certification proof upload.
 * After each action the figures are read once the services are quiet again: PostgreSQL publishes a
 * backend's counters within 10 s of its last transaction, and events reach their consumers within a
 * second or two. The services' own background work (relays, scans, leases) writes while they idle:
 * an idle window first measures it, and each action's figures are net of it (both are printed).
 * Runs alone with `node bench/writes-per-learner.ts`, writing bench/results/writes-per-learner-<time>.json.
 */
import { randomBytes } from 'node:crypto'
import { loadavg } from 'node:os'
import pg from 'pg'
import { connect } from '@nats-io/transport-node'
import { jetstreamManager } from '@nats-io/jetstream'
import type { StartAttemptResponse } from '@portal/contracts'
import { mapLimit } from '@portal/server-kit/testing'
import { commitBody } from './commit-body.ts'
import { registerUsers } from './exams.ts'
import { launchCommitCourse } from './scorm-commit.ts'
import { BENCH_NATS, BENCH_PG, startBenchCluster, startSmtpSink, writeBenchRecord } from './support.ts'

const DATABASES = ['identity', 'learning', 'certs', 'notify'] as const
type Db = (typeof DATABASES)[number]
const STREAM = 'PORTAL_EVENTS'
/** The portal's own subjects (tests sharing the server put a prefix before theirs). */
const OWN_SUBJECT = /^(identity|learning|certs|notify)\./
/** How long to wait after an action for the counters to be published and the events consumed. */
const SETTLE_MS = Number(process.env.BENCH_SETTLE_MS ?? 12_000)

interface DbFigures {
  xacts: number
  ins: number
  upd: number
  del: number
  bytes: number
  tables: Record<string, number>
}
type Snapshot = Record<Db, DbFigures>
export interface ActionFigures {
  action: string
  /** Learners who did it (a commit: learners × commits). */
  count: number
  seconds: number
  /** Per action, net of the idle rate: transactions and rows written (inserted + updated + deleted), per database. */
  perAction: Record<Db, { xacts: number; rows: number; ins: number; upd: number; del: number; bytes: number }>
  /** Tables written most, rows per action (net of idle). */
  topTables: Record<string, number>
  events: { perAction: number; bytesPerAction: number; subjects: Record<string, number> }
}
export interface WritesPerLearnerResult {
  learners: number
  commitsPerLearner: number
  /** What the services write per second when nobody uses them. */
  idlePerSecond: Record<Db, { xacts: number; rows: number }>
  /** Connections each database had open during the run (one process per service). */
  connections: Record<Db, number>
  actions: ActionFigures[]
}

const round = (n: number, d = 2) => Number(n.toFixed(d))
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** One client per service database; each snapshot is one transaction per database. */
async function statsReader() {
  const clients = Object.fromEntries(
    await Promise.all(
      DATABASES.map(async (db) => {
        const url = new URL(BENCH_PG)
        url.pathname = `/${db}`
        const c = new pg.Client({ connectionString: url.toString() })
        await c.connect()
        return [db, c] as const
      }),
    ),
  ) as Record<Db, pg.Client>
  const snapshot = async (): Promise<Snapshot> =>
    Object.fromEntries(
      await Promise.all(
        DATABASES.map(async (db) => {
          const c = clients[db]
          await c.query('begin')
          const d = await c.query<{ xact_commit: string; size: string }>(
            'select xact_commit, pg_database_size(current_database()) as size from pg_stat_database where datname = current_database()',
          )
          const t = await c.query<{ name: string; ins: string; upd: string; del: string }>(
            'select relname as name, n_tup_ins as ins, n_tup_upd as upd, n_tup_del as del from pg_stat_user_tables',
          )
          await c.query('commit')
          const tables: Record<string, number> = {}
          let ins = 0
          let upd = 0
          let del = 0
          for (const r of t.rows) {
            ins += Number(r.ins)
            upd += Number(r.upd)
            del += Number(r.del)
            tables[r.name] = Number(r.ins) + Number(r.upd) + Number(r.del)
          }
          return [db, { xacts: Number(d.rows[0]!.xact_commit), ins, upd, del, bytes: Number(d.rows[0]!.size), tables }]
        }),
      ),
    ) as Snapshot
  const connections = async () => {
    const r = await clients.learning.query<{ datname: Db; n: string }>('select datname, count(*) as n from pg_stat_activity where datname = any($1) group by datname', [DATABASES])
    return Object.fromEntries(DATABASES.map((db) => [db, Number(r.rows.find((x) => x.datname === db)?.n ?? 0)])) as Record<Db, number>
  }
  return { snapshot, connections, close: () => Promise.all(DATABASES.map((db) => clients[db].end())) }
}

/** The stream's events after sequence `after`: how many of the portal's own, their bytes, by subject. */
async function eventsSince(jsm: Awaited<ReturnType<typeof jetstreamManager>>, after: number) {
  const last = (await jsm.streams.info(STREAM)).state.last_seq
  const subjects: Record<string, number> = {}
  let count = 0
  let bytes = 0
  for (let seq = after + 1; seq <= last; seq++) {
    const m = await jsm.streams.getMessage(STREAM, { seq }).catch(() => null)
    if (!m || !OWN_SUBJECT.test(m.subject)) continue
    count++
    bytes += m.data.length + m.subject.length + (m.header ? m.header.toString().length : 0)
    subjects[m.subject] = (subjects[m.subject] ?? 0) + 1
  }
  return { count, bytes, subjects, last }
}

export async function benchWritesPerLearner(opts: { learners: number; commits: number }): Promise<WritesPerLearnerResult> {
  const smtp = await startSmtpSink()
  const adminCode = randomBytes(12).toString('base64url')
  const cluster = await startBenchCluster(smtp.port, adminCode)
  const stats = await statsReader()
  const nc = await connect({ servers: BENCH_NATS })
  const jsm = await jetstreamManager(nc)
  const base = cluster.url
  const api = async <T>(method: string, path: string, token: string | undefined, body?: unknown): Promise<T> => {
    const res = await fetch(`${base}/api${path}`, {
      method,
      headers: { ...(body instanceof FormData ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`)
    return (text ? JSON.parse(text) : undefined) as T
  }
  const log = (m: string) => process.env.BENCH_VERBOSE && console.log(m)

  let idle: { seconds: number; delta: Snapshot } | undefined
  const actions: ActionFigures[] = []
  /** Runs `fn`, waits until the services are quiet, and keeps the difference per action. */
  const measure = async (action: string, count: number, fn: () => Promise<unknown>) => {
    const before = await stats.snapshot()
    const seqBefore = (await jsm.streams.info(STREAM)).state.last_seq
    const started = performance.now()
    await fn()
    await sleep(SETTLE_MS)
    const seconds = (performance.now() - started) / 1000
    const after = await stats.snapshot()
    const events = await eventsSince(jsm, seqBefore)
    const delta = Object.fromEntries(
      DATABASES.map((db) => {
        const tables: Record<string, number> = {}
        for (const [t, n] of Object.entries(after[db].tables)) tables[t] = n - (before[db].tables[t] ?? 0)
        const d: DbFigures = {
          xacts: after[db].xacts - before[db].xacts,
          ins: after[db].ins - before[db].ins,
          upd: after[db].upd - before[db].upd,
          del: after[db].del - before[db].del,
          bytes: after[db].bytes - before[db].bytes,
          tables,
        }
        return [db, d]
      }),
    ) as Snapshot
    if (!idle) {
      idle = { seconds, delta }
      return
    }
    const idleShare = seconds / idle.seconds
    const net = (db: Db, k: 'xacts' | 'ins' | 'upd' | 'del') => Math.max(0, delta[db][k] - idle!.delta[db][k] * idleShare) / count
    const perAction = Object.fromEntries(
      DATABASES.map((db) => {
        const ins = net(db, 'ins')
        const upd = net(db, 'upd')
        const del = net(db, 'del')
        return [db, { xacts: round(net(db, 'xacts')), rows: round(ins + upd + del), ins: round(ins), upd: round(upd), del: round(del), bytes: Math.round(delta[db].bytes / count) }]
      }),
    ) as ActionFigures['perAction']
    const topTables = Object.fromEntries(
      DATABASES.flatMap((db) => Object.entries(delta[db].tables).map(([t, n]) => [`${db}.${t}`, round((n - (idle!.delta[db].tables[t] ?? 0) * idleShare) / count)] as const))
        .filter(([, n]) => n >= 0.05)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8),
    )
    actions.push({
      action,
      count,
      seconds: round(seconds, 1),
      perAction,
      topTables,
      events: {
        perAction: round(events.count / count),
        bytesPerAction: Math.round(events.bytes / count),
        subjects: Object.fromEntries(Object.entries(events.subjects).map(([s, n]) => [s, round(n / count)])),
      },
    })
    log(`${action}: ${JSON.stringify(actions.at(-1))}`)
  }

  try {
    // The admin and the course, exam and certification type the learners use: set up, not measured.
    const setup = await registerUsers({ gatewayUrl: base, mails: smtp.mails, adminCode }, 0)
    const admin = setup.adminToken
    const course = await launchCommitCourse({ base, adminToken: admin, learnerTokens: [admin] })
    const exam = await api<{ id: number }>('POST', '/exams', admin, {
      name: `Writes bench ${new Date().toISOString()}`,
      time_limit: 60,
      pass_score: 70,
      total_questions: 20,
      subject_categories: ['Safety'],
      exam_type: 'practice',
      is_assigned_to_all: true,
      questions: Array.from({ length: 40 }, (_, i) => ({
        question_type: 'multiple_choice',
        question_text: `Question ${i + 1}: which of these statements about procedure ${i + 1} is right?`,
        options: ['Option A, a plausible answer', 'Option B, a plausible answer', 'Option C, a plausible answer', 'Option D, a plausible answer'],
        correct_answer: i % 4,
        subject_category: 'Safety',
        category_weight: 1,
      })),
    })
    const { certification: certType } = await api<{ certification: { id: number } }>('POST', '/admin/certifications', admin, {
      name: `Writes bench ${Date.now()}`,
      code: `WB${Date.now() % 1_000_000}`,
      validity_period: 24,
      upload_required: true,
    })
    await sleep(2_000)

    await measure('idle', 1, async () => undefined)
    // In batches of 10 (each with an admin of its own, counted: a registration is a registration), so
    // that a loaded machine's mail delivery keeps up with registerUsers' wait for the codes.
    const tokens: string[] = []
    const emails: string[] = []
    let password = ''
    const batches = Math.ceil(opts.learners / 10)
    await measure('registration (register, verify e-mail)', opts.learners + batches, async () => {
      for (let b = 0; b < batches; b++) {
        const users = await registerUsers({ gatewayUrl: base, mails: smtp.mails, adminCode }, Math.min(10, opts.learners - 10 * b))
        tokens.push(...users.learnerTokens)
        emails.push(...users.emails.slice(1))
        password = users.password
      }
    })
    await measure('sign-in (password)', opts.learners, () => mapLimit(emails, 8, (email) => api('POST', '/auth/login', undefined, { email, password })))
    let commitUrls: string[] = []
    await measure("a course's first launch", opts.learners, async () => {
      commitUrls = await mapLimit(tokens, 16, async (t) => (await api<{ commitUrl: string }>('GET', `/scorm/${course.moduleId}/launch`, t)).commitUrl)
    })
    const commit = (url: string, body: Record<string, unknown>) =>
      fetch(`${cluster.contentOrigin}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => {
        if (!r.ok) throw new Error(`commit: ${r.status} ${await r.text()}`)
      })
    await measure('SCORM commit (~8 KB cmi, incomplete)', opts.learners * opts.commits, () =>
      mapLimit(commitUrls, 16, async (url) => {
        for (let seq = 1; seq <= opts.commits; seq++) await commit(url, commitBody(course.itemId, seq))
      }),
    )
    await measure("the course's completing commit (passed, terminated)", opts.learners, () =>
      mapLimit(commitUrls, 16, async (url) => {
        const body = commitBody(course.itemId, opts.commits + 1)
        const runtime = body.runtimeData as { core: Record<string, unknown> }
        runtime.core.lesson_status = 'passed'
        await commit(url, { ...body, terminated: true, completionStatus: 'completed', successStatus: 'passed' })
      }),
    )
    let attempts: StartAttemptResponse[] = []
    await measure('exam start (20 of 40 questions)', opts.learners, async () => {
      attempts = await mapLimit(tokens, 16, (t) => api<StartAttemptResponse>('POST', `/exams/${exam.id}/attempts`, t))
    })
    await measure('exam submit and grade', opts.learners, () =>
      mapLimit(tokens, 16, (t, i) => {
        const a = attempts[i]!
        return api('POST', `/exams/${exam.id}/submit`, t, { attemptId: a.attemptId, questionIds: a.questions.map((q) => q.id), answers: a.questions.map((_, k) => k % 4) })
      }),
    )
    // A proof needs the learner's branch and department (set on identity, passed on by events).
    await measure('profile: branch and department', opts.learners, () =>
      mapLimit(tokens, 16, async (t) => {
        const me = await api<{ user: { id: string } }>('GET', '/users/me', t)
        await api('PUT', `/users/${me.user.id}/profile`, t, { branch: 'Portland', department: 'Service' })
      }),
    )
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n% writes bench proof\n'), randomBytes(100_000), Buffer.from('\n%%EOF\n')])
    await measure('certification proof upload (100 KB PDF)', opts.learners, () =>
      mapLimit(tokens, 8, (t) => {
        const form = new FormData()
        form.append('certification_id', String(certType.id))
        form.append('obtained_date', new Date().toISOString().slice(0, 10))
        form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'card.pdf')
        return api('POST', '/technician/certifications/upload', t, form)
      }),
    )
    const connections = await stats.connections()
    const i = idle!
    return {
      learners: opts.learners,
      commitsPerLearner: opts.commits,
      idlePerSecond: Object.fromEntries(
        DATABASES.map((db) => [db, { xacts: round(i.delta[db].xacts / i.seconds), rows: round((i.delta[db].ins + i.delta[db].upd + i.delta[db].del) / i.seconds) }]),
      ) as WritesPerLearnerResult['idlePerSecond'],
      connections,
      actions,
    }
  } finally {
    await nc.close()
    await stats.close()
    await cluster.close()
    smtp.close()
  }
}

/** The summary table of this benchmark. */
export function formatWritesPerLearner(r: WritesPerLearnerResult) {
  const pad = (s: string | number, n: number) => String(s).padStart(n)
  const lines = [
    `Writes per learner action (${r.learners} learners; per action, net of the services' idle writes; xacts include reads)`,
    `  ${'action'.padEnd(52)} ${DATABASES.map((d) => `${d} xacts/rows`.padStart(22)).join('')} ${'events'.padStart(8)} ${'ev. bytes'.padStart(10)}`,
  ]
  for (const a of r.actions)
    lines.push(
      `  ${a.action.padEnd(52)} ${DATABASES.map((d) => pad(`${a.perAction[d].xacts} / ${a.perAction[d].rows}`, 22)).join('')} ${pad(a.events.perAction, 8)} ${pad(a.events.bytesPerAction, 10)}`,
      `    most written: ${Object.entries(a.topTables)
        .map(([t, n]) => `${t} ${n}`)
        .join(', ')}`,
    )
  lines.push(
    `  idle, per second: ${DATABASES.map((d) => `${d} ${r.idlePerSecond[d].xacts} xacts / ${r.idlePerSecond[d].rows} rows`).join('; ')}`,
    `  connections open: ${DATABASES.map((d) => `${d} ${r.connections[d]}`).join(', ')}`,
  )
  return lines.join('\n')
}

// `node bench/writes-per-learner.ts`: on a cluster of its own.
if (import.meta.main) {
  const loadBefore = loadavg().map((l) => round(l))
  const result = await benchWritesPerLearner({ learners: Number(process.env.BENCH_LEARNERS ?? 50), commits: Number(process.env.BENCH_COMMITS ?? 20) })
  const file = await writeBenchRecord('writes-per-learner', result, { loadAverageBefore: loadBefore, loadAverageAfter: loadavg().map((l) => round(l)) })
  console.log(`\n${formatWritesPerLearner(result)}\nwritten to ${file}\n`)
  process.exit(0)
}
