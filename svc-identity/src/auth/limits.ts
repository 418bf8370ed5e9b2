import type { EntityManager, MikroORM } from '@mikro-orm/postgresql'

/**
 * One counter of an abuse-prone flow. A request reserves a use before the work it limits (so the
 * limit holds under any concurrency: the reservation is one conditional upsert on the key's row);
 * a failure keeps it, a success may give it back.
 */
export interface LimitRule {
  key: string
  /** Uses allowed per window. */
  limit: number
  windowMs: number
  /**
   * When a window fills up with failures, lock the key for `baseMs`, doubled with each lockout
   * (at most `maxMs`); lockouts are forgotten a day after the last one ended.
   */
  lockout?: { baseMs: number; maxMs: number }
}

const FORGET_LOCKOUTS_MS = 24 * 3600_000

/** Thrown inside the reserving transaction (rolling back what it reserved) when a rule is full. */
export class LimitReached extends Error {
  readonly retryAfterSeconds: number
  readonly key: string
  constructor(key: string, retryAfterSeconds: number) {
    super(`limit reached: ${key}`)
    this.key = key
    this.retryAfterSeconds = retryAfterSeconds
  }
}

/** Reserves one use of `rule`; resolves with false when its window is full or the key locked. */
async function reserveOne(em: EntityManager, rule: LimitRule, now: Date): Promise<boolean> {
  const windowStart = new Date(now.getTime() - rule.windowMs)
  // A window older than windowMs starts over at now; otherwise the use counts only while below the
  // limit. The conflicting row is locked for the statement, so concurrent reservations serialize.
  const rows = (await em.execute(
    `insert into auth_limits (key, used, window_started_at) values (?, 1, ?)
     on conflict (key) do update set
       used = case when auth_limits.window_started_at <= ? then 1 else auth_limits.used + 1 end,
       window_started_at = case when auth_limits.window_started_at <= ? then excluded.window_started_at else auth_limits.window_started_at end
     where (auth_limits.locked_until is null or auth_limits.locked_until <= ?)
       and (auth_limits.window_started_at <= ? or auth_limits.used < ?)
     returning used`,
    [rule.key, now, windowStart, windowStart, now, windowStart, rule.limit],
  )) as { used: number }[]
  return rows.length === 1
}

/** Seconds until `rule` may be used again (the end of its lockout, else of its window). */
async function secondsUntilFree(em: EntityManager, rule: LimitRule, now: Date): Promise<number> {
  const rows = (await em.execute('select window_started_at, locked_until from auth_limits where key = ?', [rule.key])) as {
    window_started_at: Date | string
    locked_until: Date | string | null
  }[]
  const row = rows[0]
  if (!row) return 1
  const lockEnd = row.locked_until ? new Date(row.locked_until).getTime() : 0
  const freeAt = lockEnd > now.getTime() ? lockEnd : new Date(row.window_started_at).getTime() + rule.windowMs
  return Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000))
}

/** The limits of identity's flows, stored in its database (`auth_limits`). */
export function createLimits(orm: MikroORM, now: () => Date) {
  return {
    /**
     * Reserves one use of every rule, all or none (one transaction; rules are always taken in the
     * order given, so two requests never wait on each other's rows in a cycle). Throws
     * `LimitReached` naming the first full rule.
     */
    async reserve(rules: readonly LimitRule[]): Promise<void> {
      if (rules.length === 0) return
      const at = now()
      await orm.em.fork().transactional(async (em) => {
        for (const rule of rules) {
          if (!(await reserveOne(em, rule, at))) throw new LimitReached(rule.key, await secondsUntilFree(em, rule, at))
        }
      })
    },

    /** Reserves one use of `rule` if it is free; false (nothing reserved) when it is not. */
    async tryReserve(rule: LimitRule): Promise<boolean> {
      return reserveOne(orm.em.fork(), rule, now())
    },

    /** The reserved work succeeded or never happened: gives one use of each rule back. */
    async release(rules: readonly LimitRule[]): Promise<void> {
      const em = orm.em.fork()
      for (const rule of rules) await em.execute('update auth_limits set used = greatest(used - 1, 0) where key = ?', [rule.key])
    },

    /** Forgets the rules' counters and lockouts (e.g. the owner proved themselves from that address). */
    async clear(rules: readonly LimitRule[], em: EntityManager = orm.em.fork()): Promise<void> {
      for (const rule of rules) await em.execute('delete from auth_limits where key = ?', [rule.key])
    },

    /** Forgets every key starting with `prefix`. */
    clearPrefix: (prefix: string, em: EntityManager = orm.em.fork()) =>
      em.execute('delete from auth_limits where left(key, length(?)) = ?', [prefix, prefix]),

    /**
     * The reserved work failed: the uses stay counted, and a lockout key whose window is full is
     * locked (once per full window, however many failures arrive together).
     */
    async fail(rules: readonly LimitRule[]): Promise<void> {
      const at = now()
      const em = orm.em.fork()
      for (const rule of rules) {
        if (!rule.lockout) continue
        const forgetBefore = new Date(at.getTime() - FORGET_LOCKOUTS_MS)
        // Every SET expression reads the row as it was: `previous` lockouts decide this one's length.
        const previous = 'case when locked_until is null or locked_until < ? then 0 else lockouts end'
        await em.execute(
          `update auth_limits set
             locked_until = cast(? as timestamptz) + least(cast(? as float8), cast(? as float8) * power(2, ${previous})) * interval '1 millisecond',
             lockouts = ${previous} + 1,
             used = 0,
             window_started_at = ?
           where key = ? and used >= ? and window_started_at > ? and (locked_until is null or locked_until <= ?)`,
          [at, rule.lockout.maxMs, rule.lockout.baseMs, forgetBefore, forgetBefore, at, rule.key, rule.limit, new Date(at.getTime() - rule.windowMs), at],
        )
      }
    },

    /** Drops keys whose window and lockout are long over (keeps the table small under spraying). */
    async prune(maxWindowMs: number): Promise<void> {
      const at = now().getTime()
      await orm.em
        .fork()
        .execute('delete from auth_limits where window_started_at < ? and (locked_until is null or locked_until < ?)', [
          new Date(at - maxWindowMs),
          new Date(at - FORGET_LOCKOUTS_MS),
        ])
    },
  }
}
export type Limits = ReturnType<typeof createLimits>
