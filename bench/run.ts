/**
 * `npm run bench`: the cluster mode on the machine's PostgreSQL and NATS, measured beside
 * ceilings taken in the same run. Prints a summary and writes JSON under bench/results/.
 */
import { spawn } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { ensureDatabase } from '@portal/server-kit'
import { launchBrowser } from '../e2e/browser.ts'
import { benchExams, examsSummary, registerUsers } from './exams.ts'
import { BENCH_LEARNING_PORT, BENCH_PG, loadFigures, startBenchCluster, startSmtpSink, verificationCode } from './support.ts'
import { benchScormCommit, formatCommit } from './scorm-commit.ts'
import { benchStatements, formatStatements } from './xapi-statements.ts'
import { benchCommitTracing, formatCommitTracing } from './commit-tracing.ts'
import { benchCommitReplicas, formatCommitReplicas } from './commit-replicas.ts'
import { benchIngest, formatIngest } from './scorm-ingest.ts'
import { benchTeam, formatTeam } from './team.ts'
import { benchCertExpiry, formatCertExpiry } from './cert-expiry.ts'
import { benchItemAnalysis, formatItemAnalysis } from './item-analysis.ts'
import { benchDueDateScan, formatDueDateScan } from './due-date-scan.ts'
import { benchLearnerDashboard, formatLearnerDashboard } from './learner-dashboard.ts'
import {
  DASHBOARD_DATA_LEVEL_GOAL,
  formatFirstScreens,
  LEARNER_DASHBOARD_GOAL_BYTES,
  measureFirstScreens,
  REMOTE_FIRST_SCREEN_GOAL_BYTES,
  SHELL_FIRST_LOAD_GOAL_BYTES,
} from './first-screens.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const PG = BENCH_PG
const DURATION = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = 50

type Result = autocannon.Result
const load = (opts: autocannon.Options) =>
  new Promise<Result>((resolve, reject) => autocannon({ duration: DURATION, connections: CONNECTIONS, ...opts }, (err, r) => (err ? reject(err) : resolve(r))))
const summary = loadFigures

// An SMTP sink so the real registration flow can be used (the cluster mode needs SMTP).
const smtp = await startSmtpSink()
const { mails, port: smtpPort } = smtp

// 1. Ceiling: bare Hono + pg primary-key select, in its own process.
const benchDb = new URL(PG)
benchDb.pathname = '/bench_ceiling'
await ensureDatabase(benchDb.toString())
const ceilingProc = spawn(process.execPath, ['bench/ceiling-server.ts'], { cwd: root, env: { ...process.env, DATABASE_URL: benchDb.toString() } })
const [ceilingPort, ceilingId] = await new Promise<[number, string]>((resolve, reject) => {
  ceilingProc.stdout.on('data', (d: Buffer) => {
    const m = /READY (\d+) (\S+)/.exec(String(d))
    if (m) resolve([Number(m[1]), m[2]!])
  })
  ceilingProc.on('exit', (code) => reject(new Error(`ceiling server exited ${code}`)))
})
const ceiling = summary(await load({ url: `http://127.0.0.1:${ceilingPort}/users/${ceilingId}` }))
ceilingProc.kill()

