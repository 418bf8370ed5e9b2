import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jetstreamManager } from '@nats-io/jetstream'
import type { EventData } from '@portal/contracts'
import { PlatformEnv, createNatsBus } from '@portal/server-kit'
import { TEST_NATS_URL, createTestDatabase, silentLogger, uniqueName } from '@portal/server-kit/testing'
import { start } from '../server.ts'
import { eventually, startSmtpReceiver } from '../test-support/smtp-receiver.ts'

describe('Send Reminder: svc-notify e-mails certs.reminder.requested.v1 over NATS JetStream and SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>
  let testDb: Awaited<ReturnType<typeof createTestDatabase>>
  let bus: Awaited<ReturnType<typeof createNatsBus>>
  let service: Awaited<ReturnType<typeof start>>
  let dataDir: string
  const stream = uniqueName('R')
  const prefix = `${uniqueName('r').toLowerCase()}.`

  beforeAll(async () => {
    smtp = await startSmtpReceiver()
    testDb = await createTestDatabase('notify_reminder')
    dataDir = await mkdtemp(join(tmpdir(), 'notify-reminder-'))
    bus = await createNatsBus({ url: TEST_NATS_URL, stream, subjects: ['identity.>', 'learning.>', 'certs.>'], subjectPrefix: prefix, logger: silentLogger, nakDelayMs: 100 })
    const env = PlatformEnv.parse({ SMTP_URL: smtp.url, MAIL_FROM: 'Learning Portal <no-reply@portal.test>', DATA_DIR: dataDir, NODE_ENV: 'test', PUBLIC_URL: 'https://portal.example.com/' })
    service = await start({ env, logger: silentLogger, bus, port: 0, jwks: { keys: [] }, databaseUrl: testDb.url, sender: { intervalMs: 100, retryBaseMs: 50 } })
  })

  afterAll(async () => {
    await service?.close()
    if (bus) {
      const jsm = await jetstreamManager(bus.connection)
      await jsm.streams.delete(stream).catch(() => undefined)
      await bus.close()
    }
    await testDb?.drop()
    await smtp?.close()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('e-mails the technician their open requirements with a link to their profile, once', async () => {
    const to = `tech.${Date.now()}@example.com`
    const data: EventData<'certs.reminder.requested.v1'> = {
      userId: crypto.randomUUID(),
      name: 'Terry Tech',
      email: to,
      requestedByName: 'Pat Manager',
      openRequirements: [
        { name: 'First Aid / CPR / AED', code: 'CPR-AED', tierLevel: 0, reason: 'expired', expirationDate: '2026-01-31', trainingLink: null },
        { name: 'Lockout/Tagout Authorized Employee', code: 'LOTO', tierLevel: 1, reason: 'missing', expirationDate: null, trainingLink: null },
      ],
    }
    const event = { id: crypto.randomUUID(), type: 'certs.reminder.requested.v1', occurredAt: new Date().toISOString(), data }
    await bus.publish(event)
    const [mail] = await eventually(() => smtp.to(to).length > 0 && smtp.to(to))
    expect(mail!.subject).toBe('Reminder: certifications to complete')
    expect(mail!.text).toContain('Hello Terry Tech,')
    expect(mail!.text).toContain('- First Aid / CPR / AED (CPR-AED, New Hire): expired on 2026-01-31')
    expect(mail!.text).toContain('- Lockout/Tagout Authorized Employee (LOTO, Tier 1): not on file yet')
    expect(mail!.html).toContain('href="https://portal.example.com/technician/profile"')
    // The relay publishing it again (a crash before it marked it sent) sends nothing more.
    await bus.publish({ ...event })
    await new Promise((r) => setTimeout(r, 800))
    expect(smtp.to(to)).toHaveLength(1)
  })
})
