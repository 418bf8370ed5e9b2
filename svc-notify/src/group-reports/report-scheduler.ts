import { Cron } from 'croner'
import type { Logger } from '@portal/server-kit'
import type { RuleService } from './rule.service.ts'

/**
 * Runs the scheduled group reports: every minute each instance asks for due reports, and the
 * advisory lock in `runDue` lets one of them send (decision 0029). A run still going is not
 * started twice in one instance.
 */
export function startReportScheduler(deps: { rules: Pick<RuleService, 'runDue'>; logger: Logger; pattern?: string }) {
  const job = new Cron(
    deps.pattern ?? '* * * * *',
    { name: 'group-reports', protect: true, unref: true, timezone: 'UTC', catch: (err) => deps.logger.error('group reports run failed', { err: err as Error }) },
    async () => {
      await deps.rules.runDue()
    },
  )
  return {
    stop: () => job.stop(),
  }
}
