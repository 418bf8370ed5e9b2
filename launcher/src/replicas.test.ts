/**
 * Replicas under load (issue 29): two processes each of svc-learning and svc-certs behind the
 * gateway, on the machine's PostgreSQL (databases of this test's own: DATABASE_NAME_PREFIX) and
 * NATS JetStream (a stream and subject namespace of its own), files on an S3-compatible server and
 * mail to an SMTP receiver of the test's own. Learners commit SCORM
 * state while an admin downloads the team export; one learning and one certs replica are killed
 * with SIGKILL and started again; the daily expiry check is asked of both certs replicas at once.
 * Afterwards: every acknowledged commit is stored, every export that came whole is a valid
 * workbook and those asked after the kill all came, the check's mails arrived once each, and the
 * failures the learners saw are counted and printed.
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { jetstreamManager } from '@nats-io/jetstream'
import { connect } from '@nats-io/transport-node'
import ExcelJS from 'exceljs'
import pg from 'pg'
import { startSmtpReceiver } from 'svc-notify/test-support'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TEST_NATS_URL, TEST_PG_URL, freePort, mapLimit, startTestS3, uniqueName, type TestS3 } from '@portal/server-kit/testing'
import { startCluster } from './cluster.ts'

const FIXTURE = fileURLToPath(new URL('../../../shared/fixtures/scorm/golf-scorm12-RuntimeBasicCalls.zip', import.meta.url))
/** Learners committing at once (each one launch, commits one after another). */
const LEARNERS = 16
/** How long the commits and exports go on, and when in that time the replicas are killed. */
const LOAD_MS = 20_000
const KILL_AT_MS = 6_000
const COMMIT_PAUSE_MS = 20
/** Admins downloading the team export at once, one download after another. */
const EXPORTERS = 2
const CERTIFICATION = 'Replica Drill'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer()
    s.once('error', () => resolve(false))
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)))
  })
/** A free port whose second replica's port (+10, cluster.ts) is free too. */
async function replicaPort(): Promise<number> {
  for (;;) {
    const p = await freePort()
    if (p + 10 < 65_536 && (await portFree(p + 10))) return p
  }
}

/** A SCORM 1.2 commit whose suspend data and location name the learner and the commit's seq. */
const commitOf = (itemId: string, revision: number | undefined, learner: number, seq: number) => ({
  itemId,
  seq,
  revision,
  terminated: false,
  completionStatus: 'incomplete',
  totalTimeSeconds: seq,
  runtimeData: {
    suspend_data: `learner ${learner} seq ${seq} ${'x'.repeat(400)}`,
    core: { lesson_location: `page-${seq}`, lesson_status: 'incomplete', exit: 'suspend', session_time: '00:00:01', score: { raw: '50', min: '0', max: '100' } },
  },
})

/** The Team sheet's e-mail column of an export, read by ExcelJS (as certs' own workbook tests read one). */
async function teamEmails(file: Uint8Array): Promise<string[]> {
  const wb = new ExcelJS.Workbook()
  await wb.xlsx.load(file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer)
  expect(wb.worksheets.map((w) => w.name).slice(0, 2)).toEqual(['Team', 'Certifications'])
  const team = wb.getWorksheet('Team')!
  expect(team.getRow(1).getCell(2).text).toBe('Email')
  const emails: string[] = []
  team.eachRow((row, n) => void (n > 1 && emails.push(row.getCell(2).text)))
  return emails.sort()
}

