import type { MikroORM } from '@mikro-orm/postgresql'
import { createBackgroundTask, type Logger, type ServiceJob } from '@portal/server-kit'
import { rollForwardOpenedCycles } from '../assignments/index.ts'
import { scanRepository, type ScanCounts } from './scan.repository.ts'

/** How often the scan runs by default (ASSIGNMENT_SCAN_INTERVAL_MS): often is harmless, the ledger makes it idempotent. */
export const DEFAULT_SCAN_INTERVAL_MS = 15 * 60_000

/** Learners and items rolled forward per transaction of the scan (each holds a lock per learner and item). */
export const RETAKE_BATCH = 500

/** What one run of the scan did; `ran` is false when another instance held the scan. */
export interface ScanRun extends ScanCounts {
  today: string
  ran: boolean
  /** Rows of recurring rules rolled forward to the next cycle that opened (their learners given a fresh start). */
  rolled: number
}

export interface DueDateScanDeps {
  orm: MikroORM
  logger: Logger
  /** The company's calendar day now (`todayIn(COMPANY_TIME_ZONE)`). */
  today: () => string
  /** Asks the outbox relay to publish now (the scan's events are written by SQL). */
  kick?: () => void
  /** The clock (the service's); default the system's. */
  now?: () => Date
}

/**
 * The daily due-date scan (issue 24): first rolls every recurring row whose next cycle opened
 * forward, giving its learner a fresh go at the item (`rollForwardOpenedCycles`), then records and
 * announces every reminder step reached today, once per person, rule, due date and stage. One
 * instance at a time runs it (a transaction-scoped advisory lock: another instance skips the run).
 * Rows roll forward in transactions of `RETAKE_BATCH` learners and items, each under the lock; the
 * reminders are recorded in the last one. A run that finds nothing opened and every step recorded
 * already changes and announces nothing, so it may run as often as wanted.
 */
export function createDueDateScan(deps: DueDateScanDeps) {
  const now = deps.now ?? (() => new Date())
  return {
    async runDueDateScan(today: string = deps.today()): Promise<ScanRun> {
      let rolled = 0
      let run: ScanRun | null = null
      while (run === null) {
        run = await deps.orm.em.fork().transactional(async (em): Promise<ScanRun | null> => {
          if (!(await scanRepository.tryLock(em))) return { today, ran: rolled > 0, rolled, scanned: 0, emitted: 0, stages: {} }
          const batch = await rollForwardOpenedCycles(em, { today, at: now(), limit: RETAKE_BATCH })
          rolled += batch.rolled
          // A full batch that moved something: the rest in the next transaction (its locks released meanwhile).
          if (batch.pairs === RETAKE_BATCH && batch.rolled > 0) return null
          return { today, ran: true, rolled, ...(await scanRepository.scan(em, today)) }
        })
      }
      if (run.ran) deps.logger.info('assignment due-date scan', { today, rolled: run.rolled, scanned: run.scanned, emitted: run.emitted, stages: run.stages })
      else deps.logger.debug('assignment due-date scan skipped: another instance runs it', { today })
      if (run.emitted > 0 || run.rolled > 0) deps.kick?.()
      return run
    },
  }
}
export type DueDateScan = ReturnType<typeof createDueDateScan>

/** Runs the scan at start and then every `intervalMs`, as a service job. */
export function dueDateScanJob(scan: DueDateScan, opts: { logger: Logger; intervalMs?: number }): ServiceJob {
  const task = createBackgroundTask({
    name: 'assignment due-date scan',
    logger: opts.logger,
    intervalMs: opts.intervalMs ?? DEFAULT_SCAN_INTERVAL_MS,
    pass: async () => (await scan.runDueDateScan()).emitted,
  })
  return { start: task.start, stop: task.stop }
}
