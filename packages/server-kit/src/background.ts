import { AsyncResource } from 'node:async_hooks'
import type { MikroORM } from '@mikro-orm/postgresql'
import { Migration } from '@mikro-orm/migrations'
import type { Logger } from './logger.ts'
import { jobMetrics, serviceMetrics, type Metrics } from './metrics.ts'

/** The named leases of background work that runs on one instance at a time (a service using `lease` lists it). */
export class BackgroundLeasesTable extends Migration {
  override async up() {
    this.addSql('create table if not exists background_leases (name text primary key, holder text not null, until timestamptz not null)')
  }
}

/** What one pass of background work reports: how much it did, and whether more is waiting now. */
export type PassResult = number | { done: number; more: boolean }

export interface BackgroundTaskOptions {
  /** Name in log lines (and of the lease, when there is one). */
  name: string
  logger: Logger
  /**
   * One pass of the work. `stopping()` turns true once `stop()` was called: a long pass checks it
   * between items. A pass that reports `more` is followed by another at once.
   */
  pass: (ctx: { stopping: () => boolean }) => Promise<PassResult>
  /** A pass on this interval besides the kicks (none: kicks and `runNow()` only). */
  intervalMs?: number
  /**
   * After consecutive failures the interval's passes wait `baseMs · 2^(failures-1)` (at most
   * `maxMs`) before trying again; kicks still try at once (they announce new work). Default:
   * from the interval up to 30 s.
   */
  backoff?: { baseMs: number; maxMs: number }
  /**
   * Work that must run on one instance at a time across processes: each pass first takes the named
   * lease in PostgreSQL (`background_leases`), renews it while running and gives it back after; an
   * instance that finds it held skips the pass. A crashed holder's lease runs out after `ms`.
   */
  lease?: { orm: MikroORM; ms: number }
  /** Whether `start()` runs a pass at once (default true). */
  runAtStart?: boolean
  /** Extra periodic chores of the same task (e.g. pruning old rows), stopped with it. */
  chores?: { everyMs: number; run: () => Promise<unknown> }[]
  /** Where its passes are counted and timed (`background_job_*`); default: the service's (`serviceMetrics`). */
  metrics?: Metrics
}

export interface BackgroundTask {
  /** Starts the interval and (unless `runAtStart` is false) runs a pass at once. Kicks before `start()` do nothing. */
  start(): void
  /** Asks for a pass soon; one under way is followed by one more. */
  kick(): void
  /**
   * Runs a pass now (or joins the one under way, followed by one more) and resolves with what the
   * passes did; 0 once stopped. Failures are logged, not thrown.
   */
  runNow(): Promise<number>
  /** Stops the interval and the chores and waits for the pass in hand. */
  stop(): Promise<void>
}

const done = (r: PassResult) => (typeof r === 'number' ? r : r.done)
const more = (r: PassResult) => typeof r !== 'number' && r.more

/**
 * The one way background work runs in a service (outbox relay, delivery sender, package ingest,
 * storage cleaner, attempt sweeper, scheduled scans): at most one pass at a time per task, kicked
 * by the code that made work or by an interval, backing off while it fails, optionally once
 * across instances (lease), and stopped cleanly.
 */
