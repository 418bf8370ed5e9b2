import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import pg from 'pg'
import { jetstreamManager } from '@nats-io/jetstream'
import { addDays, todayIn, type EventEnvelope } from '@portal/contracts'
import { createNatsBus } from '@portal/server-kit'
import { TEST_NATS_URL, createTestDatabase, silentLogger, uniqueName } from '@portal/server-kit/testing'
import { eventually, startSmtpReceiver } from '../test-support/index.ts'
import { digestKey } from './digest.ts'
import { deliveryId } from '../deliveries/index.ts'

// svc-notify as a process of its own (test-support/notify-process.ts), killed with SIGKILL after
// its digest sender queued a learner's training-due digest and while the delivery sender is in the
// middle of sending it (the SMTP receiver holds the MAIL FROM, so nothing has been kept yet), then
// started again: the digest is not built a second time and the learner gets it once.

const SUBJECTS = ['identity.>', 'learning.>', 'certs.>', 'notify.>']
const TZ = 'America/Los_Angeles'
const childScript = fileURLToPath(new URL('../test-support/notify-process.ts', import.meta.url))
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const cleanups: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined)
})

describe('svc-notify killed with SIGKILL between queueing a training-due digest and sending it (PostgreSQL, NATS, SMTP)', () => {
  it('sends the digest once after the restart, and builds no second one', async () => {
    const run = Date.now().toString(36)
    const learner = { userId: crypto.randomUUID(), name: 'Ada Lovelace', email: `ada.${run}@acme.test` }
    let child: ChildProcess | undefined
    let sending!: () => void
    const inSend = new Promise<void>((r) => (sending = r))
    let holds = 0
    let release!: () => void
    const released = new Promise<void>((r) => (release = r))
    cleanups.push(async () => release())
    const smtp = await startSmtpReceiver({
      // The first send of the digest waits here until the test killed the sender.
      async beforeMailFrom() {
        if (holds++ > 0) return
        sending()
        await released
        throw new Error('sender gone')
      },
    })
    cleanups.push(() => smtp.close())
    const testDb = await createTestDatabase('notify_digest_kill')
    cleanups.push(() => testDb.drop())
    const dataDir = await mkdtemp(join(tmpdir(), 'notify-digest-kill-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    const stream = uniqueName('ND')
    const subjectPrefix = `${uniqueName('nd').toLowerCase()}.`
    const bus = await createNatsBus({ url: TEST_NATS_URL, stream, subjects: SUBJECTS, subjectPrefix, logger: silentLogger })
    cleanups.push(async () => {
      const jsm = await jetstreamManager(bus.connection)
      await jsm.streams.delete(stream).catch(() => undefined)
      await bus.close()
    })

    // Identity's user and three reminder steps of today, as learning's scan raises them.
    const envelope = (type: string, data: unknown): EventEnvelope => ({ id: crypto.randomUUID(), type, occurredAt: new Date().toISOString(), data })
    await bus.publish(
      envelope('identity.user.registered.v1', {
        ...learner,
        isAdmin: false,
        isManager: false,
        managerScope: { branches: [], departments: [] },
        branch: 'Seattle',
        department: 'Service',
        userGroup: null,
      }),
    )
    const today = todayIn(TZ)
    for (const [i, title] of ['Confined Spaces', 'Fall Protection', 'First Aid'].entries())
      await bus.publish(
        envelope('learning.assignment.due-soon.v1', {
          ruleId: i + 1,
          userId: learner.userId,
          itemKind: 'course',
          itemId: 10 + i,
          itemTitle: title,
          dueOn: addDays(today, 3 + i),
          on: today,
          stage: 'before',
          daysLeft: 3 + i,
        }),
      )

    const config = JSON.stringify({
      databaseUrl: testDb.url,
      natsUrl: TEST_NATS_URL,
      stream,
      subjectPrefix,
      smtpUrl: smtp.url,
      dataDir,
      sender: { leaseMs: 1_500, intervalMs: 100, retryBaseMs: 50 },
      digest: { settleMs: 1_500, intervalMs: 100, timeZone: TZ },
    })
    const startChild = async () => {
      const c = spawn(process.execPath, [childScript], { env: { ...process.env, NOTIFY_PROCESS: config, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'inherit'] })
      child = c
      await new Promise<void>((resolve, reject) => {
        let out = ''
        c.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString()
          if (out.includes('ready\n')) resolve()
        })
        c.once('exit', (code, signal) => reject(new Error(`svc-notify exited before it was ready (${code ?? signal})`)))
      })
    }
    cleanups.push(async () => {
      if (child && child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child!.once('exit', r))
        child.kill('SIGTERM')
        await Promise.race([exited, sleep(5_000).then(() => child!.kill('SIGKILL'))])
      }
    })
    const db = new pg.Client({ connectionString: testDb.url })
    await db.connect()
    cleanups.push(() => db.end())
    const rows = async (query: string, params: unknown[] = []) => (await db.query(query, params)).rows as Record<string, unknown>[]

    await startChild()
    await Promise.race([inSend, sleep(60_000).then(() => Promise.reject(new Error('the digest was never sent')))])
    // Queued and handed to the transport, not delivered: the kill falls between the queue and the send.
    const id = deliveryId(digestKey(learner.email, today), learner.email)
    expect(await rows('select status, sending_since is not null as in_flight from email_deliveries')).toEqual([{ status: 'pending', in_flight: true }])
    expect(await rows('select id::text from email_deliveries')).toEqual([{ id }])
    expect(await rows("select count(*)::int as n from assignment_reminders where status = 'sent'")).toEqual([{ n: 3 }])
    const exited = new Promise<void>((r) => child!.once('exit', () => r()))
    child!.kill('SIGKILL')
    await exited
    release()
    expect(smtp.received).toHaveLength(0)

    await startChild()
    await eventually(async () => (await rows("select 1 from email_deliveries where status = 'sent'")).length === 1, 60_000)
    await sleep(1_000) // a second digest or copy would arrive now
    expect(smtp.to(learner.email)).toHaveLength(1)
    const [mail] = smtp.to(learner.email)
    expect(mail!.subject).toBe('Training due: 3 items')
    expect(mail!.messageId).toBe(`<${id}@portal.test>`)
    for (const title of ['Confined Spaces', 'Fall Protection', 'First Aid']) expect(mail!.text).toContain(title)
    expect(await rows('select count(*)::int as n from email_deliveries')).toEqual([{ n: 1 }])
    expect(await rows('select day::text, items from assignment_digests')).toEqual([{ day: today, items: 3 }])
  }, 180_000)
})
