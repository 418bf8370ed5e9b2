/** What the benchmarks share: an SMTP sink for the real registration flow, and autocannon figures. */
import type autocannon from 'autocannon'
import { SMTPServer } from 'smtp-server'
import { REMOTE_NAMES } from '@portal/contracts'

/**
 * Writes a benchmark's record to `bench/results/<name>-<time>.json`: when, the machine (cores, Node,
 * the load average now, with `machine` over it), then `fields` (its settings and result); resolves
 * with the file's path.
 */
export async function writeBenchRecord(name: string, fields: object, machine: object = {}): Promise<string> {
  const { mkdir, writeFile } = await import('node:fs/promises')
  const { cpus, loadavg } = await import('node:os')
  const { fileURLToPath } = await import('node:url')
  const at = new Date().toISOString()
  const dir = new URL('results/', import.meta.url)
  await mkdir(dir, { recursive: true })
  const file = new URL(`${name}-${at.replace(/[:.]/g, '-')}.json`, dir)
  const record = { at, machine: { cores: cpus().length, node: process.version, loadAverage: loadavg().map((l) => Number(l.toFixed(2))), ...machine }, ...fields }
  await writeFile(file, JSON.stringify(record, null, 2) + '\n')
  return fileURLToPath(file)
}

/** An SMTP server on a free port keeping every message it receives (cluster mode needs SMTP). */
export async function startSmtpSink(): Promise<{ mails: string[]; port: number; close(): void }> {
  const mails: string[] = []
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _s, cb) {
      let data = ''
      stream.on('data', (d) => (data += d))
      stream.on('end', () => {
        mails.push(data)
        cb()
      })
    },
  })
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r))
  return { mails, port: (smtp.server.address() as { port: number }).port, close: () => smtp.close() }
}

/** The code of the verification mail sent to `email`, once it has arrived. */
const decoded = new Map<string, string>()
export function verificationCode(mails: string[], email: string): string | undefined {
  for (const m of mails) {
    let text = decoded.get(m)
    if (text === undefined) decoded.set(m, (text = m.replace(/=\r?\n/g, '')))
    if (!text.includes(email)) continue
    const code = /\b(\d{6})\b/.exec(text)?.[1]
    if (code) return code
  }
  return undefined
}

/** An autocannon run's figures: mean requests/s, latency percentiles, failures. */
export const loadFigures = (r: autocannon.Result) => ({
  rps: Math.round(r.requests.average),
  p50: r.latency.p50,
  p99: r.latency.p99,
  non2xx: r.non2xx,
  errors: r.errors,
  total: r.requests.total,
})
export type LoadFiguresOf = ReturnType<typeof loadFigures>

/**
 * What a benchmark of a content-origin hot path measured beside its ceiling takes: the gateway
 * (`base`), an admin and learners' bearer tokens, the ceiling's database, and svc-learning's own
 * address to measure the same requests without the gateway hop.
 */
export interface CeilingBenchOptions {
  base: string
  adminToken: string
  learnerTokens: string[]
  ceilingDatabaseUrl: string
  /** svc-learning's own address, to measure the same requests without the gateway hop. */
  learningUrl?: string
  duration: number
  connections: number
}

/** The machine's PostgreSQL and NATS the benchmarks run on (BENCH_DATABASE_URL, BENCH_NATS_URL). */
export const BENCH_PG = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres'
export const BENCH_NATS = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222'
/** svc-learning's own port in a benchmark cluster (to measure without the gateway hop). */
export const BENCH_LEARNING_PORT = 14002

/** Processes per service of a benchmark cluster (replica n on the service's port + 10 n; default 1 each). */
export type BenchReplicas = Partial<Record<'identity' | 'learning' | 'certs' | 'notify', number>>

/**
 * The portal in cluster mode for a benchmark: every service its own process on the machine's
 * PostgreSQL and NATS, mail to `smtpPort`, admins registering with `adminCode`.
 * CLUSTER_NODE_ARGS passes Node flags to every service (e.g. `--cpu-prof`).
 */
