import { createHash } from 'node:crypto'
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql'
import type { OutgoingEmail, RenderedEmail } from '../mail/message.ts'
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

/** A pending delivery claimed by one sender for one attempt. */
export interface ClaimedDelivery extends OutgoingEmail {
  /** Attempts including this one. */
  attempts: number
}

/** Queries of the email_deliveries table. */
export function createDeliveryRepository(orm: MikroORM) {
  const conn = () => orm.em.getConnection()
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
      })
      return id
    },

    /**
     * Claims up to `limit` due deliveries for `leaseMs`: other senders (other instances) skip
     * them until the lease ends, so a sender that dies mid-way is taken over later.
     */
    async claimDue(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
      const rows = (await conn().execute(
        `update email_deliveries d
            set next_attempt_at = now() + (? * interval '1 millisecond'), attempts = d.attempts + 1
          where d.id in (
            select id from email_deliveries
             where status = 'pending' and next_attempt_at <= now()
             order by created_at, id
             limit ?
             for update skip locked)
        returning d.id, d.recipient, d.subject, d.text, d.html, d.attempts, d.created_at`,
        [leaseMs, limit],
      )) as { id: string; recipient: string; subject: string; text: string; html: string; attempts: number; created_at: Date }[]
      return rows
        .sort((a, b) => +new Date(a.created_at) - +new Date(b.created_at))
        .map((r) => ({ id: r.id, to: r.recipient, subject: r.subject, text: r.text, html: r.html, attempts: Number(r.attempts) }))
    },

    /**
     * Marks a delivery sent (and records a notice's `notify.email.sent.v1`); a delivery already
     * sent stays as it was. It runs right after the mail server accepted the mail, and a crash
     * before it commits sends the mail again (with the same Message-ID), so it is one round trip
     * that does not wait for the WAL flush: a database crash that loses the mark costs the same
     * duplicate, never a mail.
     */
    async markSent(id: string): Promise<void> {
      if (!UUID.test(id)) throw new Error(`not a delivery id: ${id}`)
      await conn().execute(
        `begin; set local synchronous_commit = off;
         with d as (update email_deliveries set status = 'sent', sent_at = now(), last_error = null where id = '${id}' and status = 'pending'
                    returning notice_id, recipient, kind, attempts, last_error)
         ${recordOutcome('notify.email.sent.v1')};
         commit`,
      )
    },

    /**
     * Records a failed attempt: retried at `retryAt`, or given up when `retryAt` is null (a
     * notice's `notify.email.failed.v1` is recorded then).
     */
    async markFailed(id: string, error: string, retryAt: Date | null): Promise<void> {
      await conn().execute(
        `with d as (update email_deliveries
            set last_error = ?, status = case when ?::timestamptz is null then 'failed' else status end,
                next_attempt_at = coalesce(?::timestamptz, next_attempt_at)
          where id = ? and status = 'pending'
          returning notice_id, recipient, kind, attempts, last_error, status)
         ${recordOutcome('notify.email.failed.v1')} and d.status = 'failed'`,
        [error.slice(0, 2000), retryAt, retryAt, id],
      )
    },

    /** Deletes finished deliveries (they hold codes and links) after `days`. */
    async pruneFinished(days: number): Promise<void> {
      await conn().execute(
        "delete from email_deliveries where status <> 'pending' and created_at < now() - (? * interval '1 day')",
        [days],
      )
    },

    async find(id: string) {
      return orm.em.fork().findOne(EmailDelivery, { id })
    },
  }
}
export type DeliveryRepository = ReturnType<typeof createDeliveryRepository>