describe('two replicas of learning and certs, one of each killed under load', () => {
  let cluster: Awaited<ReturnType<typeof startCluster>>
  let s3: TestS3
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>
  let dataDir: string
  const ports = { gateway: 0, content: 0, identity: 0, learning: 0, certs: 0, notify: 0 }
  const adminCode = randomBytes(12).toString('base64url')
  // The services' databases (`<prefix>identity`, ...) and the bus, this test's own on the shared servers.
  const name = uniqueName('replicas').toLowerCase()
  const databasePrefix = `${name}_`
  const stream = name.toUpperCase()

  beforeAll(async () => {
    const t0 = performance.now()
    ;[s3, smtp, dataDir] = await Promise.all([startTestS3(), startSmtpReceiver(), mkdtemp(join(tmpdir(), 'portal-replicas-'))])
    for (const k of ['gateway', 'content', 'identity', 'notify'] as const) ports[k] = await freePort()
    ports.learning = await replicaPort()
    ports.certs = await replicaPort()
    cluster = await startCluster({
      env: {
        DATABASE_URL: TEST_PG_URL,
        DATABASE_NAME_PREFIX: databasePrefix,
        NATS_URL: TEST_NATS_URL,
        NATS_STREAM: stream,
        NATS_SUBJECT_PREFIX: `${name}.`,
        SMTP_URL: smtp.url,
        S3_ENDPOINT: s3.options.endpoint,
        S3_REGION: s3.options.region,
        S3_BUCKET: s3.options.bucket,
        S3_ACCESS_KEY_ID: s3.options.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.options.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
        COMPANY_EMAIL_DOMAIN: 'example.com',
        ADMIN_REGISTRATION_CODE: adminCode,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'error',
        PUBLIC_URL: `http://127.0.0.1:${ports.gateway}`,
        // Every user registers from this machine, signs in from no known browser, at once.
        REGISTRATIONS_PER_ADDRESS_PER_HOUR: '100000',
        KDF_QUEUE_UNKNOWN: '64',
        KDF_MAX_WAIT_MS: '20000',
        // The daily check runs when this test asks (its 06:00 schedule would claim the notices first).
        CERT_NOTIFY_SCHEDULE: 'off',
      },
      gatewayPort: ports.gateway,
      contentPort: ports.content,
      ports: { identity: ports.identity, learning: ports.learning, certs: ports.certs, notify: ports.notify },
      replicas: { learning: 2, certs: 2 },
      // The API only: no remote's build is needed.
      remoteServers: false,
      quiet: true,
    })
    console.log(`replica test: cluster up in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  }, 120_000)

  afterAll(async () => {
    await cluster?.close()
    await smtp?.close()
    await s3?.close()
    const nc = await connect({ servers: TEST_NATS_URL })
    await (await jetstreamManager(nc)).streams.delete(stream).catch(() => undefined)
    await nc.close()
    const admin = new pg.Client({ connectionString: TEST_PG_URL })
    await admin.connect()
    for (const service of ['identity', 'learning', 'certs', 'notify']) await admin.query(`drop database if exists "${databasePrefix}${service}" with (force)`)
    await admin.end()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('keeps every acknowledged commit and whole export, mails the daily check once, and counts what learners saw fail', async () => {
    const base = cluster.url
    const api = async <T>(method: string, path: string, body?: unknown, token?: string): Promise<T> => {
      const res = await fetch(`${base}/api${path}`, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
      return (await res.json()) as T
    }

    // People, through the real registration flow: the code comes by mail.
    const stamp = Date.now().toString(36)
    const password = 'Replica1234!'
    const people = [
      { email: `replica.${stamp}.admin@example.com`, name: 'Replica Admin', admin: true },
      ...Array.from({ length: LEARNERS }, (_, i) => ({ email: `replica.${stamp}.learner${i}@example.com`, name: `Replica Learner ${i}`, admin: false })),
    ]
    const registered = await mapLimit(people, 8, (p) =>
      api<{ userId: string }>('POST', '/auth/register', { name: p.name, email: p.email, password, ...(p.admin ? { isAdmin: true, adminCode } : {}) }),
    )
    const codeOf = (email: string) => /\b(\d{6})\b/.exec(smtp.to(email)[0]?.text ?? '')?.[1]
    for (let i = 0; i < 300 && people.some((p) => !codeOf(p.email)); i++) await sleep(100)
    const tokens = await mapLimit(registered, 8, async (r, i) => {
      const code = codeOf(people[i]!.email)
      if (!code) throw new Error(`no verification mail for ${people[i]!.email} (${smtp.received.length} mails received)`)
      return (await api<{ token: string }>('POST', '/auth/verify-email', { userId: r.userId, verificationCode: code })).token
    })
    const adminToken = tokens[0]!
    const learnerTokens = tokens.slice(1)
    const learnerEmails = people.slice(1).map((p) => p.email)

    // Each learner holds a certification expiring in 5 days: the daily check's 7-day notice.
    const type = await api<{ certification: { id: number } }>('POST', '/admin/certifications', { name: CERTIFICATION, code: `RPL-${stamp}`, upload_required: false }, adminToken)
    const expiration = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10)
    await mapLimit(registered.slice(1), 4, async (r) => {
      // The user reaches certs' projection over NATS a moment after the registration.
      for (let tries = 0; ; tries++) {
        const res = await fetch(`${base}/api/technician/certifications/add`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
          body: JSON.stringify({
            certification_id: type.certification.id,
            certification_number: `RPL-${r.userId.slice(0, 8)}`,
            obtained_date: '2020-01-01',
            expiration_date: expiration,
            user_id: r.userId,
          }),
        })
        if (res.status === 201) return
        if (res.status !== 404 || tries > 100) throw new Error(`certification not added: ${res.status} ${await res.text()}`)
        await sleep(200)
      }
    })

    // One SCORM 1.2 course for everyone, each learner launched once.
    const form = new FormData()
    form.append('title', `Replica course ${stamp}`)
    form.append('is_assigned_to_all', 'true')
    form.append('moduleData', JSON.stringify([{ title: 'Golf', order: 1 }]))
    form.append('moduleFiles', new File([await readFile(FIXTURE)], 'golf.zip', { type: 'application/zip' }))
    const created = await fetch(`${base}/api/courses`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}` }, body: form })
    expect(created.status, await created.clone().text()).toBe(201)
    const courseId = ((await created.json()) as { id: number }).id
    let moduleId = 0
    for (let i = 0; i < 300 && !moduleId; i++) {
      const courses = await api<{ id: number; modules: { id: number; processing_status: string; processing_error: string | null }[] }[]>(
        'GET',
        '/admin/courses',
        undefined,
        adminToken,
      )
      const m = courses.find((c) => c.id === courseId)?.modules[0]
      if (m?.processing_status === 'failed') throw new Error(`package failed: ${m.processing_error}`)
      if (m?.processing_status === 'ready') moduleId = m.id
      else await sleep(200)
    }
    expect(moduleId, 'module ready').toBeGreaterThan(0)
    const launches = await Promise.all(learnerTokens.map((t) => api<{ commitUrl: string; startItem: string; revision?: number }>('GET', `/scorm/${moduleId}/launch`, undefined, t)))

    // The load: commits and exports go on while one replica of each is killed and started again.
    const t0 = performance.now()
    const now = () => Math.round(performance.now() - t0)
    let stop = false
    const failures: { what: 'commit' | 'export'; learner?: number; startedAt: number; endedAt: number; error: string }[] = []
    const learners = launches.map(() => ({ sent: new Set<number>(), acked: 0 }))
    let commitsInFlight = 0
    let commitsAcked = 0
    const commitLoop = async (i: number) => {
      const launch = launches[i]!
      for (let seq = 1; !stop; seq++) {
        learners[i]!.sent.add(seq)
        commitsInFlight++
        const startedAt = now()
        try {
          const res = await fetch(`${cluster.contentOrigin}${launch.commitUrl}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(commitOf(launch.startItem, launch.revision, i, seq)),
            signal: AbortSignal.timeout(30_000),
          })
          const text = await res.text()
          if (res.ok) {
            learners[i]!.acked = seq
            commitsAcked++
          } else failures.push({ what: 'commit', learner: i, startedAt, endedAt: now(), error: `${res.status} ${text.slice(0, 160)}` })
        } catch (err) {
          failures.push({ what: 'commit', learner: i, startedAt, endedAt: now(), error: String((err as Error).cause ?? err) })
        } finally {
          commitsInFlight--
        }
        await sleep(COMMIT_PAUSE_MS)
      }
    }
    const exports: { startedAt: number; status: number; emails?: string[]; broken?: string }[] = []
    let exportsInFlight = 0
    const exportLoop = async () => {
      while (!stop) {
        exportsInFlight++
        const startedAt = now()
        try {
          const res = await fetch(`${base}/api/reports/certifications/export?format=excel`, {
            headers: { authorization: `Bearer ${adminToken}` },
            signal: AbortSignal.timeout(30_000),
          })
          // A body cut short fails here: the client sees the download fail.
          const file = new Uint8Array(await res.arrayBuffer())
          if (res.status !== 200) {
            failures.push({ what: 'export', startedAt, endedAt: now(), error: `${res.status} ${Buffer.from(file).toString('utf8').slice(0, 160)}` })
            exports.push({ startedAt, status: res.status })
          } else {
            // A whole answer that is no workbook would be a broken export the client cannot tell.
            try {
              exports.push({ startedAt, status: 200, emails: await teamEmails(file) })
            } catch (err) {
              exports.push({ startedAt, status: 200, broken: String(err) })
            }
          }
        } catch (err) {
          failures.push({ what: 'export', startedAt, endedAt: now(), error: String((err as Error).cause ?? err) })
          exports.push({ startedAt, status: 0 })
        } finally {
          exportsInFlight--
        }
      }
    }
    const loops = [...launches.map((_, i) => commitLoop(i)), ...Array.from({ length: EXPORTERS }, exportLoop)]

    await sleep(KILL_AT_MS)
    const atKill = { at: now(), commitsInFlight, exportsInFlight, pids: cluster.pids() }
    await Promise.all([cluster.kill('svc-learning-2'), cluster.kill('svc-certs-2')])
    const killedAt = now()
    const atExit = { commitsInFlight, exportsInFlight }
    await Promise.all([cluster.restart('svc-learning-2'), cluster.restart('svc-certs-2')])
    const restartedAt = now()
    expect(cluster.pids()['svc-learning-2']).not.toBe(atKill.pids['svc-learning-2'])

    // The daily check asked of both certs replicas at once (past the gateway, one each), then once
    // more through the gateway: each notice is claimed by one run only.
    const auth = { authorization: `Bearer ${adminToken}` }
    const triggers = await Promise.all(
      [ports.certs, ports.certs + 10].map(async (p) => {
        const res = await fetch(`http://127.0.0.1:${p}/certification-notifications/trigger/daily`, { method: 'POST', headers: auth })
        return { status: res.status, body: (await res.json()) as { run?: { published: number } } }
      }),
    )
    const again = await api<{ run: { published: number } }>('POST', '/certification-notifications/trigger/daily', undefined, adminToken)

    await sleep(Math.max(0, LOAD_MS - now()))
    stop = true
    await Promise.all(loops)
    const loadMs = now()

    // Every acknowledged commit is there: the stored state is that commit's or a later one sent.
    const stored = await Promise.all(learnerTokens.map((t) => api<{ suspendData: string; location: string }>('GET', `/scorm/progress/${moduleId}`, undefined, t)))
    const lost: string[] = []
    for (const [i, s] of stored.entries()) {
      const m = /^learner (\d+) seq (\d+) /.exec(s.suspendData)
      const seq = Number(m?.[2] ?? 0)
      if (Number(m?.[1]) !== i || seq < learners[i]!.acked || !learners[i]!.sent.has(seq) || s.location !== `page-${seq}`)
        lost.push(`learner ${i}: acknowledged up to ${learners[i]!.acked}, stored ${s.suspendData.slice(0, 40)} at ${s.location}`)
    }

    // The daily check's mails: one per learner, each Message-ID once (notify sends after the check).
    const notices = () => smtp.received.filter((m) => (m.subject ?? '').includes(CERTIFICATION))
    for (let i = 0; i < 150 && notices().length < LEARNERS; i++) await sleep(200)
    await sleep(3_000)
    const perLearner = learnerEmails.map((e) => notices().filter((m) => m.envelopeTo.some((r) => r.toLowerCase() === e.toLowerCase())).length)
    const messageIds = notices().map((m) => m.messageId)

    const commitFailures = failures.filter((f) => f.what === 'commit')
    const exportFailures = failures.filter((f) => f.what === 'export')
    const whole = exports.filter((e) => e.emails)
    console.log(
      [
        `replica test (load average ${(await import('node:os'))
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}):`,
        `  load ${loadMs} ms, ${LEARNERS} learners, ${commitsAcked} commits acknowledged of ${learners.reduce((n, l) => n + l.sent.size, 0)} sent`,
        `  kill -9 of svc-learning-2 and svc-certs-2 at ${atKill.at} ms with ${atKill.commitsInFlight} commits and ${atKill.exportsInFlight} exports in flight (all replicas); both exited at ${killedAt} ms (${atExit.commitsInFlight} commits, ${atExit.exportsInFlight} exports in flight), healthy again at ${restartedAt} ms`,
        `  learner-visible commit failures: ${commitFailures.length}, of which ${commitFailures.filter((f) => f.startedAt > killedAt).length} sent after both had exited${commitFailures.map((f) => `\n    learner ${f.learner} ${f.startedAt}-${f.endedAt} ms ${f.error}`).join('')}`,
        `  exports: ${exports.length} asked, ${whole.length} whole workbooks, ${exports.filter((e) => e.broken).length} broken, ${exportFailures.length} failed${exportFailures.map((f) => `\n    ${f.startedAt}-${f.endedAt} ms ${f.error}`).join('')}`,
        `  daily check: both replicas at once answered ${triggers.map((t) => `${t.status}${t.body.run ? ` (${t.body.run.published} published)` : ''}`).join(' and ')}; again through the gateway: ${again.run.published} published`,
        `  notice mails: ${notices().length} for ${LEARNERS} learners, ${new Set(messageIds).size} distinct Message-IDs`,
        `  acknowledged commits lost: ${lost.length}`,
      ].join('\n'),
    )

    expect(lost).toEqual([])
    expect(commitsAcked).toBeGreaterThan(LEARNERS * 10)
    // What learners saw fail: at most the commits in flight while the replica died (counted at the
    // signal and at its exit; a commit is repeatable, so the gateway sends one the dying replica
    // refused or reset unanswered to the other), none sent later.
    expect(commitFailures.length).toBeLessThanOrEqual(Math.max(atKill.commitsInFlight, atExit.commitsInFlight))
    for (const f of commitFailures) expect(f.startedAt, f.error).toBeLessThanOrEqual(killedAt)
    // Exports: none broken; those asked after the kill all whole, listing every learner.
    expect(exports.filter((e) => e.broken)).toEqual([])
    expect(exportFailures.length).toBeLessThanOrEqual(EXPORTERS)
    for (const f of exportFailures) expect(f.startedAt, f.error).toBeLessThan(killedAt)
    const afterKill = exports.filter((e) => e.startedAt >= killedAt)
    expect(afterKill.length).toBeGreaterThan(0)
    for (const e of afterKill) expect(e.emails).toEqual([...learnerEmails].sort())
    // The daily check: one run claimed each notice, one mail each.
    for (const t of triggers) expect([200, 409]).toContain(t.status)
    expect(triggers.reduce((n, t) => n + (t.body.run?.published ?? 0), 0)).toBe(LEARNERS)
    expect(again.run.published).toBe(0)
    expect(perLearner).toEqual(learnerEmails.map(() => 1))
    expect(new Set(messageIds).size).toBe(messageIds.length)
  }, 180_000)
})