// 2. The portal in cluster mode (and identity alone, to show what the gateway hop costs).
const adminCode = crypto.randomUUID() // the exams figures register their own admin
const cluster = await startBenchCluster(smtpPort, adminCode)
const api = (path: string, body?: unknown, token?: string) =>
  fetch(`${cluster.url}/api${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
const email = `bench.${Date.now()}@example.com`
const password = 'Bench1234!'
const reg = (await (await api('/auth/register', { name: 'Bench User', email, password })).json()) as { userId: string }
let code: string | undefined
for (let i = 0; i < 100 && !code; i++) {
  code = verificationCode(mails, email)
  if (!code) await new Promise((r) => setTimeout(r, 100))
}
if (!code) throw new Error('no verification mail arrived')
const verified = (await (await api('/auth/verify-email', { userId: reg.userId, verificationCode: code })).json()) as { token: string }
const profile = summary(await load({ url: `${cluster.url}/api/users/me`, headers: { authorization: `Bearer ${verified.token}` } }))
const profileDirect = summary(await load({ url: `http://127.0.0.1:14001/users/me`, headers: { authorization: `Bearer ${verified.token}` } }))
const login = summary(
  await load({
    url: `${cluster.url}/api/auth/login`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
    connections: 8,
    duration: Math.min(DURATION, 5),
  }),
)

// Exams (issue 4): the start spike and submit-and-grade, each beside its ceiling.
const exams = await benchExams({ gatewayUrl: cluster.url, pgUrl: PG, mails, adminCode, durationSeconds: DURATION, connections: CONNECTIONS })

// Courses (issue 3): SCORM commits through the gateway by launch token, beside a bare upsert.
const commitUsers = await registerUsers({ gatewayUrl: cluster.url, mails, adminCode }, 100)
const commitDb = new URL(PG)
commitDb.pathname = '/bench_ceiling'
const scormCommit = await benchScormCommit({
  base: cluster.url,
  contentOrigin: cluster.contentOrigin,
  adminToken: commitUsers.adminToken,
  learnerTokens: commitUsers.learnerTokens,
  ceilingDatabaseUrl: commitDb.toString(),
  learningUrl: `http://127.0.0.1:${BENCH_LEARNING_PORT}`,
  duration: DURATION,
  connections: CONNECTIONS,
})

// cmi5 (issue 26): AU statements through the gateway's content origin to the LRS, beside a bare insert.
const statementUsers = await registerUsers({ gatewayUrl: cluster.url, mails, adminCode }, 100)
const statements = await benchStatements({
  base: cluster.url,
  adminToken: statementUsers.adminToken,
  learnerTokens: statementUsers.learnerTokens,
  ceilingDatabaseUrl: commitDb.toString(),
  learningUrl: `http://127.0.0.1:${BENCH_LEARNING_PORT}`,
  duration: DURATION,
  connections: CONNECTIONS,
})

// 3. What the browser downloads: the shell's first load, and what each remote adds to the first
// screen a learner and an admin land on (issue 15 item 9), and the learner dashboard's request chain (issue 30 item 7).
// The learner dashboard as a new learner first sees it: no branch and department yet, so the
// Complete Your Profile dialog comes with it (the harder case of the two).
const browser = await launchBrowser()
const firstScreens = await measureFirstScreens(browser, cluster.url, { email, password }, { email: commitUsers.emails[0]!, password: commitUsers.password })
const shellBytes = firstScreens.shellFirstLoadJsBytes
const learnerBytes = firstScreens.screens.learnerDashboard!.totalJsBytes
await browser.close()
await cluster.close()
smtp.close()

// Tracing (issue 29): the same commits on two stacks of a cluster of its own, one never traced, the other in each setting, loaded in turn.
const commitTracing = await benchCommitTracing({ registerUsers, duration: DURATION, connections: CONNECTIONS })

// Replicas (issue 29): SCORM commits with one learning replica and with two, each on a cluster of its own.
const commitReplicas = await benchCommitReplicas({ registerUsers, duration: DURATION, connections: CONNECTIONS })

// Package ingest (issue 3): with the cluster stopped, so it competes with unzip alone.
const ingest = await benchIngest()

// Team dashboard and export (issue 11): svc-certs on 10,000 technicians, beside the same statement run bare.
const team = await benchTeam({ pgUrl: PG, durationSeconds: DURATION })
// Certification expiry check (issue 12): 1,000,000 technician certifications beside a bare scan.
const certExpiry = await benchCertExpiry(PG)
// Item analysis (issue 27): an exam with 100,000 attempts of 50 questions, beside a bare scan of its kept rows.
const itemAnalysis = await benchItemAnalysis(PG)
// Due-date scan (issue 24): 100,000 assignments beside a bare insert ... select of as many rows; a second run must send nothing.
const dueDateScan = await benchDueDateScan(PG)
// Learner dashboard (issue 24): GET /assignments/mine with 50 assignments through svc-learning, beside a bare Hono + pg route.
const learnerDashboard = await benchLearnerDashboard({ pgUrl: PG, durationSeconds: DURATION })

const result = {
  at: new Date().toISOString(),
  machine: { cores: (await import('node:os')).cpus().length, node: process.version },
  durationSeconds: DURATION,
  connections: CONNECTIONS,
  ceilingHonoPgSelect: ceiling,
  profileThroughGateway: profile,
  profileRatio: Number((profile.rps / ceiling.rps).toFixed(3)),
  profileDirectToIdentity: profileDirect,
  goals: {
    profileRatio: 0.4,
    profileP99Ms: 50,
    shellFirstLoadGzBytes: SHELL_FIRST_LOAD_GOAL_BYTES,
    learnerAdditionGzBytes: LEARNER_DASHBOARD_GOAL_BYTES,
    remoteFirstScreenGzBytes: REMOTE_FIRST_SCREEN_GOAL_BYTES,
    dashboardDataRequestLevel: DASHBOARD_DATA_LEVEL_GOAL,
  },
  login,
  shellFirstLoadJsBytes: shellBytes,
  learnerAdditionJsBytes: learnerBytes,
  firstScreens,
  exams,
  scormCommit,
  commitTracing,
  commitReplicas,
  statements,
  ingest,
  team,
  certExpiry,
  itemAnalysis,
  dueDateScan,
  learnerDashboard,
}
await mkdir(`${root}bench/results`, { recursive: true })
const file = `${root}bench/results/identity-${result.at.replace(/[:.]/g, '-')}.json`
await writeFile(file, JSON.stringify(result, null, 2) + '\n')
console.log(`
ceiling (bare Hono + pg select)   ${ceiling.rps} req/s, p99 ${ceiling.p99} ms
GET /api/users/me via gateway     ${profile.rps} req/s, p99 ${profile.p99} ms, non-2xx ${profile.non2xx}
ratio                             ${(result.profileRatio * 100).toFixed(1)}% (goal >= 40%, p99 <= 50 ms)
same call straight to identity    ${profileDirect.rps} req/s, p99 ${profileDirect.p99} ms (no gateway hop)
login rate                        ${login.rps} logins/s, p99 ${login.p99} ms (scrypt, 8 connections)
${formatFirstScreens(firstScreens)}
${examsSummary(exams)}
${formatCommit(scormCommit)}
${formatCommitTracing(commitTracing)}
${formatCommitReplicas(commitReplicas)}
${formatStatements(statements)}
${formatIngest(ingest)}
${formatTeam(team)}
${formatCertExpiry(certExpiry)}
${formatItemAnalysis(itemAnalysis)}
${formatDueDateScan(dueDateScan)}
${formatLearnerDashboard(learnerDashboard)}
written to ${file}
`)
process.exit(0)
