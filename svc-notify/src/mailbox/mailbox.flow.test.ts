import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { MailboxMessage, type EventEnvelope } from '@portal/contracts'
import { PlatformEnv, createInProcessBus, type EventBus } from '@portal/server-kit'
import { createTestDatabase, silentLogger } from '@portal/server-kit/testing'
import { start } from '../server.ts'

const verificationEvent = (email: string, code: string): EventEnvelope => ({
  id: crypto.randomUUID(),
  type: 'identity.verification.requested.v1',
  occurredAt: new Date().toISOString(),
  data: { userId: crypto.randomUUID(), name: 'Ada', email, code, expiresAt: new Date(Date.now() + 900_000).toISOString() },
})

const resetEvent = (email: string, resetUrl: string): EventEnvelope => ({
  id: crypto.randomUUID(),
  type: 'identity.password-reset.requested.v1',
  occurredAt: new Date().toISOString(),
  data: { userId: crypto.randomUUID(), name: 'Ada', email, resetUrl, expiresAt: new Date(Date.now() + 3600_000).toISOString() },
})

const Mailbox = z.array(MailboxMessage)

/** The same flow with both databases: the real PostgreSQL, and the embedded PGlite of the single-node mode. */
describe.each([
  ['PostgreSQL', true],
  ['embedded PGlite', false],
])('dev mailbox on the in-process bus (%s)', (_name, realPostgres) => {
  let bus: EventBus
  let service: Awaited<ReturnType<typeof start>>
  let testDb: Awaited<ReturnType<typeof createTestDatabase>> | undefined
  let dataDir: string
  let base: string

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'notify-mailbox-'))
    testDb = realPostgres ? await createTestDatabase('notify_mailbox') : undefined
    bus = createInProcessBus({ logger: silentLogger })
    const env = PlatformEnv.parse({ DATA_DIR: dataDir, NODE_ENV: 'test' })
    service = await start({ env, logger: silentLogger, bus, port: 0, jwks: { keys: [] }, databaseUrl: testDb?.url, sender: { intervalMs: 50 } })
    base = `http://127.0.0.1:${service.port}`
  })
  afterAll(async () => {
    await service?.close()
    await bus?.close()
    await testDb?.drop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('shows the verification and reset e-mails in /dev/mailbox, newest first, once each', async () => {
    const to = `Ada.${Date.now()}@Example.com`
    const first = verificationEvent(to, '111111')
    await bus.publish(first)
    await expect.poll(async () => Mailbox.parse(await (await fetch(`${base}/dev/mailbox?to=${encodeURIComponent(to)}`)).json()).length).toBe(1)
    await bus.publish(verificationEvent(to, '222222'))
    const resetUrl = 'https://portal.example.com/reset-password?token=t0k3n'
    await bus.publish(resetEvent(to, resetUrl))
    // redelivery of an event already handled: no second mail
    await bus.publish(first)
    await bus.publish({ ...first })

    const mailboxOf = async (address: string) => Mailbox.parse(await (await fetch(`${base}/dev/mailbox?to=${encodeURIComponent(address)}`)).json())
    await expect.poll(() => mailboxOf(to.toUpperCase()), { timeout: 10_000 }).toHaveLength(3)
    const list = await mailboxOf(to.toLowerCase())
    expect(list.map((m) => m.subject)).toEqual(['Reset your password', 'Your verification code', 'Your verification code'])
    expect(list[1]!.text).toContain('222222')
    expect(list[2]!.text).toContain('111111')
    expect(list[0]!.html).toContain(`href="${resetUrl}"`)
    expect(list[0]!.to).toBe(to)
    const times = list.map((m) => Date.parse(m.sentAt))
    expect([...times].sort((a, b) => b - a)).toEqual(times)

    // Messages to other people stay out of the filtered list but show in the full one.
    const all = Mailbox.parse(await (await fetch(`${base}/dev/mailbox`)).json())
    expect(all.length).toBeGreaterThanOrEqual(3)
  })

  it('renders the /mailbox page for a person', async () => {
    const res = await fetch(`${base}/mailbox`)
    expect(res.status).toBe(200)
    const page = await res.text()
    expect(page).toContain('Dev mailbox')
    expect(page).toContain('Your verification code')
    expect(page).toContain('<iframe')
  })
})
