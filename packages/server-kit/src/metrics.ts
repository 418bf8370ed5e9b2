import { AsyncLocalStorage } from 'node:async_hooks'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from 'prom-client'
import type { Subscription } from './bus.ts'

/**
 * A service's Prometheus metrics: one prom-client registry per service instance (tests make many
 * apps in one process, so nothing goes to prom-client's global registry), every series labelled
 * with the service's name.
 */
export interface Metrics {
  readonly service: string
  readonly registry: Registry
  /** Records one HTTP request: `route` is the matched pattern (`/items/:id`), never the raw path. */
  observe(method: string, route: string, status: number, ms: number): void
  /** The exposition text of every metric, collected now (gauges query what they report). */
  render(): Promise<string>
  /** Content type of `render()`'s text. */
  readonly contentType: string
  /**
   * Adds prom-client's process metrics (CPU, memory, event-loop lag, GC, handles), once per
   * registry: only where a real process serves (they keep a monitor running), not in route tests.
   */
  collectProcessMetrics(): void
}

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** Makes the metrics of `service` on a registry of their own. */
export function createMetrics(service: string): Metrics {
  const registry = new Registry()
  registry.setDefaultLabels({ service })
  const requests = httpMetrics(registry)
  let processMetrics = false
  return {
    service,
    registry,
    observe(method, route, status, ms) {
      requests.observe({ method, route, status: String(status) }, ms / 1000)
    },
    render: () => registry.metrics(),
    contentType: registry.contentType,
    collectProcessMetrics() {
      if (processMetrics) return
      processMetrics = true
      collectDefaultMetrics({ register: registry })
    },
  }
}

/**
 * The metric `name` of `registry`, made by `make` the first time: a metric is registered once per
 * registry even when the code that feeds it is built several times (e.g. two background tasks).
 */
export function metricOf<M extends Metric>(registry: Registry, name: string, make: (registers: Registry[]) => M): M {
  return (registry.getSingleMetric(name) as M | undefined) ?? make([registry])
}

/** Request durations per method, matched route and status (`http_request_duration_seconds`). */
export const httpMetrics = (registry: Registry) =>
  metricOf(
    registry,
    'http_request_duration_seconds',
    (registers) =>
      new Histogram({
        name: 'http_request_duration_seconds',
        help: 'HTTP request duration by method, matched route pattern and status.',
        labelNames: ['method', 'route', 'status'] as const,
        buckets: HTTP_BUCKETS,
        registers,
      }),
  )

/**
 * Runs of background work (`createBackgroundTask`) by task (its name) and outcome, and how long they
 * took. Labelled `task`, not `job`: Prometheus puts its own `job` label on every series it scrapes.
 */
export const jobMetrics = (registry: Registry) => ({
  runs: metricOf(
    registry,
    'background_job_runs_total',
    (registers) =>
      new Counter({
        name: 'background_job_runs_total',
        help: 'Passes of background work (relays, senders, scans, sweeps) by task and outcome (ok, failed, skipped: the lease is held elsewhere).',
        labelNames: ['task', 'outcome'] as const,
        registers,
      }),
  ),
  duration: metricOf(
    registry,
    'background_job_duration_seconds',
    (registers) =>
      new Histogram({
        name: 'background_job_duration_seconds',
        help: 'Duration of one pass of background work by task and outcome.',
        labelNames: ['task', 'outcome'] as const,
        buckets: [0.001, 0.005, 0.025, 0.1, 0.5, 1, 5, 30, 120, 600],
        registers,
      }),
  ),
})

/**
 * Gauges whose values are read at scrape time: `read()` runs once per scrape for all of them (the
 * gauges' collects share it). A failed read does not fail the whole `/metrics`: the gauges say NaN
 * (unknown, not 0) or, when labelled, have no series in that scrape.
 */
export function scrapedGauges<K extends string, L extends string = never>(
  registry: Registry,
  defs: Record<K, { name: string; help: string }>,
  read: () => Promise<{ labels?: Partial<Record<L, string>>; values: Record<K, number> }[]>,
  labelNames: readonly L[] = [],
): void {
  let reading: Promise<Awaited<ReturnType<typeof read>> | null> | null = null
  const readOnce = () => {
    reading ??= read()
      .catch(() => null)
      .finally(() => setImmediate(() => (reading = null)))
    return reading
  }
  for (const key of Object.keys(defs) as K[]) {
    const { name, help } = defs[key]
    if (registry.getSingleMetric(name)) continue
    new Gauge({
      name,
      help,
      labelNames: labelNames as L[],
      registers: [registry],
      async collect() {
        this.reset()
        const rows = await readOnce()
        if (!rows && labelNames.length === 0) this.set(NaN)
        for (const row of rows ?? []) this.set(row.labels ?? {}, row.values[key])
      },
    })
  }
}

/** SCORM runtime commits by result (`ok`, `rejected`, `error`) and their latency (`scorm_commit_duration_seconds`). */
export const scormCommitMetrics = (registry: Registry) =>
  metricOf(
    registry,
    'scorm_commit_duration_seconds',
    (registers) =>
      new Histogram({
        name: 'scorm_commit_duration_seconds',
        help: 'SCORM runtime commits (LMSCommit/Commit of CMI data) by result, and how long each took.',
        labelNames: ['result'] as const,
        buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
        registers,
      }),
  )

