import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NotificationLogsResponse, type NotificationLog } from '@portal/contracts'
import {
  PlatformEnv,
  createLocalStorage,
  createNatsBus,
  createTokenIssuer,
  loadOrCreateSigningKey,
  type Actor,
} from '@portal/server-kit'
import { createTestDatabase, freePort, silentLogger } from '@portal/server-kit/testing'
import { start as startNotify } from 'svc-notify/server'
import { eventually, startSmtpReceiver } from 'svc-notify/test-support'
import { start as startCerts } from '../server.ts'
import { DEFAULT_SCHEDULE } from './notification.runner.ts'

// The whole chain on real engines: svc-certs finds what expires and publishes it over NATS
// JetStream (a nats-server of this test's own, so it can be restarted), svc-notify renders and
// sends it to an SMTP receiver, and the outcomes come back into svc-certs' log.

const DAY = 86_400_000

async function startNats(port: number, storeDir: string): Promise<ChildProcess> {
  const child = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], { stdio: 'ignore' })
  await eventually(
    () =>
      new Promise<boolean>((resolve) => {
        const s = createServer()
        // Listening fails while nats-server holds the port.
        s.once('error', () => resolve(true))
        s.listen(port, '127.0.0.1', () => s.close(() => resolve(false)))
      }),
    10_000,
  )
  return child
}
const stopNats = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })

