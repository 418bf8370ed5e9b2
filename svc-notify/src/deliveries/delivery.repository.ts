import { createHash } from 'node:crypto'
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql'
import { carrierOf, tracingEnabled, type TraceCarrier } from '@portal/server-kit'
import type { OutgoingEmail, RenderedEmail } from '../mail/index.ts'
import { EmailDelivery } from './delivery.entity.ts'

/**
 * The delivery id of the mail an event asks for: derived from the event id (and recipient), so
 * the same event can never queue two different rows for the same mail.
 */
export function deliveryId(eventId: string, to: string): string {
  const h = createHash('sha256').update(`${eventId}\n${to.toLowerCase()}`).digest('hex')
  // Formatted as an RFC 9562 version 8 (custom) UUID.
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * After `with d as (update email_deliveries ... returning notice_id, recipient, kind, attempts, last_error)`:
 * records the outcome event of a notice's delivery in the outbox, in the same statement (so in the
 * same transaction) as the status change. Other mails (no notice id) publish nothing.
 */
const recordOutcome = (type: 'notify.email.sent.v1' | 'notify.email.failed.v1') => `
  insert into outbox (id, type, payload, occurred_at, attempts)
  select e.id, '${type}',
         jsonb_build_object('id', e.id, 'type', '${type}', 'occurredAt', e.at, 'data',
           jsonb_build_object('noticeId', d.notice_id, 'to', jsonb_build_array(d.recipient), 'template', d.kind,
                              'attempts', d.attempts, 'at', e.at, 'error', ${type === 'notify.email.failed.v1' ? 'd.last_error' : 'null'})),
         now(), 0
    from d cross join lateral (select gen_random_uuid() as id, to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at) e
   where d.notice_id is not null`

/** A due delivery claimed by one sender for one attempt. */
export interface ClaimedDelivery extends OutgoingEmail {
  /** Attempts including this one (it also tells this attempt's outcome from a later one's). */
  attempts: number
  /**
   * An earlier attempt was handed to the transport and its outcome never recorded (its sender
   * died, or could not reach the database after sending): the mail may have been accepted.
   */
  interrupted: boolean
  /** The trace of the event that queued it (its consumer's span), when this process queued it with tracing on. */
  trace?: TraceCarrier
}

/** Traces kept for queued deliveries at most (the oldest forgotten first): a mail sent later or elsewhere starts its own trace. */
const TRACED_DELIVERIES = 10_000

