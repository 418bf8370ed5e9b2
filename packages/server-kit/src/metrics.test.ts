import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { jetstreamManager } from '@nats-io/jetstream'
import { Hono } from 'hono'
import { AppError } from './app-error.ts'
import { BackgroundLeasesTable, createBackgroundTask } from './background.ts'
import { openDatabase, type Database } from './db.ts'
import { createServiceApp, type AppEnv } from './http.ts'
import { consumerLagMetrics, createMetrics, jobMetrics, mailMetrics, scormCommitMetrics, serviceMetrics, withServiceMetrics, xapiQueueMetrics, type Metrics } from './metrics.ts'
import { createNatsBus } from './nats-bus.ts'
import { OutboxMessage, outboxMetrics } from './outbox.ts'
import { TEST_NATS_URL, createTestDatabase, silentLogger, uniqueName } from './testing.ts'

/** The value of one series in `text`: `name{labels}` with the labels in any order. */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!m || m[1] !== name) continue
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]))
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3])
  }
  return undefined
}

const appWith = (metrics?: Metrics) => {
  const app = createServiceApp({ service: 'kit-test', logger: silentLogger, metrics })
  app.route(
    '/',
    new Hono<AppEnv>().get('/items/:id', (c) => {
      if (c.req.param('id') === 'missing') throw new AppError(404, 'not_found', 'No such item')
      return c.json({ id: c.req.param('id') })
    }),
  )
  return app
}

describe('request metrics (prom-client)', () => {
  it('observes each request by method, matched route and status, never the raw path', async () => {
    const app = appWith()
    await app.request('/items/123')
    await app.request('/items/eyJ.token.sig')
    await app.request('/items/missing')
    await app.request('/no/such/route')
    const res = await app.request('/metrics')
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    const text = await res.text()
    const series = { service: 'kit-test', method: 'GET', route: '/items/:id' }
    expect(valueOf(text, 'http_request_duration_seconds_count', { ...series, status: '200' })).toBe(2)
    expect(valueOf(text, 'http_request_duration_seconds_count', { ...series, status: '404' })).toBe(1)
    expect(valueOf(text, 'http_request_duration_seconds_bucket', { ...series, status: '200', le: '+Inf' })).toBe(2)
    expect(text).not.toContain('/items/123')
    expect(text).not.toContain('eyJ')
    expect(text).not.toContain('/no/such/route')
  })

  it('gives every app a registry of its own: two apps in one process count apart', async () => {
    const a = appWith()
    const b = appWith()
    await a.request('/items/1')
    await a.request('/items/2')
    await b.request('/items/3')
    const count = async (app: Hono<AppEnv>) => valueOf(await (await app.request('/metrics')).text(), 'http_request_duration_seconds_count', { route: '/items/:id' })
    expect([await count(a), await count(b)]).toEqual([2, 1])
  })

  it('adds the process metrics only when asked, once per registry, labelled with the service', async () => {
    const metrics = createMetrics('kit-test')
    expect(await metrics.render()).not.toContain('process_cpu_seconds_total')
    metrics.collectProcessMetrics()
    metrics.collectProcessMetrics()
    const text = await metrics.render()
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_p99_seconds'])
      expect(valueOf(text, name, { service: 'kit-test' }), name).toBeGreaterThanOrEqual(0)
    // Another registry in the same process has its own.
    const other = createMetrics('kit-other')
    other.collectProcessMetrics()
    expect(valueOf(await other.render(), 'process_cpu_seconds_total', { service: 'kit-other' })).toBeGreaterThanOrEqual(0)
  })

  it('records apps and background tasks made in a service’s scope in its registry', async () => {
    const metrics = createMetrics('scoped')
    const { app, task } = withServiceMetrics(metrics, () => {
      expect(serviceMetrics()).toBe(metrics)
      return { app: appWith(), task: createBackgroundTask({ name: 'scoped chore', logger: silentLogger, pass: async () => 1 }) }
    })
    expect(serviceMetrics()).toBeUndefined()
    await app.request('/items/1')
    await task.runNow()
    const text = await metrics.render()
    expect(valueOf(text, 'http_request_duration_seconds_count', { service: 'scoped', route: '/items/:id' })).toBe(1)
    expect(valueOf(text, 'background_job_runs_total', { service: 'scoped', task: 'scoped chore', outcome: 'ok' })).toBe(1)
    expect(await (await app.request('/metrics')).text()).toContain('service="scoped"')
  })
})

describe('background job metrics', () => {
  it('counts passes by task and outcome and times them', async () => {
    const metrics = createMetrics('kit-test')
    let failing = false
    const task = createBackgroundTask({
      name: 'daily check',
      logger: silentLogger,
      metrics,
      pass: async () => {
        await new Promise((r) => setTimeout(r, 5))
        if (failing) throw new Error('database down')
        return 1
      },
    })
    await task.runNow()
    await task.runNow()
    failing = true
    await task.runNow()
    const text = await metrics.render()
    expect(valueOf(text, 'background_job_runs_total', { task: 'daily check', outcome: 'ok' })).toBe(2)
    expect(valueOf(text, 'background_job_runs_total', { task: 'daily check', outcome: 'failed' })).toBe(1)
    expect(valueOf(text, 'background_job_duration_seconds_count', { task: 'daily check', outcome: 'ok' })).toBe(2)
    expect(valueOf(text, 'background_job_duration_seconds_sum', { task: 'daily check', outcome: 'ok' })).toBeGreaterThanOrEqual(0.008)
    await task.stop()
  })
})

