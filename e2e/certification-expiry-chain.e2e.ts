import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { DEFAULT_COMPANY_TIME_ZONE, NotificationLogsResponse, todayIn, type NotificationLog } from '@portal/contracts'
import { apiLogIn, waitForMail, type MailboxMessage } from './browser.ts'
import { freePort, startPortal } from './portal.ts'

// The certification expiry chain through the portal (issue 31 item 6; it was svc-certs'
// expiry-chain.test.ts, which started svc-notify from its source): svc-certs finds what expires
// and publishes it, svc-notify renders and sends it to the dev mailbox, and the delivery outcomes
// come back into svc-certs' log. The bands, the pause, the escalations and "nothing twice" run on
// the portal the journeys share (its in-process bus); a bus that goes down and a portal stopped
// during a run need a NATS server of this file's own, so they run on a second portal started on
// it, which is then stopped and started again on the same data.
const baseURL = inject('baseURL')
const DAY = 86_400_000
// Seattle · Construction: no demo technician works there and no other journey configures it.
const PLACE = { branch: 'Seattle', department: 'Construction' } as const
const run = Date.now().toString(36)

/** The company's date `n` days from today (the daily check counts days in the company's time zone). */
const inDays = (n: number) => new Date(Date.parse(`${todayIn(DEFAULT_COMPANY_TIME_ZONE)}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function eventually(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out')
    await sleep(250)
  }
}

/** The dev-mailbox messages to `to` sent after `since` (the verification codes of sign-up come before). */
async function mailsTo(base: string, to: string, since: string): Promise<MailboxMessage[]> {
  const res = await fetch(`${base}/api/dev/mailbox?to=${encodeURIComponent(to)}`)
  expect(res.status).toBe(200)
  return ((await res.json()) as MailboxMessage[]).filter((m) => m.sentAt > since)
}

/** The portal's API as `auth`; `T` is the shape the caller reads of the answer's body. */
const api = async <T = unknown>(base: string, auth: { authorization: string }, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${base}/api${path}`, { method, headers: { ...auth, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  return { status: res.status, body: (await res.json()) as T }
}

/** A technician of Seattle · Construction: registered, verified by the e-mailed code, profile completed, known to svc-certs. */
async function technician(base: string, name: string) {
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${run}@example.com`
  const password = 'Chain1234!'
  const registered = await fetch(`${base}/api/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, email, password }) })
  expect(registered.status).toBe(201)
  const { userId } = (await registered.json()) as { userId: string }
  const [, code] = await waitForMail(base, email, /\b(\d{6})\b/)
  expect(
    (await fetch(`${base}/api/auth/verify-email`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userId, verificationCode: code }) }))
      .status,
  ).toBe(200)
  const { auth } = await apiLogIn(base, email, password)
  expect((await api(base, auth, 'PUT', `/users/${userId}/profile`, PLACE)).status).toBe(200)
  // Identity's event brings the branch to svc-certs: the notices' configuration is found by it.
  await eventually(async () => (await api<{ user?: { branch?: string } }>(base, auth, 'GET', `/technician/profile/${userId}`)).body?.user?.branch === PLACE.branch, 20_000)
  return { id: userId, email, auth }
}

/** The admin's setup on a portal: Seattle · Construction's addresses switched on, and a type of 12 months. */
async function setUp(base: string) {
  const admin = (await apiLogIn(base, 'admin@example.com', 'Admin123!')).auth
  const addresses = {
    manager_email: `chain.manager.${run}@example.com`,
    operations_manager_email: `chain.ops.${run}@example.com`,
    additional_email_1: `chain.safety.${run}@example.com`,
  }
  const { body: cfg } = await api<{ config: { id: number } }>(base, admin, 'GET', `/certification-notifications/configs/${PLACE.branch}/${PLACE.department}`)
  expect((await api(base, admin, 'PUT', `/certification-notifications/configs/${cfg.config.id}`, { ...addresses, is_active: true })).status).toBe(200)
  const created = await api<{ certification: { id: number } }>(base, admin, 'POST', '/admin/certifications', { name: 'Arc Flash Safety', code: `AFS-${run}`, validity_period: 12 })
  expect(created.status).toBe(201)
  const typeId = created.body.certification.id
  /** A new technician holding the type, expiring `days` from today. */
  const holds = async (name: string, days: number) => {
    const p = await technician(base, name)
    const res = await api(base, p.auth, 'POST', '/technician/certifications/add', {
      certification_id: typeId,
      certification_number: `AFS-${name}`,
      obtained_date: inDays(days - 365),
      expiration_date: inDays(days),
    })
    expect(res.status).toBe(201)
    return p
  }
  return { admin, addresses, holds }
}

