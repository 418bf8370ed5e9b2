import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { jetstreamManager } from '@nats-io/jetstream'
import { PlatformEnv, createNatsBus, type KeySource } from '@portal/server-kit'
import { TEST_NATS_URL, createTestDatabase, silentLogger, uniqueName } from '@portal/server-kit/testing'
import { start, type NotifyOptions } from '../server.ts'
import { startSmtpReceiver } from './smtp-receiver.ts'

/**
 * svc-notify as its consumer tests run it: a database of its own, a stream on the shared NATS
 * server in a subject namespace of its own (`prefix`), an SMTP receiver, and a fast sender (and,
 * when given, the test's clock and digest settings).
 * `close()` undoes all of it, also after a start that failed half way.
 */
export async function startNotifyStack(name: string, opts: { env?: Record<string, string>; jwks?: KeySource; clock?: () => Date; digest?: NotifyOptions['digest'] } = {}) {
  const stream = uniqueName('N')
  const prefix = `${uniqueName('n').toLowerCase()}.`
  const parts: {
    smtp?: Awaited<ReturnType<typeof startSmtpReceiver>>
    testDb?: Awaited<ReturnType<typeof createTestDatabase>>
    bus?: Awaited<ReturnType<typeof createNatsBus>>
    service?: Awaited<ReturnType<typeof start>>
    dataDir?: string
  } = {}
  const close = async () => {
    await parts.service?.close()
    if (parts.bus) {
      const jsm = await jetstreamManager(parts.bus.connection)
      await jsm.streams.delete(stream).catch(() => undefined)
      await parts.bus.close()
    }
    await parts.testDb?.drop()
    await parts.smtp?.close()
    if (parts.dataDir) await rm(parts.dataDir, { recursive: true, force: true })
  }
  try {
    const smtp = (parts.smtp = await startSmtpReceiver())
    const testDb = (parts.testDb = await createTestDatabase(name))
    const dataDir = (parts.dataDir = await mkdtemp(join(tmpdir(), `${name}-`)))
    const subjects = ['identity.>', 'learning.>', 'certs.>', 'notify.>']
    const bus = (parts.bus = await createNatsBus({ url: TEST_NATS_URL, stream, subjects, subjectPrefix: prefix, logger: silentLogger, nakDelayMs: 100 }))
    const env = PlatformEnv.parse({ SMTP_URL: smtp.url, MAIL_FROM: 'Learning Portal <no-reply@portal.test>', DATA_DIR: dataDir, NODE_ENV: 'test', ...opts.env })
    const service = (parts.service = await start({
      env,
      logger: silentLogger,
      bus,
      port: 0,
      jwks: opts.jwks ?? { keys: [] },
      databaseUrl: testDb.url,
      sender: { intervalMs: 100, retryBaseMs: 50 },
      clock: opts.clock,
      digest: opts.digest,
    }))
    return { smtp, testDb, bus, service, env, prefix, close }
  } catch (err) {
    await close()
    throw err
  }
}
