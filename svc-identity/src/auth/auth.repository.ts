import type { EntityManager } from '@mikro-orm/postgresql'
import { PasswordResetTokenEntity, VerificationCodeEntity } from './auth.entity.ts'

export const verificationCodeRepository = {
  findByUser: (em: EntityManager, userId: string) => em.findOne(VerificationCodeEntity, { userId }),
  deleteByUser: (em: EntityManager, userId: string) => em.nativeDelete(VerificationCodeEntity, { userId }),
}

export const resetTokenRepository = {
  findByHash: (em: EntityManager, tokenHash: string) => em.findOne(PasswordResetTokenEntity, { tokenHash }),
  countCreatedSince: (em: EntityManager, userId: string, since: Date) => em.count(PasswordResetTokenEntity, { userId, createdAt: { $gte: since } }),
  /** Older unused tokens of the user stop working when a new one is issued or one is used. */
  invalidateAll: (em: EntityManager, userId: string, at: Date) => em.nativeUpdate(PasswordResetTokenEntity, { userId, usedAt: null }, { usedAt: at }),
}

interface LimitWindowRow {
  window_started_at: Date | string
  locked_until: Date | string | null
}

/** The counters of the abuse-prone flows (`auth_limits`, one row per key); the rules live in limits.ts. */
export const limitRepository = {
  /**
   * Counts one use of `key`, all in one conditional upsert: a window that started at or before
   * `windowStart` starts over at `at`; otherwise the use counts only while below `limit`, and never
   * while the key is locked. The conflicting row is locked for the statement, so concurrent
   * reservations serialize. True when the use was counted.
   */
  async reserveOne(em: EntityManager, key: string, limit: number, at: Date, windowStart: Date): Promise<boolean> {
    const rows = (await em.execute(
      `insert into auth_limits (key, used, window_started_at) values (?, 1, ?)
       on conflict (key) do update set
         used = case when auth_limits.window_started_at <= ? then 1 else auth_limits.used + 1 end,
         window_started_at = case when auth_limits.window_started_at <= ? then excluded.window_started_at else auth_limits.window_started_at end
       where (auth_limits.locked_until is null or auth_limits.locked_until <= ?)
         and (auth_limits.window_started_at <= ? or auth_limits.used < ?)
       returning used`,
      [key, at, windowStart, windowStart, at, windowStart, limit],
    )) as { used: number }[]
    return rows.length === 1
  },

  /** When the key's window started and until when it is locked; null for a key never used. */
  async findWindow(em: EntityManager, key: string): Promise<{ windowStartedAt: Date; lockedUntil: Date | null } | null> {
    const [row] = (await em.execute('select window_started_at, locked_until from auth_limits where key = ?', [key])) as LimitWindowRow[]
    if (!row) return null
    return { windowStartedAt: new Date(row.window_started_at), lockedUntil: row.locked_until ? new Date(row.locked_until) : null }
  },

  /** Gives one use of the key back (never below zero). */
  giveBack: (em: EntityManager, key: string) => em.execute('update auth_limits set used = greatest(used - 1, 0) where key = ?', [key]),

  /** Forgets the key's counter and lockouts. */
  delete: (em: EntityManager, key: string) => em.execute('delete from auth_limits where key = ?', [key]),

  /** Forgets every key starting with `prefix`. */
  deletePrefix: (em: EntityManager, prefix: string) => em.execute('delete from auth_limits where left(key, length(?)) = ?', [prefix, prefix]),

  /**
   * Locks the key when its window (started after `windowStart`) is full and it is not locked: for
   * `baseMs` doubled with each earlier lockout (at most `maxMs`), counting only lockouts that ended
   * after `forgetBefore`; the window starts over. Once per full window, however many failures
   * arrive together.
   */
  async lockIfFull(em: EntityManager, lock: { key: string; limit: number; at: Date; windowStart: Date; forgetBefore: Date; baseMs: number; maxMs: number }): Promise<void> {
    // Every SET expression reads the row as it was: `previous` lockouts decide this one's length.
    const previous = 'case when locked_until is null or locked_until < ? then 0 else lockouts end'
    await em.execute(
      `update auth_limits set
         locked_until = cast(? as timestamptz) + least(cast(? as float8), cast(? as float8) * power(2, ${previous})) * interval '1 millisecond',
         lockouts = ${previous} + 1,
         used = 0,
         window_started_at = ?
       where key = ? and used >= ? and window_started_at > ? and (locked_until is null or locked_until <= ?)`,
      [lock.at, lock.maxMs, lock.baseMs, lock.forgetBefore, lock.forgetBefore, lock.at, lock.key, lock.limit, lock.windowStart, lock.at],
    )
  },

  /** Drops keys whose window started before `windowsBefore` and whose lockout ended before `lockoutsBefore`. */
  prune: (em: EntityManager, windowsBefore: Date, lockoutsBefore: Date) =>
    em.execute('delete from auth_limits where window_started_at < ? and (locked_until is null or locked_until < ?)', [windowsBefore, lockoutsBefore]),
}

export const knownDeviceRepository = {
  /** Forgets the user's device `replacing` (when given) and every one beyond their newest `keep`. */
  forgetReplacedAndOldest: (em: EntityManager, userId: string, replacing: string | null, keep: number) =>
    em.execute(
      `delete from known_devices where user_id = ? and (id = ? or id not in
         (select id from known_devices where user_id = ? order by created_at desc limit ?))`,
      [userId, replacing, userId, keep],
    ),
}

export const verificationDecoyRepository = {
  /** Creates the decoy of `userId` unless it exists: no code, no tries, its last code sent at `sentAt`. */
  insertIfMissing: (em: EntityManager, decoy: { userId: string; salt: string; expiresAt: Date; sentAt: Date; createdAt: Date }) =>
    em.execute(
      `insert into verification_decoys (user_id, code_hash, salt, expires_at, attempts, last_sent_at, send_window_started_at, sends_in_window, created_at)
       values (?, '', ?, ?, 0, ?, ?, 0, ?) on conflict (user_id) do nothing`,
      [decoy.userId, decoy.salt, decoy.expiresAt, decoy.sentAt, decoy.sentAt, decoy.createdAt],
    ),
}