describe('outbox and lease metrics (PostgreSQL)', () => {
  let testDb: { url: string; drop(): Promise<void> }
  let db: Database
  beforeAll(async () => {
    testDb = await createTestDatabase('server_kit_metrics')
    db = await openDatabase({
      service: 'metrics-test',
      url: testDb.url,
      dataDir: '/tmp',
      entities: [],
      migrations: [{ name: '0001_background_leases', class: BackgroundLeasesTable }],
      logger: silentLogger,
    })
  })
  afterAll(async () => {
    await db?.close()
    await testDb?.drop()
  })
  beforeEach(async () => {
    await db.orm.em.fork().execute('delete from outbox')
  })

  it('reports the unsent events and the age of the oldest at each scrape', async () => {
    const metrics = createMetrics('kit-test')
    outboxMetrics(metrics.registry, db.orm)
    let text = await metrics.render()
    expect([valueOf(text, 'outbox_unsent_events'), valueOf(text, 'outbox_oldest_unsent_age_seconds')]).toEqual([0, 0])
    const event = (minutesAgo: number, sent: boolean) => {
      const at = new Date(Date.now() - minutesAgo * 60_000)
      const id = crypto.randomUUID()
      const payload = { id, type: 'identity.user.deleted.v1', occurredAt: at.toISOString(), data: { userId: crypto.randomUUID() } }
      return { id, type: payload.type, payload, occurredAt: at, sentAt: sent ? new Date() : null, attempts: 0 }
    }
    await db.orm.em.fork().transactional(async (em) => {
      em.create(OutboxMessage, event(10, true))
      em.create(OutboxMessage, event(3, false))
      em.create(OutboxMessage, event(1, false))
    })
    text = await metrics.render()
    expect(valueOf(text, 'outbox_unsent_events', { service: 'kit-test' })).toBe(2)
    const age = valueOf(text, 'outbox_oldest_unsent_age_seconds')!
    expect(age).toBeGreaterThanOrEqual(180)
    expect(age).toBeLessThan(240)
    await db.orm.em.fork().execute('update outbox set sent_at = now()')
    text = await metrics.render()
    expect([valueOf(text, 'outbox_unsent_events'), valueOf(text, 'outbox_oldest_unsent_age_seconds')]).toEqual([0, 0])
  })

  it('says NaN (unknown, not an empty outbox) when the database cannot answer, and serves the rest', async () => {
    const metrics = createMetrics('kit-test')
    const broken = { em: { getConnection: () => ({ execute: () => Promise.reject(new Error('database down')) }) } } as unknown as Database['orm']
    outboxMetrics(metrics.registry, broken)
    metrics.observe('GET', '/x', 200, 1)
    const text = await metrics.render()
    expect(valueOf(text, 'outbox_unsent_events')).toBeNaN()
    expect(valueOf(text, 'outbox_oldest_unsent_age_seconds')).toBeNaN()
    expect(valueOf(text, 'http_request_duration_seconds_count', { route: '/x' })).toBe(1)
  })

  it('counts a pass skipped while another instance holds the task’s lease', async () => {
    const metrics = createMetrics('kit-test')
    const task = createBackgroundTask({ name: 'metrics lease', logger: silentLogger, metrics, lease: { orm: db.orm, ms: 60_000 }, pass: async () => 1 })
    await db.orm.em.fork().execute("insert into background_leases (name, holder, until) values ('metrics lease', 'another', now() + interval '1 minute')")
    expect(await task.runNow()).toBe(0)
    await db.orm.em.fork().execute("delete from background_leases where name = 'metrics lease'")
    expect(await task.runNow()).toBe(1)
    const text = await metrics.render()
    expect(valueOf(text, 'background_job_runs_total', { task: 'metrics lease', outcome: 'skipped' })).toBe(1)
    expect(valueOf(text, 'background_job_runs_total', { task: 'metrics lease', outcome: 'ok' })).toBe(1)
  })
})