export function createBackgroundTask(opts: BackgroundTaskOptions): BackgroundTask {
  const backoff = opts.backoff ?? { baseMs: opts.intervalMs ?? 1_000, maxMs: Math.max(opts.intervalMs ?? 1_000, 30_000) }
  const holder = crypto.randomUUID()
  // Passes run in the async context the task was made in (a service's start), not in the caller's:
  // a kick from inside a transaction's commit must not carry that transaction's MikroORM context
  // into the pass (in single-node mode it would even reach another service's handlers).
  const scope = new AsyncResource('background-task')
  let started = false
  let stopped = false
  let again = false
  let running: Promise<number> | null = null
  let failures = 0
  let retryAt = 0
  const timers: NodeJS.Timeout[] = []
  const chores = new Set<Promise<unknown>>()
  const stopping = () => stopped
  const metrics = opts.metrics ?? serviceMetrics()
  const jobs = metrics && jobMetrics(metrics.registry)

  /** One pass, counted and timed by outcome: ok, failed, or skipped (its lease held elsewhere). */
  const timedPass = async (): Promise<PassResult> => {
    const start = performance.now()
    let outcome = 'failed'
    try {
      const result = await withLease(() => opts.pass({ stopping }))
      outcome = result === null ? 'skipped' : 'ok'
      return result ?? 0
    } finally {
      jobs?.runs.inc({ task: opts.name, outcome })
      jobs?.duration.observe({ task: opts.name, outcome }, (performance.now() - start) / 1000)
    }
  }

  /** The pass under the task's lease; null when another instance holds it. */
  const withLease = async (fn: () => Promise<PassResult>): Promise<PassResult | null> => {
    if (!opts.lease) return fn()
    const { orm, ms } = opts.lease
    const conn = orm.em.getConnection()
    const taken = (await conn.execute(
      `insert into background_leases (name, holder, until) values (?, ?, now() + (? * interval '1 millisecond'))
       on conflict (name) do update set holder = excluded.holder, until = excluded.until
       where background_leases.until < now() or background_leases.holder = excluded.holder
       returning holder`,
      [opts.name, holder, ms],
    )) as unknown[]
    if (taken.length === 0) return null
    // The renewal in flight, awaited before the lease is given back: one that landed after the
    // give-back would hold the lease again for `ms` with no pass running.
    let renewing: Promise<unknown> = Promise.resolve()
    const renew = setInterval(
      () => {
        renewing = conn
          .execute(`update background_leases set until = now() + (? * interval '1 millisecond') where name = ? and holder = ?`, [ms, opts.name, holder])
          .catch(() => undefined)
      },
      Math.max(10, Math.floor(ms / 3)),
    )
    renew.unref()
    try {
      return await fn()
    } finally {
      clearInterval(renew)
      await renewing
      await conn.execute('delete from background_leases where name = ? and holder = ?', [opts.name, holder]).catch(() => undefined)
    }
  }

  const runNow = (): Promise<number> => {
    // A late kick after stop() must not touch what may be closed by now.
    if (stopped) return Promise.resolve(0)
    if (running) {
      again = true
      return running
    }
    running = scope.runInAsyncScope(async () => {
      let total = 0
      try {
        do {
          again = false
          const result = await timedPass()
          total += done(result)
          if (more(result)) again = true
        } while (again && !stopped)
        failures = 0
        retryAt = 0
      } catch (err) {
        failures++
        retryAt = Date.now() + Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.min(failures - 1, 30))
        if (failures === 1 || failures % 20 === 0) opts.logger.warn(`${opts.name} failed; will retry`, { failures, err: err as Error })
      } finally {
        running = null
      }
      return total
    })
    return running
  }

  return {
    start() {
      if (started || stopped) return
      started = true
      if (opts.intervalMs !== undefined) {
        const timer = setInterval(() => {
          if (Date.now() >= retryAt) void runNow()
        }, opts.intervalMs)
        timer.unref()
        timers.push(timer)
      }
      for (const chore of opts.chores ?? []) {
        const timer = setInterval(() => {
          const p = chore.run().catch((err: unknown) => opts.logger.warn(`${opts.name}: chore failed`, { err: err as Error }))
          chores.add(p)
          void p.finally(() => chores.delete(p))
        }, chore.everyMs)
        timer.unref()
        timers.push(timer)
      }
      if (opts.runAtStart !== false) void runNow()
    },
    kick() {
      if (started && !stopped) void runNow()
    },
    runNow,
    async stop() {
      stopped = true
      for (const t of timers) clearInterval(t)
      timers.length = 0
      await running
      await Promise.allSettled([...chores])
    },
  }
}
