import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jetstreamManager } from '@nats-io/jetstream'
import type { EventEnvelope } from '@portal/contracts'
import type { EventBus, Subscription } from './bus.ts'
import { PlatformEnv } from './env.ts'
import { createServiceApp } from './http.ts'
import { createNatsBus } from './nats-bus.ts'
import { createShutdownStack, defineService, startedJob } from './service.ts'
import { StorageGarbageTable } from './storage-garbage.ts'
import { TEST_NATS_URL, createTestDatabase, silentLogger, uniqueName } from './testing.ts'
import { ProjectedUser, UserProjectionTables, createUserProjection } from './user-projection.ts'

// A service made of probes on the machine's PostgreSQL and NATS JetStream: each step of its start
// and shutdown writes what it saw of the others into `log`.
const stream = uniqueName('SVC')
const prefix = `${uniqueName('svc').toLowerCase()}.`
let bus: Awaited<ReturnType<typeof createNatsBus>>
let dataDir: string
const drops: (() => Promise<void>)[] = []

beforeAll(async () => {
  bus = await createNatsBus({ url: TEST_NATS_URL, stream, subjects: ['identity.>'], subjectPrefix: prefix, logger: silentLogger, nakDelayMs: 50 })
  dataDir = await mkdtemp(join(tmpdir(), 'kit-service-'))
})
afterAll(async () => {
  for (const drop of drops) await drop()
  if (bus) {
    const jsm = await jetstreamManager(bus.connection)
    await jsm.streams.delete(stream).catch(() => undefined)
    await bus.close()
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

const env = () => PlatformEnv.parse({ LOG_LEVEL: 'silent', DATA_DIR: dataDir })

async function freshDatabase() {
  const db = await createTestDatabase('kit_service')
  drops.push(db.drop)
  return db.url
}

/** Whether anything answers on the port. */
const serving = async (port: number) => {
  if (!port) return false
  try {
    return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok
  } catch {
    return false
  }
}

/** Whether the service's database connection is open (a query would open a closed one again). */
const dbOpen = (orm: { isConnected(): Promise<boolean> } | undefined) => orm!.isConnected()

/** The probe service; `failConsumer` makes its consumer's subscription fail. */
function probeService(log: string[], opts: { failConsumer?: boolean } = {}) {
  // What the probes look at, filled in as the service comes up.
  const seen: { port: number; orm?: { isConnected(): Promise<boolean> }; jobRunning: boolean; consumerStopped: boolean } = { port: 0, jobRunning: false, consumerStopped: false }
  const service = defineService({
    name: 'kit_probe',
    entities: [ProjectedUser],
    migrations: [
      { name: '0001_users', class: UserProjectionTables },
      { name: '0002_garbage', class: StorageGarbageTable },
    ],
    routines: () => ['create or replace function kit_probe_answer() returns int language sql immutable as $$ select 42 $$'],
    storage: true,
    async features(ctx) {
      seen.orm = ctx.orm
      const [routine] = (await ctx.orm.em.getConnection().execute('select kit_probe_answer() as answer')) as { answer: number }[]
      log.push(`features: routine ${routine!.answer}, storage ${ctx.storage.kind}, garbage ${typeof ctx.garbage.collect}`)
      const users = createUserProjection({ orm: ctx.orm, logger: ctx.logger, consumer: 'kit-probe-users' })
      const app = createServiceApp({ service: 'kit_probe', logger: ctx.logger })
      const job = startedJob(() => {
        seen.jobRunning = true
        log.push('job start')
        return {
          stop: async () => {
            seen.jobRunning = false
            log.push(`job stop: serving ${await serving(seen.port)}, consumer stopped ${seen.consumerStopped}, db ${await dbOpen(seen.orm)}`)
          },
        }
      })
      return {
        app,
        users: {
          subscribe: async (b: EventBus) => {
            log.push(`users subscribe: job running ${seen.jobRunning}`)
            const s = await users.subscribe(b)
            return { stop: async () => (log.push('users stop'), s.stop()) }
          },
          requestBackfill: async () => {
            log.push('users backfill')
            return users.requestBackfill()
          },
        },
        consumers: [
          async (b: EventBus): Promise<Subscription> => {
            if (opts.failConsumer) throw new Error('no such stream')
            log.push('consumer subscribe')
            const s = await b.subscribe('kit-probe-groups', ['identity.group.created.v1'], async () => undefined)
            return {
              stop: async () => {
                log.push(`consumer stop: serving ${await serving(seen.port)}, job running ${seen.jobRunning}`)
                seen.consumerStopped = true
                await s.stop()
              },
            }
          },
        ],
        jobs: [job],
        close: async () => void log.push(`features close: job running ${seen.jobRunning}, db ${await dbOpen(seen.orm)}`),
        serving: () => void log.push('serving'),
        describe: () => ({ probe: true }),
        parts: { users },
      }
    },
  })
  return { service, seen }
}

describe('defineService', () => {
  it('starts database, relay, storage, features, jobs, consumers, projection and server in that order, and closes them in the reverse', async () => {
    const log: string[] = []
    const { service, seen } = probeService(log)
    const requests: EventEnvelope[] = []
    const watcher = await bus.subscribe(uniqueName('watch'), ['identity.users.backfill-requested.v1'], async (e) => void requests.push(e))
    const running = await service.start({ env: env(), logger: silentLogger, bus, jwks: { keys: [] }, databaseUrl: await freshDatabase(), port: 0 })
    seen.port = running.port
    expect(running.port).toBeGreaterThan(0)
    expect(await serving(running.port)).toBe(true)
    expect(log).toEqual([
      'features: routine 42, storage local, garbage function',
      'job start',
      'users subscribe: job running true',
      'consumer subscribe',
      'users backfill',
      'serving',
    ])

    // The relay publishes the projection's request for every user to the bus once the service serves.
    for (let i = 0; i < 100 && requests.length === 0; i++) await new Promise((r) => setTimeout(r, 50))
    expect(requests.map((r) => r.data)).toEqual([{ consumer: 'kit-probe-users' }])
    await watcher.stop()

    // The projection is fed through the bus; the storage is the local folder under DATA_DIR.
    const userId = crypto.randomUUID()
    await bus.publish({
      id: crypto.randomUUID(),
      type: 'identity.user.registered.v1',
      occurredAt: new Date().toISOString(),
      data: {
        userId,
        name: 'Pat',
        email: 'pat@acme.test',
        isAdmin: false,
        isManager: false,
        managerScope: { branches: [], departments: [] },
        branch: null,
        department: null,
        userGroup: null,
      },
    })
    await running.users.waitFor(async (em) => Boolean(await em.findOne(ProjectedUser, { id: userId })), 10_000)
    await running.storage.put('probe/file.txt', Readable.from([Buffer.from('kept')]))
    expect(await readFile(join(dataDir, 'storage', 'kit_probe', 'probe', 'file.txt'), 'utf8')).toBe('kept')

    // Its /metrics, on a registry of its own: requests, the outbox, the relay's passes, its consumers' lag and the process.
    const metrics = await (await fetch(`http://127.0.0.1:${running.port}/metrics`)).text()
    expect(metrics).toMatch(/^http_request_duration_seconds_count\{service="kit_probe",method="GET",route="\/healthz",status="200"\} [1-9]/m)
    expect(metrics).toMatch(/^outbox_unsent_events\{service="kit_probe"\} \d+$/m)
    expect(metrics).toMatch(/^background_job_runs_total\{task="outbox relay",outcome="ok",service="kit_probe"\} [1-9]/m)
    expect(metrics).toMatch(/^nats_consumer_pending_messages\{consumer="kit-probe-groups",subject="identity.group.created.v1",service="kit_probe"\} 0$/m)
    expect(metrics).toMatch(/^process_cpu_seconds_total\{service="kit_probe"\} /m)
    // The same registry the service hands back (for its domain metrics).
    expect(running.metrics.registry.getSingleMetric('outbox_unsent_events')).toBeDefined()

    log.length = 0
    await running.close()
    expect(log).toEqual([
      'consumer stop: serving false, job running true',
      'users stop',
      'job stop: serving false, consumer stopped true, db true',
      'features close: job running false, db true',
    ])
    expect(await dbOpen(running.orm)).toBe(false)
    // Closing again does nothing more.
    await running.close()
    expect(log).toHaveLength(4)
  })

  it('assembles the same parts for route tests: nothing served, no job running, identity not asked for its users', async () => {
    const log: string[] = []
    const { service } = probeService(log)
    const assembled = await service.assemble({ env: env(), logger: silentLogger, bus, jwks: { keys: [] }, databaseUrl: await freshDatabase() })
    expect(assembled.port).toBe(0)
    expect(log).toEqual(['features: routine 42, storage local, garbage function', 'users subscribe: job running false', 'consumer subscribe'])
    expect((await assembled.app.request('/healthz')).status).toBe(200)
    // Its own registry, without the process metrics of a serving service.
    const metrics = await (await assembled.app.request('/metrics')).text()
    expect(metrics).toMatch(/^http_request_duration_seconds_count\{service="kit_probe",method="GET",route="\/healthz",status="200"\} 1$/m)
    expect(metrics).toContain('outbox_unsent_events{service="kit_probe"}')
    expect(metrics).not.toContain('process_cpu_seconds_total')
    expect(await assembled.orm.em.getConnection().execute('select count(*)::int as n from user_projection_backfills')).toEqual([{ n: 0 }])
    log.length = 0
    await assembled.close()
    // The job that never started has nothing to stop.
    expect(log).toEqual(['consumer stop: serving false, job running false', 'users stop', 'features close: job running false, db true'])
  })

  it('undoes what it had started when a step fails, and throws that failure', async () => {
    const log: string[] = []
    const { service, seen } = probeService(log, { failConsumer: true })
    await expect(service.start({ env: env(), logger: silentLogger, bus, jwks: { keys: [] }, databaseUrl: await freshDatabase(), port: 0 })).rejects.toThrow('no such stream')
    expect(log).toEqual([
      'features: routine 42, storage local, garbage function',
      'job start',
      'users subscribe: job running true',
      'users stop',
      'job stop: serving false, consumer stopped false, db true',
      'features close: job running false, db true',
    ])
    expect(await dbOpen(seen.orm)).toBe(false)
  })
})

describe('createShutdownStack', () => {
  it('undoes the steps last first, goes on past a failing one and throws the first failure once all ran', async () => {
    const log: string[] = []
    const stack = createShutdownStack()
    stack.defer(() => void log.push('first'))
    await stack.add({ close: async () => void log.push('second') })
    stack.defer(() => {
      log.push('third')
      throw new Error('third failed')
    })
    stack.defer(() => {
      log.push('fourth')
      throw new Error('fourth failed')
    })
    await expect(stack.close()).rejects.toThrow('fourth failed')
    expect(log).toEqual(['fourth', 'third', 'second', 'first'])
    // Once: a second call answers as the first did, without running the steps again.
    await expect(stack.close()).rejects.toThrow('fourth failed')
    expect(log).toHaveLength(4)
  })
})
