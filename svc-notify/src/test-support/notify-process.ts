// svc-notify in a process of its own, for the tests that kill it (SIGKILL) mid-send: `start()` as
// server.ts runs it, but on the test's database, its own NATS stream and subject namespace (the
// server entry would use the shared PORTAL_EVENTS stream) and the test's sender and digest tuning. Its
// configuration comes as JSON in NOTIFY_PROCESS; it prints `ready` once it listens.
import { PlatformEnv, closeOnSignal, createLogger, createNatsBus } from '@portal/server-kit'
import type { SenderOptions } from '../deliveries/index.ts'
import { start, type NotifyOptions } from '../server.ts'

const config = JSON.parse(process.env.NOTIFY_PROCESS ?? '{}') as {
  databaseUrl: string
  natsUrl: string
  stream: string
  subjectPrefix: string
  smtpUrl: string
  dataDir: string
  sender?: Partial<SenderOptions>
  digest?: NotifyOptions['digest']
}
const logger = createLogger('notify', (process.env.LOG_LEVEL as 'warn' | undefined) ?? 'warn')
const bus = await createNatsBus({
  url: config.natsUrl,
  stream: config.stream,
  subjects: ['identity.>', 'learning.>', 'certs.>', 'notify.>'],
  subjectPrefix: config.subjectPrefix,
  logger,
  nakDelayMs: 100,
})
const env = PlatformEnv.parse({ SMTP_URL: config.smtpUrl, MAIL_FROM: 'Learning Portal <no-reply@portal.test>', DATA_DIR: config.dataDir, NODE_ENV: 'test' })
const service = await start({ env, logger, bus, port: 0, hostname: '127.0.0.1', jwks: { keys: [] }, databaseUrl: config.databaseUrl, sender: config.sender, digest: config.digest })
process.stdout.write('ready\n')
closeOnSignal(
  logger,
  () => service.close(),
  () => bus.close(),
)
