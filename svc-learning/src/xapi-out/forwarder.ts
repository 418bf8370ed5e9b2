import type { MikroORM } from '@mikro-orm/postgresql'
import type { EventEnvelope } from '@portal/contracts'
import {
  SecretUnreadable,
  createBackgroundTask,
  handleOnce,
  xapiQueueMetrics,
  type EventBus,
  type Logger,
  type Metrics,
  type SecretBox,
  type ServiceJob,
  type Subscription,
} from '@portal/server-kit'
import { UNREADABLE_PASSWORD, forwardingRepository, targetOf } from './forwarding.repository.ts'
import { accepted, describeAnswer, putStatement, retriable } from './lrs-client.ts'
import { FORWARDED_EVENTS, statementOf, type StatementSetting } from './statements.ts'

/** Durable consumer name of statements out (its JetStream consumers are named after it). */
export const XAPI_OUT_CONSUMER = 'learning-xapi-out'

/**
 * Turns each forwarded learning event into its statement and queues it (`xapi_forward_queue`)
 * while forwarding is on; off (or no endpoint): the event is passed over. Queuing is once per
 * event (inbox, and the statement id is derived from the event's), so a redelivered event adds
 * nothing; the bus
 * redelivers an event whose queuing failed. The queue, not the bus, waits for a down LRS: the
 * consumer never holds up the bus (in single-node mode a publish waits for every handler).
 */
export function createForwardHandler(deps: { orm: MikroORM; logger: Logger; setting: StatementSetting; kick: () => void }) {
  return async (event: EventEnvelope): Promise<void> => {
    if (!(FORWARDED_EVENTS as readonly string[]).includes(event.type)) return
    const em = deps.orm.em.fork()
    const settings = await forwardingRepository.settings(em)
    if (!settings?.enabled || !settings.endpoint) return
    const statement = statementOf(event, deps.setting)
    if (!statement) {
      deps.logger.error('dropping malformed event', { eventId: event.id, type: event.type })
      return
    }
    // Once per event (inbox): a redelivery after the statement left the queue sends nothing again.
    const queued = await handleOnce(deps.orm, XAPI_OUT_CONSUMER, event, (tx) => forwardingRepository.enqueue(tx, { statementId: statement.id, eventId: event.id, statement }))
    if (queued) deps.kick()
  }
}

/** Subscribes the handler durably to the forwarded events. */
export const subscribeForwarding = (bus: EventBus, handler: (event: EventEnvelope) => Promise<void>): Promise<Subscription> =>
  bus.subscribe(XAPI_OUT_CONSUMER, [...FORWARDED_EVENTS], handler)

export interface SenderOptions {
  orm: MikroORM
  logger: Logger
  /** Opens the stored password. */
  secrets: SecretBox
  now?: () => Date
  /** How often the queue is looked at besides the kicks (default 5 s). */
  intervalMs?: number
  /** Backoff while the LRS is down (default 1 s doubling up to 5 minutes). */
  backoff?: { baseMs: number; maxMs: number }
  /** One PUT's time limit (default 10 s). */
  timeoutMs?: number
  batchSize?: number
}

/**
 * Sends the queued statements in order with `PUT {endpoint}/statements?statementId=<id>`: 200/204
 * (stored) or 409 (stored before) removes one from the queue; the LRS down (network, 5xx, 408,
 * 429) or settings to fix (a redirect, 401/403/404/405: `retriable`) keeps it and the rest, and the
 * task backs off; any other 4xx is a statement the LRS will never take: logged, recorded as the
 * last error and removed. Runs on one instance at a time (lease), so statements leave in order.
 */
export function createStatementSender(opts: SenderOptions) {
  const now = opts.now ?? (() => new Date())
  const batchSize = opts.batchSize ?? 50
  const timeoutMs = opts.timeoutMs ?? 10_000
  const task = createBackgroundTask({
    name: 'xAPI statements out',
    logger: opts.logger,
    intervalMs: opts.intervalMs ?? 5_000,
    backoff: opts.backoff ?? { baseMs: 1_000, maxMs: 300_000 },
    lease: { orm: opts.orm, ms: 60_000 },
    async pass({ stopping }) {
      const em = opts.orm.em.fork()
      const settings = await forwardingRepository.settings(em)
      // Turned off: what is queued waits (nothing lost) until it is on again.
      if (!settings?.enabled || !settings.endpoint) return 0
      let target
      try {
        target = targetOf(settings, opts.secrets)
      } catch (err) {
        if (!(err instanceof SecretUnreadable)) throw err
        // Nothing can go until an admin enters the password again; the task backs off meanwhile.
        await forwardingRepository.markError(em, UNREADABLE_PASSWORD, now())
        throw err
      }
      const rows = await forwardingRepository.next(em, batchSize)
      let sent = 0
      for (const row of rows) {
        if (stopping()) break
        const statement = (typeof row.statement === 'string' ? JSON.parse(row.statement) : row.statement) as { id: string }
        const answer = await putStatement(target, statement, timeoutMs)
        if (accepted(answer)) {
          await forwardingRepository.remove(em, row.statement_id)
          await forwardingRepository.markSent(em, now())
          sent++
          continue
        }
        const message = describeAnswer(answer)
        await forwardingRepository.markError(em, message, now())
        if (retriable(answer)) {
          await forwardingRepository.failed(em, row.statement_id, message)
          // Thrown: the task backs off before the next pass; the statement stays first in line.
          throw new Error(`statement ${row.statement_id} not sent, will retry: ${message}`)
        }
        opts.logger.warn('the LRS refused a statement; dropped', { statementId: row.statement_id, status: answer.status, detail: answer.detail })
        await forwardingRepository.remove(em, row.statement_id)
      }
      return { done: sent, more: rows.length === batchSize && !stopping() }
    },
  })
  return { ...task, job: { start: task.start, stop: task.stop } satisfies ServiceJob }
}

/** The queue's backlog on /metrics (`xapi_statements_waiting`, the oldest one's age; 0 when none). */
export const forwardQueueMetrics = (registry: Metrics['registry'], orm: MikroORM): void =>
  xapiQueueMetrics(registry, async () => {
    const { waiting, since } = await forwardingRepository.backlog(orm.em.fork())
    return { waiting, oldestAgeSeconds: since ? Math.max(0, (Date.now() - since.getTime()) / 1000) : 0 }
  })
