/**
 * svc-learning for the learner dashboard benchmark: its real `start()` (migrations, ORM, routines,
 * jobs, outbox relay) on the benchmark's database, verifying tokens of the benchmark's own issuer
 * (`BENCH_JWKS`), with an in-process bus and a local file folder. Prints `READY <port>`.
 */
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PlatformEnv, createInProcessBus, createLocalStorage, createLogger } from '@portal/server-kit'
import { start } from 'svc-learning/server'

const env = PlatformEnv.parse({ LOG_LEVEL: 'error', DATA_DIR: await mkdtemp(join(tmpdir(), 'bench-learning-')) })
const logger = createLogger('learning', 'error')
const server = await start({
  env,
  logger,
  bus: createInProcessBus({ logger }),
  port: 0,
  jwks: JSON.parse(process.env.BENCH_JWKS!),
  databaseUrl: process.env.DATABASE_URL!,
  storage: createLocalStorage(join(env.DATA_DIR, 'storage')),
  launchSecret: Buffer.from(new Uint8Array(32).fill(7)).toString('base64url'),
  contentOrigin: 'http://content.bench',
  timeZone: 'UTC',
})
process.stdout.write(`READY ${server.port}\n`)
