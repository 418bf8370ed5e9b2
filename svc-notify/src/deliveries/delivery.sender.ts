import { createBackgroundTask, type Logger } from '@portal/server-kit'
import { MailRejected, type MailTransport } from '../mail/transport.ts'
import type { DeliveryRepository } from './delivery.repository.ts'

export interface SenderOptions {
  /** How often pending deliveries are looked for (besides the kick after a queue). */
  intervalMs: number
  batchSize: number
  /** How long a claimed delivery is reserved for the sender that claimed it. */
  leaseMs: number
  /** First retry delay; doubles per attempt up to `retryMaxMs`. */
  retryBaseMs: number
  retryMaxMs: number
  /** Attempts before a delivery is given up (status failed). */
  maxAttempts: number
}

export const DEFAULT_SENDER_OPTIONS: SenderOptions = {
  intervalMs: 1_000,
  batchSize: 20,
  leaseMs: 120_000,
  retryBaseMs: 2_000,
  retryMaxMs: 15 * 60_000,
  maxAttempts: 12,
}

export interface DeliverySender {
  /** Sends what is due now; resolves with the number sent. */
  flush(): Promise<number>
  /** Asks for a flush soon (after a delivery was queued). */
  kick(): void
  stop(): Promise<void>
}

/** The delay before attempt `attempts + 1`, with jitter so many failures do not retry in step. */
export function retryDelay(attempts: number, opts: Pick<SenderOptions, 'retryBaseMs' | 'retryMaxMs'>): number {
  const base = Math.min(opts.retryMaxMs, opts.retryBaseMs * 2 ** Math.max(0, attempts - 1))
  return Math.round(base * (0.8 + Math.random() * 0.4))
}

/**
 * Sends pending deliveries through the transport and marks each sent after the transport
 * accepted it. A sent delivery is never sent again; a failed attempt is retried with backoff.
 */
export function startDeliverySender(deps: {
  deliveries: DeliveryRepository
  transport: MailTransport
  logger: Logger
  options?: Partial<SenderOptions>
}): DeliverySender {
  const opts = { ...DEFAULT_SENDER_OPTIONS, ...deps.options }
  const { deliveries, transport, logger } = deps
  const task = createBackgroundTask({
    name: 'delivery sender',
    logger,
    intervalMs: opts.intervalMs,
    // Each delivery has its own retry time; the database coming back is noticed on the interval.
    backoff: { baseMs: 0, maxMs: 0 },
    runAtStart: false,
    async pass({ stopping }) {
      const due = await deliveries.claimDue(opts.batchSize, opts.leaseMs)
      let sent = 0
      for (const mail of due) {
        if (stopping()) break
        try {
          await transport.send(mail)
        } catch (err) {
          const permanent = err instanceof MailRejected || mail.attempts >= opts.maxAttempts
          const retryAt = permanent ? null : new Date(Date.now() + retryDelay(mail.attempts, opts))
          logger[permanent ? 'error' : 'warn'](permanent ? 'e-mail given up' : 'e-mail not sent; will retry', {
            deliveryId: mail.id,
            attempts: mail.attempts,
            retryAt,
            err: err as Error,
          })
          await deliveries.markFailed(mail.id, (err as Error).message ?? String(err), retryAt)
          continue
        }
        await deliveries.markSent(mail.id)
        logger.info('e-mail sent', { deliveryId: mail.id, transport: transport.kind })
        sent++
      }
      return { done: sent, more: due.length === opts.batchSize }
    },
    chores: [{ everyMs: 3_600_000, run: () => deliveries.pruneFinished(7) }],
  })
  task.start()

  return { flush: task.runNow, kick: task.kick, stop: task.stop }
}
