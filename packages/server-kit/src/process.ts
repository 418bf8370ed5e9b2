import type { Logger } from './logger.ts'

/**
 * Closes the given resources in order on SIGTERM or SIGINT (once), then exits: 0 when all
 * closed, 1 when one failed.
 */
export function closeOnSignal(logger: Logger | undefined, ...closers: (() => Promise<unknown>)[]): void {
  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger?.info('shutting down', { signal })
    try {
      for (const close of closers) await close()
      process.exit(0)
    } catch (err) {
      logger?.error('shutdown failed', { err: err as Error })
      process.exit(1)
    }
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
}