/** Queries of the email_deliveries table. */
export function createDeliveryRepository(orm: MikroORM) {
  const conn = () => orm.em.getConnection()
  // The consumer's trace of each queued mail, for the send's span (in memory: no column for it).
  const traces = new Map<string, TraceCarrier>()
  const keepTrace = (id: string) => {
    const trace = tracingEnabled() ? carrierOf() : undefined
    if (!trace) return
    traces.set(id, trace)
    if (traces.size > TRACED_DELIVERIES) traces.delete(traces.keys().next().value!)
  }
  const takeTrace = (id: string) => {
    const trace = traces.get(id)
    traces.delete(id)
    return trace ? { trace } : {}
  }
  return {
    /** Queues a mail through `em` (it commits with the caller's transaction). */
    queue(em: EntityManager, input: { eventId: string; kind: string; to: string; noticeId?: string } & RenderedEmail): string {
      const id = deliveryId(input.noticeId ? `${input.eventId}:${input.noticeId}` : input.eventId, input.to)
      const now = new Date()
      em.create(EmailDelivery, {
        id,
        eventId: input.eventId,
        noticeId: input.noticeId ?? null,
        kind: input.kind,
        to: input.to,
        subject: input.subject,
        text: input.text,
        html: input.html,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: now,
        lastError: null,
        createdAt: now,
        sentAt: null,
        sendingSince: null,
        unknownOutcomeResends: 0,
      })
      keepTrace(id)
      return id
    },

    /**
     * Claims the oldest due delivery for one attempt, committed before the mail goes to the
     * transport: other senders (other instances) skip it for `leaseMs`, so one whose sender dies
     * is taken over after that, and `sending_since` says an attempt is in flight until its
     * outcome is recorded. Said the other way round: a claim that finds it still set was
     * interrupted (`interrupted`).
     */
    async claimNext(leaseMs: number): Promise<ClaimedDelivery | null> {
      const [row] = (await conn().execute(
        `update email_deliveries d
            set next_attempt_at = now() + (? * interval '1 millisecond'), attempts = d.attempts + 1, sending_since = now()
           from (select id, sending_since from email_deliveries
                  where status = 'pending' and next_attempt_at <= now()
                  order by created_at, id
                  limit 1
                  for update skip locked) c
          where d.id = c.id
        returning d.id, d.recipient, d.subject, d.text, d.html, d.attempts, c.sending_since is not null as interrupted`,
        [leaseMs],
      )) as { id: string; recipient: string; subject: string; text: string; html: string; attempts: number; interrupted: boolean }[]
      if (!row) return null
      return {
        id: row.id,
        to: row.recipient,
        subject: row.subject,
        text: row.text,
        html: row.html,
        attempts: Number(row.attempts),
        interrupted: Boolean(row.interrupted),
        ...takeTrace(row.id),
      }
    },

    /** Records that an interrupted delivery goes out again without knowing whether it was accepted. */
    async recordUnknownOutcomeResend(id: string): Promise<void> {
      await conn().execute('update email_deliveries set unknown_outcome_resends = unknown_outcome_resends + 1 where id = ?', [id])
    },

    /**
     * Marks a delivery sent, whichever attempt's (and records a notice's `notify.email.sent.v1`);
     * a delivery already sent stays as it was. It runs right after the mail server accepted the
     * mail, and a crash before it commits sends the mail again (with the same Message-ID;
     * decision 0043), so it is one round trip that does not wait for the WAL flush: a database
     * crash that loses the mark costs the same duplicate, never a mail.
     */
    async markSent(id: string): Promise<void> {
      if (!UUID.test(id)) throw new Error(`not a delivery id: ${id}`)
      await conn().execute(
        `begin; set local synchronous_commit = off;
         with d as (update email_deliveries set status = 'sent', sent_at = now(), last_error = null, sending_since = null
                     where id = '${id}' and status = 'pending'
                    returning notice_id, recipient, kind, attempts, last_error)
         ${recordOutcome('notify.email.sent.v1')};
         commit`,
      )
    },

    /**
     * Records that attempt `attempts` failed: retried at `retryAt`, or given up when `retryAt` is
     * null (a notice's `notify.email.failed.v1` is recorded then). An attempt that outlived its
     * lease, the delivery since claimed again, changes nothing: the later attempt's is in flight.
     */
    async markFailed(id: string, attempts: number, error: string, retryAt: Date | null): Promise<void> {
      await conn().execute(
        `with d as (update email_deliveries
            set last_error = ?, status = case when ?::timestamptz is null then 'failed' else status end,
                next_attempt_at = coalesce(?::timestamptz, next_attempt_at), sending_since = null
          where id = ? and status = 'pending' and attempts = ?
          returning notice_id, recipient, kind, attempts, last_error, status)
         ${recordOutcome('notify.email.failed.v1')} and d.status = 'failed'`,
        [error.slice(0, 2000), retryAt, retryAt, id, attempts],
      )
    },

    /** The queue for /metrics: mails still to send (waiting for a retry included) and how long the oldest has waited. */
    async queueDepth(): Promise<{ pending: number; oldestAgeSeconds: number }> {
      const [row] = (await conn().execute(
        "select count(*)::int as pending, coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as age from email_deliveries where status = 'pending'",
      )) as { pending: number; age: number }[]
      return { pending: Number(row?.pending ?? 0), oldestAgeSeconds: Math.max(0, Number(row?.age ?? 0)) }
    },

    /** Deletes finished deliveries (they hold codes and links) after `days`. */
    async pruneFinished(days: number): Promise<void> {
      await conn().execute("delete from email_deliveries where status <> 'pending' and created_at < now() - (? * interval '1 day')", [days])
    },

    async find(id: string) {
      return orm.em.fork().findOne(EmailDelivery, { id })
    },
  }
}
export type DeliveryRepository = ReturnType<typeof createDeliveryRepository>
