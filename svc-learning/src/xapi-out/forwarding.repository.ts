import type { EntityManager } from '@mikro-orm/postgresql'
import type { SecretBox } from '@portal/server-kit'
import type { LrsTarget } from './lrs-client.ts'

/** The column the password is sealed for (the secret box binds it in). */
export const PASSWORD_COLUMN = 'lrs_forwarding.password'

export interface ForwardingRow {
  endpoint: string
  username: string
  /** As stored: sealed (decision 0055), '' when none; `targetOf` opens it. */
  password: string
  enabled: boolean
  last_sent_at: Date | string | null
  last_error: string | null
  last_error_at: Date | string | null
  updated_at: Date | string | null
}

export interface QueuedStatement {
  statement_id: string
  statement: unknown
  attempts: number
}

/** What an admin reads when the stored password cannot be opened (a lost or changed SECRETS_KEY). */
export const UNREADABLE_PASSWORD = 'The stored password cannot be read with this server’s secrets key: enter it again'

/** Where and as whom to send: the settings with the password opened; throws `SecretUnreadable` (see `UNREADABLE_PASSWORD`). */
export const targetOf = (row: ForwardingRow, secrets: SecretBox): LrsTarget => ({
  endpoint: row.endpoint,
  username: row.username,
  password: secrets.open(row.password, PASSWORD_COLUMN),
})

const run = <T>(em: EntityManager, sql: string, params: unknown[] = []) => em.execute(sql, params) as Promise<T[]>

/** The settings row (absent until the first save) and the queue of statements to send. */
export const forwardingRepository = {
  async settings(em: EntityManager): Promise<ForwardingRow | null> {
    const [row] = await run<ForwardingRow>(em, 'select endpoint, username, password, enabled, last_sent_at, last_error, last_error_at, updated_at from lrs_forwarding where id = 1')
    return row ?? null
  },

  /** Saves the settings; `password` (sealed) null keeps the stored one. */
  async save(em: EntityManager, s: { endpoint: string; username: string; password: string | null; enabled: boolean; at: Date }): Promise<void> {
    await run(
      em,
      `insert into lrs_forwarding (id, endpoint, username, password, enabled, updated_at) values (1, ?, ?, coalesce(?, ''), ?, ?)
       on conflict (id) do update set endpoint = excluded.endpoint, username = excluded.username,
         password = coalesce(?, lrs_forwarding.password), enabled = excluded.enabled, updated_at = excluded.updated_at`,
      [s.endpoint, s.username, s.password, s.enabled, s.at, s.password],
    )
  },

  /**
   * Seals a password stored plain (before decision 0055) or under a key being rotated out; run at
   * start. One that cannot be opened is left for an admin to enter again (the sender reports it).
   */
  async reseal(em: EntityManager, secrets: SecretBox): Promise<'resealed' | 'unreadable' | null> {
    const [row] = await run<{ password: string }>(em, 'select password from lrs_forwarding where id = 1')
    if (!row) return null
    let next: string | null
    try {
      next = secrets.resealed(row.password, PASSWORD_COLUMN)
    } catch {
      return 'unreadable'
    }
    if (next === null) return null
    // Only if unchanged since read: another replica starting, or an admin saving, may have been first.
    await run(em, 'update lrs_forwarding set password = ? where id = 1 and password = ?', [next, row.password])
    return 'resealed'
  },

  async markSent(em: EntityManager, at: Date): Promise<void> {
    // The last error stays, with its time: a statement the LRS refused for good is worth seeing after later ones went through.
    await run(em, 'update lrs_forwarding set last_sent_at = ? where id = 1', [at])
  },

  async markError(em: EntityManager, message: string, at: Date): Promise<void> {
    await run(em, 'update lrs_forwarding set last_error = ?, last_error_at = ? where id = 1', [message.slice(0, 1000), at])
  },

  /** Adds a statement to send; one already queued under the same id (a redelivered event) is left as it is. */
  async enqueue(em: EntityManager, q: { statementId: string; eventId: string; statement: unknown }): Promise<void> {
    await run(em, 'insert into xapi_forward_queue (statement_id, event_id, statement) values (?, ?, ?::jsonb) on conflict (statement_id) do nothing', [
      q.statementId,
      q.eventId,
      JSON.stringify(q.statement),
    ])
  },

  /** The oldest statements waiting. */
  async next(em: EntityManager, limit: number): Promise<QueuedStatement[]> {
    return run<QueuedStatement>(em, 'select statement_id, statement, attempts from xapi_forward_queue order by created_at, statement_id limit ?', [limit])
  },

  async remove(em: EntityManager, statementId: string): Promise<void> {
    await run(em, 'delete from xapi_forward_queue where statement_id = ?', [statementId])
  },

  async failed(em: EntityManager, statementId: string, message: string): Promise<void> {
    await run(em, 'update xapi_forward_queue set attempts = attempts + 1, last_error = ? where statement_id = ?', [message.slice(0, 1000), statementId])
  },

  /** How many statements wait, and since when the oldest has (null when none). */
  async backlog(em: EntityManager): Promise<{ waiting: number; since: Date | null }> {
    const [row] = await run<{ n: number; since: Date | string | null }>(em, 'select count(*)::int as n, min(created_at) as since from xapi_forward_queue')
    return { waiting: Number(row?.n ?? 0), since: row?.since ? new Date(row.since) : null }
  },
}
