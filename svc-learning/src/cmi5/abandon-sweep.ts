import { createBackgroundTask, type Logger, type ServiceJob } from '@portal/server-kit'
import type { Cmi5Service } from './cmi5.service.ts'

/** How often sessions past their end are looked for (default one minute). */
export const ABANDON_SWEEP_INTERVAL_MS = 60_000

/**
 * The abandon sweep (cmi5 §9.3.6): sessions past their end (the launch's lifetime) that never sent
 * Terminated get the LMS's Abandoned statement and accept no more statements. Every instance runs
 * it; each session is taken by one (`for update skip locked`), so each is abandoned once.
 */
export function abandonSweepJob(svc: Pick<Cmi5Service, 'abandonExpired'>, opts: { logger: Logger; intervalMs?: number }): ServiceJob {
  const task = createBackgroundTask({
    name: 'cmi5 abandon sweep',
    logger: opts.logger,
    intervalMs: opts.intervalMs ?? ABANDON_SWEEP_INTERVAL_MS,
    pass: () => svc.abandonExpired(),
  })
  return { start: task.start, stop: task.stop }
}