describe('NATS consumer lag', () => {
  it('reports what a durable consumer has yet to handle, asked of JetStream at scrape time', async () => {
    const domain =
      'skm' +
      crypto
        .randomUUID()
        .replace(/[^a-f]/g, '')
        .slice(0, 12)
    const stream = uniqueName('SK_METRICS')
    const bus = await createNatsBus({ url: TEST_NATS_URL, stream, subjects: [`${domain}.>`], logger: silentLogger })
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const handled: string[] = []
    const sub = await bus.subscribe('lag-watcher', [`${domain}.>`], async (e) => {
      await gate
      handled.push(e.id)
    })
    const metrics = createMetrics('kit-test')
    consumerLagMetrics(metrics.registry, () => [sub])
    try {
      for (let i = 0; i < 3; i++)
        await bus.publish({ id: crypto.randomUUID(), type: `${domain}.user.deleted.v1`, occurredAt: new Date().toISOString(), data: { userId: crypto.randomUUID() } })
      const labels = { consumer: 'lag-watcher', subject: `${domain}.>` }
      const backlog = async () => {
        const text = await metrics.render()
        return (valueOf(text, 'nats_consumer_pending_messages', labels) ?? 0) + (valueOf(text, 'nats_consumer_ack_pending_messages', labels) ?? 0)
      }
      // The handler holds the first: none of the three is acknowledged yet.
      await vi.waitFor(async () => expect(valueOf(await metrics.render(), 'nats_consumer_ack_pending_messages', labels)).toBeGreaterThan(0), { timeout: 5_000 })
      expect(await backlog()).toBe(3)
      release()
      await vi.waitFor(() => expect(handled).toHaveLength(3), { timeout: 5_000 })
      await vi.waitFor(async () => expect(await backlog()).toBe(0), { timeout: 5_000 })
    } finally {
      release()
      await sub.stop()
      await (await jetstreamManager(bus.connection)).streams.delete(stream)
      await bus.close()
    }
  })
})

describe('the Grafana dashboard (docs/grafana/portal-dashboard.json)', () => {
  const dashboard = JSON.parse(readFileSync(new URL('../../../docs/grafana/portal-dashboard.json', import.meta.url), 'utf8')) as {
    templating: { list: { name: string; type: string; query: unknown }[] }
    panels: { type: string; title: string; datasource?: { uid: string }; targets?: { expr: string }[] }[]
  }
  const PROMQL_WORDS = new Set([
    'sum',
    'max',
    'min',
    'avg',
    'count',
    'rate',
    'irate',
    'increase',
    'histogram_quantile',
    'by',
    'without',
    'on',
    'ignoring',
    'group_left',
    'group_right',
    'and',
    'or',
    'unless',
    'label_values',
  ])

  /** Metric names an expression reads: identifiers outside label matchers, ranges, strings and groupings that are not PromQL's own words. */
  const metricNames = (expr: string) =>
    expr
      .replace(/"(?:[^"\\]|\\.)*"/g, '""')
      .replace(/\{[^}]*\}/g, ' ')
      .replace(/\[[^\]]*\]/g, ' ')
      .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, ' ')
      .replace(/\$\w+/g, ' ')
      .match(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)!
      .filter((w) => !PROMQL_WORDS.has(w))

  /** Every series name the code registers, with a histogram's _bucket, _sum and _count. */
  async function registeredNames(): Promise<Set<string>> {
    const metrics = createMetrics('dashboard-test')
    metrics.collectProcessMetrics()
    jobMetrics(metrics.registry)
    outboxMetrics(metrics.registry, {} as Database['orm'])
    consumerLagMetrics(metrics.registry, () => [])
    mailMetrics(metrics.registry, {
      queue: async () => ({ pending: 0, oldestAgeSeconds: 0 }),
      sender: () => ({ sent: 0, retried: 0, givenUp: 0, unknownOutcomeResends: 0, foundAccepted: 0 }),
    })
    scormCommitMetrics(metrics.registry)
    xapiQueueMetrics(metrics.registry, async () => ({ waiting: 0, oldestAgeSeconds: 0 }))
    const names = new Set<string>()
    for (const m of await metrics.registry.getMetricsAsJSON()) {
      names.add(m.name)
      if (String(m.type) === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(m.name + suffix)
    }
    return names
  }

  it('queries only metrics the code registers, and has a panel for each group the issue asks for', async () => {
    const registered = await registeredNames()
    const targets = dashboard.panels.flatMap((p) => p.targets ?? [])
    expect(targets.length).toBeGreaterThan(10)
    const queried = new Set(targets.flatMap((t) => metricNames(t.expr)))
    for (const name of queried) expect(registered.has(name), `${name} is queried but not registered`).toBe(true)
    for (const name of [
      'http_request_duration_seconds_count',
      'http_request_duration_seconds_bucket',
      'outbox_unsent_events',
      'outbox_oldest_unsent_age_seconds',
      'nats_consumer_pending_messages',
      'mail_queue_pending',
      'mail_send_failures_total',
      'background_job_runs_total',
      'background_job_duration_seconds_bucket',
      'scorm_commit_duration_seconds_count',
      'scorm_commit_duration_seconds_bucket',
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_p99_seconds',
    ])
      expect(queried.has(name), `${name} has no panel`).toBe(true)
  })

  it('reads from a Prometheus data source variable', () => {
    const variable = dashboard.templating.list.find((v) => v.type === 'datasource')
    expect(variable).toMatchObject({ name: 'datasource', query: 'prometheus' })
    for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) expect(panel.datasource?.uid, panel.title).toBe('${datasource}')
  })
})
