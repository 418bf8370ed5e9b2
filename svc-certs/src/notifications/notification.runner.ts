import type { MikroORM } from '@mikro-orm/postgresql'
import { Cron } from 'croner'
import { conflict, createBackgroundTask, type Logger } from '@portal/server-kit'
import { CERT_NOTIFICATION_MESSAGES, DEFAULT_COMPANY_TIME_ZONE, todayIn } from '@portal/contracts'
import type { AckSigner } from './acknowledgement.ts'
import { runDailyCheck } from './expiry-check.ts'
import { notificationRepository as repo, type RunKind, type RunOutcome, type RunTrigger } from './notification.repository.ts'
import { runWeeklyReport } from './weekly-report.ts'

export type { RunKind, RunOutcome, RunTrigger } from './notification.repository.ts'

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

  const startRun = (kind: RunKind, trigger: RunTrigger, today: string, at: Date): Promise<number | null> =>
    // A scheduled run already started today goes on if it did not finish (it stopped midway).
    trigger === 'manual' ? repo.startManualRun(orm.em.fork(), kind, today, at) : repo.startScheduledRun(orm.em.fork(), kind, today, at)

  const finishRun = (id: number): Promise<RunOutcome> => repo.finishRun(orm.em.fork(), id, now())

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
  const fire = (kind: RunKind, run: () => Promise<unknown>) => () => void run().catch((err) => logger.error(`scheduled certification ${kind} run failed`, { err: err as Error }))
  if (schedule.enabled) {
    const opts = { timezone: schedule.timeZone, protect: true }
    crons.push(
      new Cron(
        `0 ${schedule.dailyHour} * * *`,
        opts,
        fire('daily', () => daily.run('schedule')),
      ),
    )
    crons.push(
      new Cron(
        `0 ${schedule.weeklyHour} * * ${schedule.weeklyDay}`,
        opts,
        fire('weekly', () => weekly.run('schedule')),
      ),
    )
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
      for (const kind of await repo.unfinishedScheduled(orm.em.fork(), today)) await (kind === 'daily' ? daily : weekly).run('schedule')
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