export async function startBenchCluster(smtpPort: number, adminCode: string, replicas: BenchReplicas = {}) {
  const { fileURLToPath } = await import('node:url')
  const { startCluster } = await import('launcher/cluster')
  const root = fileURLToPath(new URL('..', import.meta.url))
  const gatewayPort = 18080
  return startCluster({
    env: {
      DATABASE_URL: BENCH_PG,
      NATS_URL: BENCH_NATS,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      COMPANY_EMAIL_DOMAIN: 'example.com',
      ADMIN_REGISTRATION_CODE: adminCode,
      LOG_LEVEL: 'error',
      DATA_DIR: `${root}.data/bench`,
      PUBLIC_URL: `http://127.0.0.1:${gatewayPort}`,
      // Every benchmark user registers from this one machine, and their tokens serve the whole run.
      REGISTRATIONS_PER_ADDRESS_PER_HOUR: '100000',
      // ... and signs in from no browser it signed in from before (no device cookie): unknown
      // clients' hashing queues and waits long enough for the 8 and 16 the runners send at once (decision 0042).
      KDF_QUEUE_UNKNOWN: '64',
      KDF_MAX_WAIT_MS: '20000',
      ACCESS_TOKEN_TTL_SECONDS: '7200',
      CLUSTER_NODE_ARGS: process.env.CLUSTER_NODE_ARGS,
    },
    gatewayPort,
    ports: { identity: 14001, learning: BENCH_LEARNING_PORT, notify: 14004 },
    remotePorts: Object.fromEntries(REMOTE_NAMES.map((name, i) => [name, 14101 + i])),
    replicas,
    quiet: true,
  })
}

/** The id of the first module of course `courseId` once its package is ingested (admins' course list, polled). */
export async function waitModuleReady(base: string, adminToken: string, courseId: number, what = 'bench package'): Promise<number> {
  for (let i = 0; i < 300; i++) {
    const res = await fetch(`${base}/api/admin/courses`, { headers: { authorization: `Bearer ${adminToken}` } })
    const courses = (await res.json()) as { id: number; modules: { id: number; processing_status: string; processing_error: string | null }[] }[]
    const m = courses.find((c) => c.id === courseId)?.modules[0]
    if (m?.processing_status === 'ready') return m.id
    if (m?.processing_status === 'failed') throw new Error(`${what} failed: ${m.processing_error}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`${what} not ready in time`)
}

/**
 * A content-origin benchmark run alone (`node bench/<file>.ts`): a cluster of its own, `BENCH_LEARNERS`
 * registered learners (default 100) and an admin, and the ceiling's database; closed after `run`.
 */
export async function runAloneOnCluster<T>(
  /** exams.ts's registerUsers (passed in: exams.ts imports this file). */
  registerUsers: (o: { gatewayUrl: string; mails: string[]; adminCode: string }, count: number) => Promise<{ adminToken: string; learnerTokens: string[] }>,
  run: (o: { cluster: Awaited<ReturnType<typeof startBenchCluster>>; adminToken: string; learnerTokens: string[]; ceilingDatabaseUrl: string }) => Promise<T>,
  replicas: BenchReplicas = {},
): Promise<T> {
  const { randomBytes } = await import('node:crypto')
  const { ensureDatabase } = await import('@portal/server-kit')
  const smtp = await startSmtpSink()
  const adminCode = randomBytes(12).toString('base64url')
  const cluster = await startBenchCluster(smtp.port, adminCode, replicas)
  try {
    const users = await registerUsers({ gatewayUrl: cluster.url, mails: smtp.mails, adminCode }, Number(process.env.BENCH_LEARNERS ?? 100))
    const ceilingDb = new URL(BENCH_PG)
    ceilingDb.pathname = '/bench_ceiling'
    await ensureDatabase(ceilingDb.toString())
    return await run({ cluster, adminToken: users.adminToken, learnerTokens: users.learnerTokens, ceilingDatabaseUrl: ceilingDb.toString() })
  } finally {
    await cluster.close()
    smtp.close()
  }
}
