import type { EntityManager } from '@mikro-orm/postgresql'
import { Events, type Branch, type Department, type EventType, type NotificationStatus, type NotificationType } from '@portal/contracts'

/** A log row to write (admin §3 Notification log), one per e-mail notice or withheld notice. */
export interface LogRow {
  notice_id: string
  run_id: number | null
  user_id: string | null
  technician_name: string | null
  branch: Branch | null
  department: Department | null
  technician_certification_id: number | null
  certification_id: number | null
  certification_code: string | null
  certification_name: string | null
  notification_type: NotificationType
  recipient_emails: string[]
  status: NotificationStatus
  expiration_date: string | null
  days_until_expiry: number | null
  sent_at: string
}

const LOG_COLUMNS = `notice_id uuid, run_id integer, user_id uuid, technician_name text, branch text, department text,
  technician_certification_id integer, certification_id integer, certification_code text, certification_name text,
  notification_type text, recipient_emails text[], status text, expiration_date date, days_until_expiry integer, sent_at timestamptz`

/** Writes log rows in one statement (through `em`, so they commit with the caller's transaction). */
export async function insertLogs(em: EntityManager, rows: LogRow[]): Promise<void> {
  if (rows.length === 0) return
  await em.execute(
    `insert into notification_logs (notice_id, run_id, user_id, technician_name, branch, department, technician_certification_id,
       certification_id, certification_code, certification_name, notification_type, recipient_emails, status, expiration_date,
       days_until_expiry, sent_at)
     select x.* from jsonb_to_recordset(?::jsonb) as x(${LOG_COLUMNS})`,
    [JSON.stringify(rows)],
  )
}

/**
 * Records events in the outbox in one statement (a run records thousands): each is checked
 * against its schema as `recordEvent` does; the relay's interval publishes them after the commit.
 */
export async function insertEvents(em: EntityManager, events: { type: EventType; data: unknown }[], at: Date): Promise<void> {
  if (events.length === 0) return
  const occurredAt = at.toISOString()
  const envelopes = events.map((e) => ({ id: crypto.randomUUID(), type: e.type, occurredAt, data: Events[e.type].parse(e.data) }))
  await em.execute(
    `insert into outbox (id, type, payload, occurred_at, attempts)
     select (e->>'id')::uuid, e->>'type', e, (e->>'occurredAt')::timestamptz, 0 from jsonb_array_elements(?::jsonb) as e`,
    [JSON.stringify(envelopes)],
  )
}

/** A log row as the API shows it (admin §3). */
export const LOG_SELECT = `id::int as id, sent_at, user_id, technician_name, branch, department, technician_certification_id,
  certification_id, certification_code, certification_name, notification_type, recipient_emails, status, error,
  expiration_date::text as expiration_date, days_until_expiry, acknowledged_at, delivered_at`

export interface LogRecord extends Omit<LogRow, 'notice_id' | 'run_id' | 'sent_at'> {
  id: number
  sent_at: Date | string
  error: string | null
  acknowledged_at: Date | string | null
  delivered_at: Date | string | null
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString())

export const toNotificationLog = (r: LogRecord) => ({
  id: Number(r.id),
  sent_at: iso(r.sent_at)!,
  technician: r.user_id ? { id: r.user_id, name: r.technician_name ?? '', branch: r.branch, department: r.department } : null,
  certification:
    r.certification_id !== null ? { id: r.certification_id, code: r.certification_code ?? '', name: r.certification_name ?? '' } : null,
  technician_certification_id: r.technician_certification_id,
  notification_type: r.notification_type,
  recipient_emails: r.recipient_emails ?? [],
  status: r.status,
  error: r.error,
  expiration_date: r.expiration_date,
  days_until_expiry: r.days_until_expiry,
  acknowledged_at: iso(r.acknowledged_at),
  delivered_at: iso(r.delivered_at),
})
