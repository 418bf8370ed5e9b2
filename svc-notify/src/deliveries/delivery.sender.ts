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
 *
 * Between the server accepting a mail and the mark committing, a crash sends the mail again (with
 * the same Message-ID): that window is kept short. The mark is the next thing done (one round
 * trip); a mark that fails (the database hiccups) is remembered and made before anything else is
 * claimed, so this process never hands an accepted mail to the transport again; and no mail of a
 * claimed batch is sent once half its lease is over, so another instance that claims it after the
 * lease cannot send it too.
 */
export function startDeliverySender(deps: {
  deliveries: DeliveryRepository
  transport: MailTransport
  logger: Logger
  options?: Partial<SenderOptions>
}): DeliverySender {
  const opts = { ...DEFAULT_SENDER_OPTIONS, ...deps.options }
  const { deliveries, transport, logger } = deps
  // Accepted by the mail server, not yet marked sent (the mark failed): marked before anything new is claimed.
  const accepted = new Set<string>()
  const markAccepted = async () => {
    for (const id of accepted) {
      await deliveries.markSent(id)
      accepted.delete(id)
    }
  }
  const task = createBackgroundTask({
    name: 'delivery sender',
    logger,
    intervalMs: opts.intervalMs,
    // Each delivery has its own retry time; the database coming back is noticed on the interval.
    backoff: { baseMs: 0, maxMs: 0 },
    runAtStart: false,
    async pass({ stopping }) {
      await markAccepted()
      const claimedAt = Date.now()
      const due = await deliveries.claimDue(opts.batchSize, opts.leaseMs)
      let sent = 0
      for (const mail of due) {
        if (stopping()) break
        // The rest of the batch waits for its lease to end and is claimed again (by anyone).
        if (Date.now() - claimedAt > opts.leaseMs / 2) break
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
        accepted.add(mail.id)
        await deliveries.markSent(mail.id)
        accepted.delete(mail.id)
        logger.info('e-mail sent', { deliveryId: mail.id, transport: transport.kind })
        sent++
      }
      return { done: sent, more: due.length === opts.batchSize }
    },
    chores: [{ everyMs: 3_600_000, run: () => deliveries.pruneFinished(7) }],
  })
  task.start()

  return {
    flush: task.runNow,
    kick: task.kick,
    async stop() {
      await task.stop()
      await markAccepted().catch((err) => logger.warn('e-mails sent but not marked sent; they will be sent again', { ids: [...accepted], err: err as Error }))
    },
  }
}
