import type { Logger } from '@portal/server-kit'

/**
 * Work a request starts but does not wait for (so its answer takes the same time whatever the
 * work turns out to be). Bounded: `tryRun` refuses when `max` tasks are under way.
 */
export function createBackgroundTasks(logger: Logger, max = 200) {
  const running = new Set<Promise<void>>()
  return {
    /** Starts `task` unless `max` are running; false when refused. Failures are logged. */
    tryRun(name: string, task: () => Promise<void>): boolean {
      if (running.size >= max) return false
      const p: Promise<void> = task()
        .catch((err: unknown) => logger.error('background task failed', { task: name, err: err as Error }))
        .finally(() => running.delete(p))
      running.add(p)
      return true
    },
    /** Resolves once every task started so far has finished (tests, shutdown). */
    async settled(): Promise<void> {
      while (running.size > 0) await Promise.all([...running])
    },
  }
}
export type BackgroundTasks = ReturnType<typeof createBackgroundTasks>