describe('certification expiry chain: svc-certs → NATS → svc-notify → SMTP → log', () => {
  let natsPort: number
  let natsDir: string
  let nats: ChildProcess
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>
  let certsDb: Awaited<ReturnType<typeof createTestDatabase>>
  let notifyDb: Awaited<ReturnType<typeof createTestDatabase>>
  let dataDir: string
  let certsBus: Awaited<ReturnType<typeof createNatsBus>>
  let notifyBus: Awaited<ReturnType<typeof createNatsBus>>
  let certs: Awaited<ReturnType<typeof startCerts>>
  let notify: Awaited<ReturnType<typeof startNotify>>
  let issuer: ReturnType<typeof createTokenIssuer>
  let env: PlatformEnv
  const schedule = { ...DEFAULT_SCHEDULE, enabled: false, timeZone: 'UTC' }

  const api = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${certs.port}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    })
    return { status: res.status, body: (await res.json()) as any }
  }
  const today = () => new Date().toISOString().slice(0, 10)
  const inDays = (n: number) => new Date(Date.parse(`${today()}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10)

  const person = async (o: { name: string; admin?: boolean }) => {
    const actor: Actor = {
      userId: crypto.randomUUID(),
      email: `${o.name.toLowerCase().replace(/\W+/g, '.')}.${Math.random().toString(36).slice(2, 6)}@acme.test`,
      name: o.name,
      isAdmin: Boolean(o.admin),
      isManager: false,
      managerScope: { branches: [], departments: [] },
    }
    await certsBus.publish({
      id: crypto.randomUUID(),
      type: 'identity.user.registered.v1',
      occurredAt: new Date().toISOString(),
      data: { ...actor, branch: o.admin ? null : 'Portland', department: o.admin ? null : 'Service', userGroup: null },
    })
    await eventually(async () => ((await certs.orm.em.getConnection().execute('select 1 from users where id = ?', [actor.userId])) as unknown[]).length > 0)
    return { id: actor.userId, email: actor.email, token: await issuer.sign(actor) }
  }
  const logs = async (token: string): Promise<NotificationLog[]> => NotificationLogsResponse.parse((await api('GET', '/certification-notifications/logs?limit=500', token)).body).logs
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

  beforeAll(async () => {
    natsPort = await freePort()
    natsDir = await mkdtemp(join(tmpdir(), 'chain-nats-'))
    nats = await startNats(natsPort, natsDir)
    smtp = await startSmtpReceiver()
    ;[certsDb, notifyDb] = await Promise.all([createTestDatabase('certs'), createTestDatabase('notify')])
    dataDir = await mkdtemp(join(tmpdir(), 'chain-'))
    env = PlatformEnv.parse({ SMTP_URL: smtp.url, PUBLIC_URL: 'http://portal.test', DATA_DIR: dataDir, NODE_ENV: 'test', LOG_LEVEL: 'silent' })
    const url = `nats://127.0.0.1:${natsPort}`
    certsBus = await createNatsBus({ url, logger: silentLogger, nakDelayMs: 100 })
    notifyBus = await createNatsBus({ url, logger: silentLogger, nakDelayMs: 100 })
    issuer = createTokenIssuer(await loadOrCreateSigningKey(undefined), { issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE, ttlSeconds: 3600 })
    certs = await startCerts({ env, logger: silentLogger, bus: certsBus, port: 0, jwks: issuer.jwks(), databaseUrl: certsDb.url, storage: createLocalStorage(dataDir), schedule })
    notify = await startNotify({ env, logger: silentLogger, bus: notifyBus, port: 0, jwks: issuer.jwks(), databaseUrl: notifyDb.url, sender: { intervalMs: 100, retryBaseMs: 50 } })
  }, 60_000)

  afterAll(async () => {
    await certs?.close()
    await notify?.close()
    await certsBus?.close()
    await notifyBus?.close()
    if (nats) await stopNats(nats)
    await certsDb?.drop()
    await notifyDb?.drop()
    await smtp?.close()
    for (const dir of [natsDir, dataDir]) if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('four technicians in four bands, one paused: the right mails and log entries, and nothing on a second run; then across a NATS restart and a stopped run', async () => {
    const admin = await person({ name: 'Admin', admin: true })
    const { body: cfg } = await api('GET', '/certification-notifications/configs/Portland/Service', admin.token)
    const saved = await api('PUT', `/certification-notifications/configs/${cfg.config.id}`, admin.token, {
      manager_email: 'manager@acme.test',
      operations_manager_email: 'ops@acme.test',
      additional_email_1: 'safety@acme.test',
      is_active: true,
    })
    expect(saved.status).toBe(200)
    const { body: typeBody } = await api('POST', '/admin/certifications', admin.token, { name: 'Arc Flash Safety', code: 'AFS', validity_period: 12 })
    const type = typeBody.certification as { id: number }

    const holds = async (name: string, days: number) => {
      const p = await person({ name })
      const res = await api('POST', '/technician/certifications/add', p.token, { certification_id: type.id, certification_number: `AFS-${name}`, obtained_date: inDays(days - 365), expiration_date: inDays(days) })
      expect(res.status).toBe(201)
      return p
    }
    const t30 = await holds('Tia Thirty', 28)
    const t14 = await holds('Finn Fourteen', 13)
    const t7 = await holds('Sam Seven', 6)
    // Expired once the expiration date has passed (admin §9 "expired below 0"): yesterday's.
    const tx = await holds('Eve Expired', -1)
    expect((await api('POST', '/technician/pause-notifications', t7.token, { userId: t7.id })).status).toBe(200)

    expect((await api('POST', '/certification-notifications/trigger/daily', admin.token)).status).toBe(200)

    await eventually(() => smtp.received.length >= 6, 20_000)
    await sleep(500)
    expect(smtp.received).toHaveLength(6)
    expect(smtp.to(t30.email)[0]!.subject).toBe('Your Arc Flash Safety certification expires in 28 days')
    expect(smtp.to(t14.email)[0]!.subject).toBe('Your Arc Flash Safety certification expires in 13 days')
    expect(smtp.to(t7.email)).toHaveLength(0)
    expect(smtp.to(tx.email)[0]!.subject).toBe('Your Arc Flash Safety certification has expired')
    const escalation = smtp.to('manager@acme.test')[0]!
    expect(escalation.subject).toBe("Escalation: Sam Seven's Arc Flash Safety certification expires in 6 days")
    expect(escalation.text).toContain(`http://portal.test/manager/technician/${t7.id}`)
    expect(escalation.text).toMatch(/Acknowledge this escalation: http:\/\/portal\.test\/api\/certification-notifications\/acknowledge\?token=/)
    expect(smtp.to('ops@acme.test')[0]!.subject).toBe("Expired: Eve Expired's Arc Flash Safety certification")
    expect(smtp.to('safety@acme.test')).toHaveLength(1)
    expect(smtp.to(t30.email)[0]!.text).toContain('http://portal.test/technician/profile')
    expect(smtp.to(t30.email)[0]!.text).toContain('Days left: 28')

    // The outcomes come back: every queued entry becomes sent; the paused one stays paused.
    await eventually(async () => (await logs(admin.token)).every((l) => l.status !== 'queued'), 20_000)
    const entries = await logs(admin.token)
    expect(entries.map((l) => [l.technician!.name, l.notification_type, l.status]).sort()).toEqual(
      [
        ['Tia Thirty', '30_day', 'sent'],
        ['Finn Fourteen', '14_day', 'sent'],
        ['Sam Seven', '7_day', 'paused'],
        ['Sam Seven', 'manager_escalation', 'sent'],
        ['Eve Expired', 'expired', 'sent'],
        ['Eve Expired', 'ops_escalation', 'sent'],
      ].sort(),
    )

    // A second run sends nothing.
    expect((await api('POST', '/certification-notifications/trigger/daily', admin.token)).status).toBe(200)
    await sleep(1500)
    expect(smtp.received).toHaveLength(6)

    // NATS goes down while a run publishes; once it is back everything arrives, once.
    const late = await holds('Lou Late', 29)
    await stopNats(nats)
    expect((await api('POST', '/certification-notifications/trigger/daily', admin.token)).status).toBe(200)
    await sleep(1000)
    nats = await startNats(natsPort, natsDir)
    await eventually(() => smtp.to(late.email).length > 0, 30_000)
    await sleep(1000)
    expect(smtp.to(late.email)).toHaveLength(1)
    expect(smtp.received).toHaveLength(7)

    // svc-certs stops in the middle of a run (after its first batch of one); a fresh instance's run sends the rest, nothing twice.
    const batch = await Promise.all(['Ann', 'Ben', 'Cid'].map((n) => holds(`${n} Batch`, 20)))
    await certs.close()
    let first = true
    certs = await startCerts({
      env,
      logger: silentLogger,
      bus: certsBus,
      port: 0,
      jwks: issuer.jwks(),
      databaseUrl: certsDb.url,
      storage: createLocalStorage(dataDir),
      schedule,
      runs: {
        batchSize: 1,
        afterBatch: () => {
          if (first) {
            first = false
            throw new Error('svc-certs stopped')
          }
        },
      },
    })
    expect((await api('POST', '/certification-notifications/trigger/daily', admin.token)).status).toBe(500)
    await certs.close()
    certs = await startCerts({ env, logger: silentLogger, bus: certsBus, port: 0, jwks: issuer.jwks(), databaseUrl: certsDb.url, storage: createLocalStorage(dataDir), schedule })
    expect((await api('POST', '/certification-notifications/trigger/daily', admin.token)).status).toBe(200)
    await eventually(() => batch.every((b) => smtp.to(b.email).length > 0), 20_000)
    await sleep(1000)
    for (const b of batch) expect(smtp.to(b.email)).toHaveLength(1)
    expect(smtp.received).toHaveLength(10)
  }, 120_000)
})
