import type { MikroORM } from '@mikro-orm/postgresql'
import { Cron } from 'croner'
import { conflict, createBackgroundTask, type Logger } from '@portal/server-kit'
import { CERT_NOTIFICATION_MESSAGES, DEFAULT_COMPANY_TIME_ZONE, todayIn, type TriggerResponse } from '@portal/contracts'
import type { AckSigner } from './acknowledgement.ts'
import { runDailyCheck } from './expiry-check.ts'
import { runWeeklyReport } from './weekly-report.ts'

export type RunKind = 'daily' | 'weekly'
export type RunTrigger = 'schedule' | 'manual'
export type RunOutcome = TriggerResponse['run']

/** When the scheduled runs happen (svc-certs' CERT_NOTIFY_* variables). */
export interface NotificationSchedule {
  enabled: boolean
  /** Hour of the daily check, 0-23, in `timeZone`. */
  dailyHour: number
  /** Day (0 Sunday - 6 Saturday) and hour of the weekly report. */
  weeklyDay: number
  weeklyHour: number
  /** IANA time zone of the hours: the company's (COMPANY_TIME_ZONE), whose date is "today" everywhere. */
  timeZone: string
}

export const DEFAULT_SCHEDULE: NotificationSchedule = { enabled: true, dailyHour: 6, weeklyDay: 1, weeklyHour: 7, timeZone: DEFAULT_COMPANY_TIME_ZONE }


export interface RunnerDeps {
  orm: MikroORM
  logger: Logger
  now: () => Date
  base: string
  signer: AckSigner
  schedule: NotificationSchedule
  /** How long a run's lease lasts without renewal (a crashed instance's run is taken over after it). */
  leaseMs?: number
  batchSize?: number
  /** Tests stop a daily run after a batch. */
  afterBatch?: (batch: number) => Promise<void> | void
}

/**
 * Runs the daily check and the weekly report on their cron schedule and on demand, once across
 * instances (decision 0026): each run holds a PostgreSQL lease of the kit's background tasks, an
 * instance that finds it held skips (a manual trigger then answers 409), and a scheduled run is
 * recorded once per day, so instances whose schedules fire together do not run it twice; one that
 * stopped midway is resumed by the next start or trigger.
 */