/** How many mails the dev mailbox holds for these addresses since `since`. */
const mailCount = async (base: string, addresses: string[], since: string) => (await Promise.all(addresses.map((a) => mailsTo(base, a, since)))).reduce((n, m) => n + m.length, 0)

describe('certification expiry chain: svc-certs → events → svc-notify → mailbox → log', () => {
  it('four technicians in four bands, one paused: the right mails and log entries, and nothing on a second run', async () => {
    const { admin, addresses, holds } = await setUp(baseURL)
    const t30 = await holds('Tia Thirty', 28)
    const t14 = await holds('Finn Fourteen', 13)
    const t7 = await holds('Sam Seven', 6)
    // Expired once the expiration date has passed (admin §9 "expired below 0"): yesterday's.
    const tx = await holds('Eve Expired', -1)
    expect((await api(baseURL, t7.auth, 'POST', '/technician/pause-notifications', { userId: t7.id })).status).toBe(200)
    const everyone = [t30.email, t14.email, t7.email, tx.email, addresses.manager_email, addresses.operations_manager_email, addresses.additional_email_1]
    const since = new Date().toISOString()

    expect((await api(baseURL, admin, 'POST', '/certification-notifications/trigger/daily')).status).toBe(200)

    await eventually(async () => (await mailCount(baseURL, everyone, since)) >= 6, 20_000)
    await sleep(500)
    expect(await mailCount(baseURL, everyone, since)).toBe(6)
    const only = async (to: string) => {
      const mails = await mailsTo(baseURL, to, since)
      expect(mails, to).toHaveLength(1)
      return mails[0]!
    }
    expect((await only(t30.email)).subject).toBe('Your Arc Flash Safety certification expires in 28 days')
    expect((await only(t14.email)).subject).toBe('Your Arc Flash Safety certification expires in 13 days')
    expect(await mailsTo(baseURL, t7.email, since)).toHaveLength(0)
    expect((await only(tx.email)).subject).toBe('Your Arc Flash Safety certification has expired')
    const escalation = await only(addresses.manager_email)
    expect(escalation.subject).toBe("Escalation: Sam Seven's Arc Flash Safety certification expires in 6 days")
    expect(escalation.text).toContain(`${baseURL}/manager/technician/${t7.id}`)
    expect(escalation.text).toContain(`Acknowledge this escalation: ${baseURL}/api/certification-notifications/acknowledge?token=`)
    expect((await only(addresses.operations_manager_email)).subject).toBe("Expired: Eve Expired's Arc Flash Safety certification")
    await only(addresses.additional_email_1)
    const thirty = await only(t30.email)
    expect(thirty.text).toContain(`${baseURL}/technician/profile`)
    expect(thirty.text).toContain('Days left: 28')

    // The outcomes come back: every queued entry becomes sent; the paused one stays paused.
    const mine = new Set([t30.id, t14.id, t7.id, tx.id])
    const entries = async (): Promise<NotificationLog[]> =>
      NotificationLogsResponse.parse((await api(baseURL, admin, 'GET', '/certification-notifications/logs?limit=500')).body).logs.filter(
        (l) => l.technician && mine.has(l.technician.id),
      )
    await eventually(async () => (await entries()).every((l) => l.status !== 'queued'), 20_000)
    expect((await entries()).map((l) => [l.technician!.name, l.notification_type, l.status]).sort()).toEqual(
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
    expect((await api(baseURL, admin, 'POST', '/certification-notifications/trigger/daily')).status).toBe(200)
    await sleep(1500)
    expect(await mailCount(baseURL, everyone, since)).toBe(6)
  })

  describe('on NATS JetStream', () => {
    let natsPort: number
    let natsDir: string
    let dataDir: string
    let nats: ChildProcess | undefined
    let portal: Awaited<ReturnType<typeof startPortal>> | undefined

    async function startNats(): Promise<ChildProcess> {
      const child = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(natsPort), '-sd', natsDir], { stdio: 'ignore' })
      // Listening fails while nats-server holds the port.
      await eventually(
        () =>
          new Promise<boolean>((resolve) => {
            const s = createServer()
            s.once('error', () => resolve(true))
            s.listen(natsPort, '127.0.0.1', () => s.close(() => resolve(false)))
          }),
        10_000,
      )
      return child
    }
    const stopNats = (child: ChildProcess | undefined) =>
      new Promise<void>((resolve) => {
        if (!child || child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      })
    // The launcher without `npm start`'s build (the shared portal's start built the remotes), on
    // this file's NATS and a data folder that outlives a restart.
    const startOwnPortal = () => startPortal('node', ['launcher/src/main.ts'], { NATS_URL: `nats://127.0.0.1:${natsPort}`, DATA_DIR: dataDir })

    afterAll(async () => {
      await portal?.stop()
      await stopNats(nats)
      for (const dir of [natsDir, dataDir]) if (dir) await rm(dir, { recursive: true, force: true })
    })

    it('a bus that goes down while a run publishes delivers everything once it is back; a portal stopped during a run sends the rest on the next, nothing twice', async () => {
      natsPort = await freePort()
      natsDir = await mkdtemp(join(tmpdir(), 'chain-nats-'))
      dataDir = await mkdtemp(join(tmpdir(), 'chain-portal-'))
      nats = await startNats()
      portal = await startOwnPortal()
      let base = portal.baseURL
      const { admin, addresses, holds } = await setUp(base)
      const ours = [addresses.manager_email, addresses.operations_manager_email, addresses.additional_email_1]

      // NATS goes down while a run publishes; once it is back everything arrives, once.
      const late = await holds('Lou Late', 29)
      const since = new Date().toISOString()
      await stopNats(nats)
      expect((await api(base, admin, 'POST', '/certification-notifications/trigger/daily')).status).toBe(200)
      await sleep(1000)
      nats = await startNats()
      await eventually(async () => (await mailsTo(base, late.email, since)).length > 0, 30_000)
      await sleep(1000)
      expect(await mailsTo(base, late.email, since)).toHaveLength(1)
      expect((await mailsTo(base, late.email, since))[0]!.subject).toBe('Your Arc Flash Safety certification expires in 29 days')
      expect(await mailCount(base, [late.email, ...ours], since)).toBe(1)

      // The portal stops in the middle of a run; started again on the same data, a run sends the rest, nothing twice.
      const batch = await Promise.all(['Ann', 'Ben', 'Cid'].map((n) => holds(`${n} Batch`, 20)))
      const batchSince = new Date().toISOString()
      const stopped = api(base, admin, 'POST', '/certification-notifications/trigger/daily').catch(() => null)
      await portal.stop()
      await stopped
      portal = await startOwnPortal()
      base = portal.baseURL
      const again = (await apiLogIn(base, 'admin@example.com', 'Admin123!')).auth
      expect((await api(base, again, 'POST', '/certification-notifications/trigger/daily')).status).toBe(200)
      await eventually(async () => (await Promise.all(batch.map((b) => mailsTo(base, b.email, batchSince)))).every((m) => m.length > 0), 20_000)
      await sleep(1000)
      for (const b of batch) expect(await mailsTo(base, b.email, batchSince)).toHaveLength(1)
      expect(
        (await mailCount(base, [late.email, ...ours], since)) +
          (await mailCount(
            base,
            batch.map((b) => b.email),
            batchSince,
          )),
      ).toBe(4)
    }, 420_000)
  })
})
