import type { MikroORM } from '@mikro-orm/postgresql'
import { createBackgroundTask, type Logger, type ServiceJob } from '@portal/server-kit'
import { scanRepository, type ScanCounts } from './scan.repository.ts'

/** How often the scan runs by default (ASSIGNMENT_SCAN_INTERVAL_MS): often is harmless, the ledger makes it idempotent. */
export const DEFAULT_SCAN_INTERVAL_MS = 15 * 60_000

/** What one run of the scan did; `ran` is false when another instance held the scan. */
export interface ScanRun extends ScanCounts {
  today: string
  ran: boolean
}

export interface DueDateScanDeps {
  orm: MikroORM
  logger: Logger
  /** The company's calendar day now (`todayIn(COMPANY_TIME_ZONE)`). */
  today: () => string
  /** Asks the outbox relay to publish now (the scan's events are written by SQL). */
  kick?: () => void
}

/**
 * The daily due-date scan (issue 24): records and announces every reminder step reached today, once
 * per person, rule, due date and stage. One instance at a time runs it (a transaction-scoped
 * advisory lock: another instance skips the run), and a run that finds every step recorded already
 * records and announces nothing, so it may run as often as wanted.
 */
export function createDueDateScan(deps: DueDateScanDeps) {
  return {
    async runDueDateScan(today: string = deps.today()): Promise<ScanRun> {
      const run = await deps.orm.em.fork().transactional(async (em): Promise<ScanRun> => {
        if (!(await scanRepository.tryLock(em))) return { today, ran: false, scanned: 0, emitted: 0, stages: {} }
        return { today, ran: true, ...(await scanRepository.scan(em, today)) }
      })
      if (run.ran) deps.logger.info('assignment due-date scan', { today, scanned: run.scanned, emitted: run.emitted, stages: run.stages })
      else deps.logger.debug('assignment due-date scan skipped: another instance runs it', { today })
      if (run.emitted > 0) deps.kick?.()
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