/** What a mail sender has done since its process started (read at scrape time). */
export interface MailSenderFigures {
  sent: number
  /** Attempts that failed and will be retried. */
  retried: number
  /** Mails given up (rejected, or out of attempts). */
  givenUp: number
  /** Mails sent again without knowing whether their interrupted attempt had been accepted. */
  unknownOutcomeResends: number
  /** Interrupted attempts the transport said it had accepted: marked sent, not sent again. */
  foundAccepted: number
}

/** svc-learning's statements queued for the outside LRS (`read` from its table at scrape time). */
export function xapiQueueMetrics(registry: Registry, read: () => Promise<{ waiting: number; oldestAgeSeconds: number }>): void {
  scrapedGauges(
    registry,
    {
      waiting: { name: 'xapi_statements_waiting', help: 'xAPI statements queued for the outside LRS and not yet accepted by it.' },
      oldestAgeSeconds: { name: 'xapi_statements_oldest_waiting_age_seconds', help: 'Seconds the oldest queued xAPI statement has waited (0 when none).' },
    },
    async () => [{ values: await read() }],
  )
}

/**
 * svc-notify's mail metrics: the queue (pending mails, age of the oldest) read from its table at
 * scrape time, and the sender's counts since start.
 */
export function mailMetrics(registry: Registry, source: { queue: () => Promise<{ pending: number; oldestAgeSeconds: number }>; sender: () => MailSenderFigures }): void {
  scrapedGauges(
    registry,
    {
      pending: { name: 'mail_queue_pending', help: 'E-mails waiting to be sent (pending deliveries, including those waiting for a retry).' },
      oldestAgeSeconds: { name: 'mail_queue_oldest_pending_age_seconds', help: 'Age of the oldest pending e-mail (0 when none).' },
    },
    async () => [{ values: await source.queue() }],
  )
  const counted = (name: string, help: string, value: (f: MailSenderFigures) => number) =>
    metricOf(
      registry,
      name,
      (registers) =>
        new Counter({
          name,
          help,
          registers,
          collect() {
            this.reset()
            this.inc(value(source.sender()))
          },
        }),
    )
  counted('mail_sent_total', 'E-mails handed to the transport and accepted, since the process started.', (f) => f.sent)
  metricOf(
    registry,
    'mail_send_failures_total',
    (registers) =>
      new Counter({
        name: 'mail_send_failures_total',
        help: 'Failed e-mail attempts since the process started, by outcome (retry: tried again later; given_up: the delivery failed for good).',
        labelNames: ['outcome'] as const,
        registers,
        collect() {
          this.reset()
          const f = source.sender()
          this.inc({ outcome: 'retry' }, f.retried)
          this.inc({ outcome: 'given_up' }, f.givenUp)
        },
      }),
  )
  counted(
    'notify_email_unknown_outcome_resends_total',
    'E-mails sent again after an attempt interrupted before its outcome was recorded (may arrive twice, same Message-ID).',
    (f) => f.unknownOutcomeResends,
  )
  counted('notify_email_interrupted_found_accepted_total', 'Interrupted attempts the transport said it had accepted (marked sent, not sent again).', (f) => f.foundAccepted)
}

const scope = new AsyncLocalStorage<Metrics>()

/**
 * Runs `fn` with `metrics` as the metrics of the service being built: service apps
 * (`createServiceApp`) and background tasks made inside it, at once or later (requests, consumers),
 * record there unless given others. `defineService` runs a service's start in it, so features need
 * not hand the registry down.
 */
export const withServiceMetrics = <T>(metrics: Metrics, fn: () => T): T => scope.run(metrics, fn)

/** The metrics of the service being built (see `withServiceMetrics`), if any. */
export const serviceMetrics = (): Metrics | undefined => scope.getStore()

/**
 * The backlog of a service's durable consumers, asked of the broker at scrape time:
 * `nats_consumer_pending_messages` (not yet delivered) and `nats_consumer_ack_pending_messages`
 * (delivered, not yet acknowledged) per consumer and subject.
 */
export function consumerLagMetrics(registry: Registry, subscriptions: () => readonly Pick<Subscription, 'lag'>[]): void {
  scrapedGauges(
    registry,
    {
      pending: { name: 'nats_consumer_pending_messages', help: 'Messages of a durable JetStream consumer not yet delivered to it (its lag).' },
      ackPending: { name: 'nats_consumer_ack_pending_messages', help: 'Messages delivered to a durable JetStream consumer and not yet acknowledged.' },
    },
    async () => {
      // A consumer the broker cannot answer for (stopping, reconnecting) is left out of this scrape.
      const lags = await Promise.all(subscriptions().map((s) => s.lag?.().catch(() => []) ?? Promise.resolve([])))
      return lags.flat().map((l) => ({ labels: { consumer: l.consumer, subject: l.subject }, values: { pending: l.pending, ackPending: l.ackPending } }))
    },
    ['consumer', 'subject'],
  )
}
