import { connect, headers as natsHeaders, nanos, type NatsConnection } from '@nats-io/transport-node'
import { AckPolicy, DeliverPolicy, JetStreamApiError, StorageType, jetstream, jetstreamManager, type ConsumerMessages } from '@nats-io/jetstream'
import { EventEnvelope } from '@portal/contracts'
import type { ConsumerLag, EventBus, EventHandler } from './bus.ts'
import type { Logger } from './logger.ts'
import { consumeInSpan, type TraceCarrier } from './tracing.ts'

export interface NatsBusOptions {
  url: string
  /** Stream holding every domain's events. */
  stream?: string
  /** Subjects the stream captures. */
  subjects?: string[]
  logger?: Logger
  /** Redelivery delay after a handler failure. */
  nakDelayMs?: number
  /**
   * Namespace put before every subject (e.g. `test_x1.`): lets tests and several portals share
   * one NATS server without their streams' subjects overlapping. Envelopes keep their type.
   */
  subjectPrefix?: string
}

const DEFAULT_SUBJECTS = ['identity.>', 'learning.>', 'certs.>', 'notify.>']

/** EventBus on NATS JetStream: file-backed stream, `Nats-Msg-Id` dedupe, durable pull consumers. */
export async function createNatsBus(opts: NatsBusOptions): Promise<EventBus & { connection: NatsConnection }> {
  const stream = opts.stream ?? 'PORTAL_EVENTS'
  const prefix = opts.subjectPrefix ?? ''
  const subjects = (opts.subjects ?? DEFAULT_SUBJECTS).map((s) => prefix + s)
  const nc = await connect({ servers: opts.url, name: stream, maxReconnectAttempts: -1 })
  const jsm = await jetstreamManager(nc)
  const config = {
    name: stream,
    subjects,
    storage: StorageType.File,
    duplicate_window: nanos(2 * 60_000),
    max_age: nanos(30 * 24 * 3600_000),
  }
  try {
    await jsm.streams.info(stream)
    await jsm.streams.update(stream, { subjects, duplicate_window: config.duplicate_window, max_age: config.max_age })
  } catch (err) {
    if (!(err instanceof JetStreamApiError) && !String(err).includes('not found')) throw err
    await jsm.streams.add(config)
  }
  const js = jetstream(nc)
  const running = new Set<ConsumerMessages>()

  return {
    kind: 'nats',
    connection: nc,
    async publish(event) {
      // Reject a malformed envelope here rather than have every consumer drop it.
      event = EventEnvelope.parse(event) as EventEnvelope
      // W3C trace context in the message's headers (traceparent, tracestate), not in the body.
      const { trace, ...body } = event
      let headers: ReturnType<typeof natsHeaders> | undefined
      if (trace) {
        headers = natsHeaders()
        headers.set('traceparent', trace.traceparent)
        if (trace.tracestate) headers.set('tracestate', trace.tracestate)
      }
      await js.publish(prefix + event.type, JSON.stringify(body), { msgID: event.id, expect: { streamName: stream }, ...(headers ? { headers } : {}) })
    },
    async subscribe(consumer, filterSubjects, handler: EventHandler) {
      // nats-server 2.9 allows one filter subject per consumer: one durable consumer per subject.
      const loops = await Promise.all(
        filterSubjects.map(async (subject) => {
          const durable = `${consumer}__${subject.replace(/[.*>]/g, (ch) => (ch === '.' ? '_' : ch === '*' ? 'STAR' : 'ALL'))}`
          try {
            await jsm.consumers.info(stream, durable)
          } catch {
            await jsm.consumers.add(stream, {
              durable_name: durable,
              ack_policy: AckPolicy.Explicit,
              deliver_policy: DeliverPolicy.All,
              filter_subject: prefix + subject,
              ack_wait: nanos(30_000),
              max_deliver: -1,
            })
          }
          const c = await js.consumers.get(stream, durable)
          const messages = await c.consume({ max_messages: 64 })
          running.add(messages)
          const done = (async () => {
            for await (const m of messages) {
              let event: EventEnvelope
              try {
                event = EventEnvelope.parse(m.json()) as EventEnvelope
              } catch (err) {
                opts.logger?.error('dropping malformed event', { subject: m.subject, err: err as Error })
                m.term()
                continue
              }
              const traceparent = m.headers?.get('traceparent')
              if (traceparent) {
                const tracestate = m.headers!.get('tracestate')
                event.trace = { traceparent, ...(tracestate ? { tracestate } : {}) } satisfies TraceCarrier
              }
              try {
                await consumeInSpan(consumer, event, () => handler(event))
                m.ack()
              } catch (err) {
                opts.logger?.warn('handler failed, redelivering', { consumer, eventId: event.id, err: err as Error })
                m.nak(opts.nakDelayMs ?? 1_000)
              }
            }
          })()
          return { messages, done, durable, subject }
        }),
      )
      return {
        lag: () =>
          Promise.all(
            loops.map(async (l): Promise<ConsumerLag> => {
              const info = await jsm.consumers.info(stream, l.durable)
              return { consumer, subject: l.subject, pending: info.num_pending, ackPending: info.num_ack_pending }
            }),
          ),
        async stop() {
          for (const l of loops) {
            l.messages.stop()
            running.delete(l.messages)
          }
          await Promise.all(loops.map((l) => l.done.catch(() => undefined)))
        },
      }
    },
    async close() {
      for (const m of running) m.stop()
      await nc.drain().catch(() => nc.close())
    },
  }
}
