import type { EventEnvelope } from '@portal/contracts'
import type { Logger } from './logger.ts'

export type EventHandler = (event: EventEnvelope) => Promise<void>

/** A running subscription. */
export interface Subscription {
  stop(): Promise<void>
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

/**
 * In-process bus for the single-node mode. Publishing delivers to every matching subscription
 * and resolves once each handler succeeded (retrying a few times), so the outbox keeps an event
 * until it was handled; a log of recent events is replayed to subscriptions that start later.
 */
export function createInProcessBus(opts: { logger?: Logger; retries?: number; retryDelayMs?: number; logSize?: number } = {}): EventBus {
  const retries = opts.retries ?? 3
  const retryDelayMs = opts.retryDelayMs ?? 50
  const logSize = opts.logSize ?? 10_000
  const subs = new Set<{ consumer: string; subjects: string[]; handler: EventHandler }>()
  const seen = new Map<string, true>()
  const log: EventEnvelope[] = []
  let closed = false

  const deliver = async (sub: { consumer: string; subjects: string[]; handler: EventHandler }, event: EventEnvelope) => {
    if (!sub.subjects.some((p) => subjectMatches(p, event.type))) return
    for (let attempt = 0; ; attempt++) {
      try {
        await sub.handler(structuredClone(event))
        return
      } catch (err) {
        if (attempt >= retries) throw err
        opts.logger?.warn('handler failed, redelivering', { consumer: sub.consumer, eventId: event.id, err: err as Error })
        await sleep(retryDelayMs * 2 ** attempt)
      }
    }
  }

  return {
    kind: 'in-process',
    async publish(event) {
      if (closed) throw new Error('bus is closed')
      if (seen.has(event.id)) return
      await Promise.all([...subs].map((s) => deliver(s, event)))
      seen.set(event.id, true)
      log.push(event)
      if (log.length > logSize) seen.delete(log.shift()!.id)
    },
    async subscribe(consumer, subjects, handler) {
      const sub = { consumer, subjects, handler }
      for (const event of [...log]) await deliver(sub, event).catch(() => undefined)
      subs.add(sub)
      return { stop: async () => void subs.delete(sub) }
    },
    async close() {
      closed = true
      subs.clear()
    },
  }
}