export function createNotificationRunner(deps: RunnerDeps) {
  const { orm, logger, now, schedule } = deps

  const startRun = async (kind: RunKind, trigger: RunTrigger, today: string, at: Date): Promise<number | null> => {
    const conn = orm.em.getConnection()
    if (trigger === 'manual') {
      const rows = (await conn.execute(
        "insert into notification_runs (kind, trigger, run_date, started_at) values (?, 'manual', ?, ?) returning id",
        [kind, today, at],
      )) as { id: number }[]
      return rows[0]!.id
    }
    const rows = (await conn.execute(
      `insert into notification_runs (kind, trigger, run_date, started_at) values (?, 'schedule', ?, ?)
       on conflict (kind, run_date) where trigger = 'schedule' do nothing returning id`,
      [kind, today, at],
    )) as { id: number }[]
    if (rows[0]) return rows[0].id
    // Already started today: go on with it if it did not finish (it stopped midway).
    const open = (await conn.execute(
      "select id from notification_runs where kind = ? and run_date = ? and trigger = 'schedule' and finished_at is null",
      [kind, today],
    )) as { id: number }[]
    return open[0]?.id ?? null
  }

  const finishRun = async (id: number): Promise<RunOutcome> => {
    const rows = (await orm.em.getConnection().execute(
      'update notification_runs set finished_at = ? where id = ? returning id, kind, started_at, finished_at, published, paused',
      [now(), id],
    )) as { id: number; kind: RunKind; started_at: Date; finished_at: Date; published: number; paused: number }[]
    const r = rows[0]!
    return { id: r.id, kind: r.kind, started_at: new Date(r.started_at).toISOString(), finished_at: new Date(r.finished_at).toISOString(), published: r.published, paused: r.paused }
  }

  const execute = async (kind: RunKind, trigger: RunTrigger, stopping: () => boolean): Promise<RunOutcome | 'skipped'> => {
    const at = now()
    const today = todayIn(schedule.timeZone, at)
    const runId = await startRun(kind, trigger, today, at)
    if (runId === null) return 'skipped'
    if (kind === 'daily') {
      await deps.signer.prepare()
      const links = { base: deps.base, acknowledgeUrl: async (id: string) => `${deps.base}/api/certification-notifications/acknowledge?token=${await deps.signer.sign(id, at)}` }
      await runDailyCheck({ orm, today, at, runId, links, stopping, batchSize: deps.batchSize, afterBatch: deps.afterBatch })
      if (stopping()) throw new Error('stopped before the end of the daily check')
    } else {
      await runWeeklyReport({ orm, today, at, runId, base: deps.base, period: trigger === 'schedule' ? 'week' : 'run' })
    }
    const outcome = await finishRun(runId)
    logger.info(`certification ${kind} notifications run`, { trigger, runId, published: outcome.published, paused: outcome.paused })
    return outcome
  }

  const job = (kind: RunKind) => {
    type PassOutcome = { outcome: RunOutcome | 'skipped' } | { error: unknown }
    let requested: RunTrigger = 'manual'
    let result: PassOutcome | null = null
    const task = createBackgroundTask({
      name: `certs ${kind} notifications`,
      logger,
      lease: { orm, ms: deps.leaseMs ?? 60_000 },
      runAtStart: false,
      async pass({ stopping }) {
        try {
          const outcome = await execute(kind, requested, stopping)
          result = { outcome }
          return outcome === 'skipped' ? 0 : outcome.published
        } catch (error) {
          result = { error }
          throw error
        }
      },
    })
    task.start()
    return {
      task,
      /** Runs now; null when the run was already done today (scheduled) or is under way on another instance. */
      async run(trigger: RunTrigger): Promise<RunOutcome | null> {
        requested = trigger
        result = null
        await task.runNow()
        // Set by the pass (TypeScript cannot see that runNow() ran it).
        const r = result as PassOutcome | null
        if (r === null) return null
        if ('error' in r) throw r.error
        return r.outcome === 'skipped' ? null : r.outcome
      },
    }
  }

  const daily = job('daily')
  const weekly = job('weekly')
  const crons: Cron[] = []
  const fire = (kind: RunKind, run: () => Promise<unknown>) => () =>
    void run().catch((err) => logger.error(`scheduled certification ${kind} run failed`, { err: err as Error }))
  if (schedule.enabled) {
    const opts = { timezone: schedule.timeZone, protect: true }
    crons.push(new Cron(`0 ${schedule.dailyHour} * * *`, opts, fire('daily', () => daily.run('schedule'))))
    crons.push(new Cron(`0 ${schedule.weeklyHour} * * ${schedule.weeklyDay}`, opts, fire('weekly', () => weekly.run('schedule'))))
  }

  return {
    /** POST trigger/daily and trigger/weekly: the outcome, or 409 while the run is under way elsewhere. */
    async trigger(kind: RunKind): Promise<RunOutcome> {
      const outcome = await (kind === 'daily' ? daily : weekly).run('manual')
      if (!outcome) throw conflict(CERT_NOTIFICATION_MESSAGES.runInProgress, 'run_in_progress')
      return outcome
    },
    /** The scheduled run (what the cron calls): null when today's already happened (here or on another instance). */
    scheduled: (kind: RunKind) => (kind === 'daily' ? daily : weekly).run('schedule'),
    /** A scheduled run of today that stopped midway (the process died) goes on at start. */
    async resumeUnfinished(): Promise<void> {
      const today = todayIn(schedule.timeZone, now())
      const open = (await orm.em.getConnection().execute(
        "select kind from notification_runs where trigger = 'schedule' and run_date = ? and finished_at is null",
        [today],
      )) as { kind: RunKind }[]
      for (const { kind } of open) await (kind === 'daily' ? daily : weekly).run('schedule')
    },
    /** The next scheduled times (logged at start). */
    nextRuns: () => crons.map((c) => c.nextRun()?.toISOString() ?? null),
    async stop() {
      for (const c of crons) c.stop()
      await Promise.all([daily.task.stop(), weekly.task.stop()])
    },
  }
}
export type NotificationRunner = ReturnType<typeof createNotificationRunner>
