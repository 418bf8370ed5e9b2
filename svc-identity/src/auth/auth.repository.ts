import type { EntityManager } from '@mikro-orm/postgresql'
import { PasswordResetTokenEntity, VerificationCodeEntity } from './auth.entity.ts'

export const verificationCodeRepository = {
  findByUser: (em: EntityManager, userId: string) => em.findOne(VerificationCodeEntity, { userId }),
  deleteByUser: (em: EntityManager, userId: string) => em.nativeDelete(VerificationCodeEntity, { userId }),
}

export const resetTokenRepository = {
  findByHash: (em: EntityManager, tokenHash: string) => em.findOne(PasswordResetTokenEntity, { tokenHash }),
  countCreatedSince: (em: EntityManager, userId: string, since: Date) =>
    em.count(PasswordResetTokenEntity, { userId, createdAt: { $gte: since } }),
  /** Older unused tokens of the user stop working when a new one is issued or one is used. */
  invalidateAll: (em: EntityManager, userId: string, at: Date) =>
    em.nativeUpdate(PasswordResetTokenEntity, { userId, usedAt: null }, { usedAt: at }),
}

export const throttleRepository = {
  /** Failures counted in the current window of `key` (0 when the window has passed). */
  async current(em: EntityManager, key: string, windowStart: Date): Promise<{ failures: number; windowStartedAt: Date } | null> {
    const rows = (await em.execute(
      'select failures, window_started_at from login_throttle where key = ? and window_started_at > ?',
      [key, windowStart],
    )) as { failures: number; window_started_at: Date | string }[]
    const row = rows[0]
    return row ? { failures: row.failures, windowStartedAt: new Date(row.window_started_at) } : null
  },
  /** Counts one failure; a window older than `windowStart` restarts at `now`. */
  async addFailure(em: EntityManager, key: string, now: Date, windowStart: Date): Promise<void> {
    await em.execute(
      `insert into login_throttle (key, failures, window_started_at) values (?, 1, ?)
       on conflict (key) do update set
         failures = case when login_throttle.window_started_at <= ? then 1 else login_throttle.failures + 1 end,
         window_started_at = case when login_throttle.window_started_at <= ? then excluded.window_started_at
                                  else login_throttle.window_started_at end`,
      [key, now, windowStart, windowStart],
    )
  },
  /** Drops counters whose window is over (keeps the table small under spraying). */
  prune: (em: EntityManager, windowStart: Date) => em.execute('delete from login_throttle where window_started_at <= ?', [windowStart]),
  reset: (em: EntityManager, key: string) => em.execute('delete from login_throttle where key = ?', [key]),
}
