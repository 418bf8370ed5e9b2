import { SpanKind, contextFrom, createBackgroundTask, inSpan, type Logger, type MailSenderFigures } from '@portal/server-kit'
import { MailRejected, type MailTransport } from '../mail/index.ts'
import type { ClaimedDelivery, DeliveryRepository } from './delivery.repository.ts'

export interface SenderOptions {
  /** How often pending deliveries are looked for (besides the kick after a queue). */
  intervalMs: number
  /** Deliveries sent per pass, each claimed on its own; a pass that sent as many runs again at once. */
  batchSize: number
  /**
   * How long a claimed delivery is reserved for the sender that claimed it: longer than one send
   * can take (the SMTP transport's timeouts), and how long a mail whose sender died waits.
   */
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
  /** What this process found after interrupted attempts, since it started (for /metrics). */
  counts(): SenderCounts
  stop(): Promise<void>
}

/** What a sender did since its process started (for /metrics: `mailMetrics`). */
export type SenderCounts = MailSenderFigures

/** A sender that has not started (route tests): nothing sent yet. */
export const NO_SENDS: SenderCounts = { sent: 0, retried: 0, givenUp: 0, unknownOutcomeResends: 0, foundAccepted: 0 }

/** The delay before attempt `attempts + 1`, with jitter so many failures do not retry in step. */
export function retryDelay(attempts: number, opts: Pick<SenderOptions, 'retryBaseMs' | 'retryMaxMs'>): number {
  const base = Math.min(opts.retryMaxMs, opts.retryBaseMs * 2 ** Math.max(0, attempts - 1))
  return Math.round(base * (0.8 + Math.random() * 0.4))
}

/**
 * Sends due deliveries through the transport, one at a time: claim it (committed: the attempt is
 * in flight), send it, mark it sent at once. A sent delivery is never sent again; a failed attempt
 * is retried with backoff.
 *
 * What SMTP leaves open (decision 0043): between the server keeping the mail (its reply to the
 * end of DATA) and the mark committing, a crash leaves the server with the mail and the row in
 * flight. The mark is the next thing done (one round trip), and a mark that fails (the database
 * hiccups) is remembered and made before anything else is claimed, so this process never hands an
 * accepted mail to the transport again. A delivery claimed again with its attempt still in flight
 * (its sender died; the claim's lease ran out) is checked with the transport when it can tell, and
 * otherwise sent once more with the same Message-ID, logged and counted as such. (A connection
 * lost after the end of DATA without a reply is a failed attempt, retried: it may have been kept
 * too.) Only the mail in flight waits for its lease; the rest of a backlog is sent by the next
 * process at once.
 */
export function startDeliverySender(deps: { deliveries: DeliveryRepository; transport: MailTransport; logger: Logger; options?: Partial<SenderOptions> }): DeliverySender {
  const opts = { ...DEFAULT_SENDER_OPTIONS, ...deps.options }
  const { deliveries, transport, logger } = deps
  const counts: SenderCounts = { ...NO_SENDS }
  // Accepted by the mail server, not yet marked sent (the mark failed): marked before anything new is claimed.
  const accepted = new Set<string>()
  const markAccepted = async () => {
    for (const id of accepted) {
      await deliveries.markSent(id)
      accepted.delete(id)
    }
  }
  const markSent = async (id: string) => {
    accepted.add(id)
    await deliveries.markSent(id)
    accepted.delete(id)
  }

  /** One claimed attempt; resolves with whether the mail is now sent. */
  const attempt = async (mail: ClaimedDelivery): Promise<boolean> => {
    if (mail.interrupted) {
      const known = transport.wasAccepted ? await transport.wasAccepted(mail) : undefined
      if (known) {
        await markSent(mail.id)
        counts.foundAccepted++
        logger.info('e-mail of an interrupted attempt found accepted; marked sent', { deliveryId: mail.id, transport: transport.kind })
        return true
      }
      if (known === undefined) {
        await deliveries.recordUnknownOutcomeResend(mail.id)
        counts.unknownOutcomeResends++
        logger.warn('e-mail sent again: an earlier attempt was interrupted before its outcome was recorded, so it may arrive twice (same Message-ID)', {
          deliveryId: mail.id,
          attempts: mail.attempts,
          transport: transport.kind,
          unknownOutcomeResends: counts.unknownOutcomeResends,
        })
      }
    }
    try {
      // With tracing, the send is a client span in the trace of the event that asked for the mail.
      await inSpan(
        `${transport.kind} send`,
        {
          kind: SpanKind.CLIENT,
          parent: contextFrom(mail.trace),
          attributes: { 'portal.delivery.id': mail.id, 'portal.mail.attempt': mail.attempts, 'portal.mail.transport': transport.kind },
        },
        () => transport.send(mail),
      )
    } catch (err) {
      const permanent = err instanceof MailRejected || mail.attempts >= opts.maxAttempts
      const retryAt = permanent ? null : new Date(Date.now() + retryDelay(mail.attempts, opts))
      logger[permanent ? 'error' : 'warn'](permanent ? 'e-mail given up' : 'e-mail not sent; will retry', {
        deliveryId: mail.id,
        attempts: mail.attempts,
        retryAt,
        err: err as Error,
      })
      await deliveries.markFailed(mail.id, mail.attempts, (err as Error).message ?? String(err), retryAt)
      if (permanent) counts.givenUp++
      else counts.retried++
      return false
    }
    await markSent(mail.id)
    counts.sent++
    logger.info('e-mail sent', { deliveryId: mail.id, transport: transport.kind })
    return true
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
      let sent = 0
      for (let n = 0; n < opts.batchSize; n++) {
        if (stopping()) return { done: sent, more: false }
        const mail = await deliveries.claimNext(opts.leaseMs)
        if (!mail) return { done: sent, more: false }
        if (await attempt(mail)) sent++
      }
      return { done: sent, more: true }
    },
    chores: [{ everyMs: 3_600_000, run: () => deliveries.pruneFinished(7) }],
  })
  task.start()

  return {
    flush: task.runNow,
    kick: task.kick,
    counts: () => ({ ...counts }),
    async stop() {
      await task.stop()
      await markAccepted().catch((err) => logger.warn('e-mails sent but not marked sent; they will be sent again', { ids: [...accepted], err: err as Error }))
    },
  }
}
