/**
 * svc-certs for the team benchmark: its real `start()` (migrations, ORM, token check on the user
 * projection, outbox relay) on the benchmark's database, verifying tokens of the benchmark's own
 * issuer (`BENCH_JWKS`), with an in-process bus and a local proof folder. Prints `READY <port>`.
 */
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PlatformEnv, createInProcessBus, createLocalStorage, createLogger } from '@portal/server-kit'
import { start } from 'svc-certs/server'

const env = PlatformEnv.parse({ LOG_LEVEL: 'error', DATA_DIR: await mkdtemp(join(tmpdir(), 'bench-certs-')) })
const logger = createLogger('certs', 'error')
const server = await start({
  env,
  logger,
  bus: createInProcessBus({ logger }),
  port: 0,
  jwks: JSON.parse(process.env.BENCH_JWKS!),
  databaseUrl: process.env.DATABASE_URL!,
  storage: createLocalStorage(join(env.DATA_DIR, 'storage')),
})
process.stdout.write(`READY ${server.port}\n`)
