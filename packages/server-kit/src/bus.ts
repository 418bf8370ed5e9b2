import { AsyncResource } from 'node:async_hooks'
import { EventEnvelope } from '@portal/contracts'
import type { Logger } from './logger.ts'
import { consumeInSpan } from './tracing.ts'

export type EventHandler = (event: EventEnvelope) => Promise<void>

/** A running subscription. */
export interface Subscription {
  stop(): Promise<void>
  /** What its durable consumers have yet to handle, asked of the broker (JetStream); absent in process. */
  lag?(): Promise<ConsumerLag[]>
}

/** One durable consumer's backlog: messages not yet delivered, and delivered but not yet acknowledged. */
export interface ConsumerLag {
  consumer: string
  subject: string
  pending: number
  ackPending: number
}

/**
 * The event bus both adapters implement. `publish` resolves only once the event is durably
 * accepted (JetStream ack); an event id published twice is delivered once. Subscriptions are
 * durable and at-least-once: a handler that throws sees the event again, so handlers dedupe by
 * event id (see `inbox.ts`).
 */
export interface EventBus {
  readonly kind: 'nats' | 'in-process'
  publish(event: EventEnvelope): Promise<void>
  subscribe(consumer: string, subjects: string[], handler: EventHandler): Promise<Subscription>
  close(): Promise<void>
}

/** NATS-style subject match with `*` (one token) and `>` (the rest). */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split('.')
  const s = subject.split('.')
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i
    if (i >= s.length) return false
    if (p[i] !== '*' && p[i] !== s[i]) return false
  }
  return p.length === s.length
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface InProcessSub {
  consumer: string
  subjects: string[]
  handler: EventHandler
  active: boolean
  /** The subscriber's async context: handlers never run in the publisher's (its ORM context, its request). */
  scope: AsyncResource
}

/**
 * In-process bus for the single-node mode. Publishing delivers to every matching subscription
 * and resolves once each handler succeeded (retrying a few times), so the outbox keeps an event
 * until it was handled; a log of recent events is replayed to subscriptions that start later.
 * Like a durable JetStream consumer, a consumer name remembers what it handled: subscribing
 * again resumes after it, and a handler that already succeeded is not called again when the
 * outbox republishes an event another consumer failed on.
 */
export function createInProcessBus(opts: { logger?: Logger; retries?: number; retryDelayMs?: number; logSize?: number } = {}): EventBus {
  const retries = opts.retries ?? 3
  const retryDelayMs = opts.retryDelayMs ?? 50
  const logSize = opts.logSize ?? 10_000
  const subs = new Set<InProcessSub>()
  const seen = new Map<string, true>()
  const log: EventEnvelope[] = []
  /** Event ids each consumer name has handled (bounded by the log). */
  const handled = new Map<string, Set<string>>()
  /** Publishes under way, by event id: a concurrent duplicate waits for the first. */
  const inflight = new Map<string, Promise<void>>()
  let closed = false

  const handledBy = (consumer: string) => {
    let set = handled.get(consumer)
    if (!set) handled.set(consumer, (set = new Set()))
    return set
  }

  const deliver = async (sub: InProcessSub, event: EventEnvelope, maxRetries = retries) => {
    if (!sub.subjects.some((p) => subjectMatches(p, event.type))) return
    const done = handledBy(sub.consumer)
    for (let attempt = 0; ; attempt++) {
      if (done.has(event.id) || !sub.active) return
      try {
        await sub.scope.runInAsyncScope(() => consumeInSpan(sub.consumer, event, () => sub.handler(structuredClone(event))))
        done.add(event.id)
        return
      } catch (err) {
        if (attempt >= maxRetries) throw err
        opts.logger?.warn('handler failed, redelivering', { consumer: sub.consumer, eventId: event.id, err: err as Error })
        await sleep(Math.min(retryDelayMs * 2 ** Math.min(attempt, 20), 30_000))
      }
    }
  }

  return {
    kind: 'in-process',
    async publish(event) {
      if (closed) throw new Error('bus is closed')
      // The same envelope a JetStream consumer would see: validated, unknown keys dropped.
      const parsed = EventEnvelope.parse(event) as EventEnvelope
      if (seen.has(parsed.id)) return
      const running = inflight.get(parsed.id)
      if (running) return running
      const publishing = (async () => {
        await Promise.all([...subs].map((s) => deliver(s, parsed)))
        seen.set(parsed.id, true)
        log.push(parsed)
        if (log.length > logSize) {
          const old = log.shift()!.id
          seen.delete(old)
          for (const set of handled.values()) set.delete(old)
        }
      })()
      inflight.set(parsed.id, publishing)
      try {
        await publishing
      } finally {
        inflight.delete(parsed.id)
      }
    },
    async subscribe(consumer, subjects, handler) {
      const sub: InProcessSub = { consumer, subjects, handler, active: true, scope: new AsyncResource('in-process-subscription') }
      // Publishes from now on reach the subscription; those under way were given only to the
      // subscriptions that existed when they started: wait for them, then catch up from the log.
      subs.add(sub)
      await Promise.allSettled([...inflight.values()])
      const failed: EventEnvelope[] = []
      for (const event of [...log]) {
        if (!sub.active) break
        await deliver(sub, event).catch(() => failed.push(event))
      }
      if (failed.length > 0) {
        // At-least-once: keep retrying in the background until handled or stopped.
        opts.logger?.error('handler keeps failing on replayed events; retrying in the background', { consumer, count: failed.length })
        void (async () => {
          for (const event of failed) await deliver(sub, event, Number.POSITIVE_INFINITY).catch(() => undefined)
        })()
      }
      return {
        stop: async () => {
          sub.active = false
          subs.delete(sub)
        },
      }
    },
    async close() {
      closed = true
      for (const sub of subs) sub.active = false
      subs.clear()
    },
  }
}
