import type { EntityManager, MikroORM } from '@mikro-orm/postgresql'
import { limitRepository } from './auth.repository.ts'

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
function reserveOne(em: EntityManager, rule: LimitRule, now: Date): Promise<boolean> {
  // A window older than windowMs starts over at now; otherwise the use counts only while below the limit.
  return limitRepository.reserveOne(em, rule.key, rule.limit, now, new Date(now.getTime() - rule.windowMs))
}

/** Seconds until `rule` may be used again (the end of its lockout, else of its window). */
async function secondsUntilFree(em: EntityManager, rule: LimitRule, now: Date): Promise<number> {
  const row = await limitRepository.findWindow(em, rule.key)
  if (!row) return 1
  const lockEnd = row.lockedUntil ? row.lockedUntil.getTime() : 0
  const freeAt = lockEnd > now.getTime() ? lockEnd : row.windowStartedAt.getTime() + rule.windowMs
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
      for (const rule of rules) await limitRepository.giveBack(em, rule.key)
    },

    /** Forgets the rules' counters and lockouts (e.g. the owner proved themselves from that address). */
    async clear(rules: readonly LimitRule[], em: EntityManager = orm.em.fork()): Promise<void> {
      for (const rule of rules) await limitRepository.delete(em, rule.key)
    },

    /** Forgets every key starting with `prefix`. */
    clearPrefix: (prefix: string, em: EntityManager = orm.em.fork()) => limitRepository.deletePrefix(em, prefix),

    /**
     * The reserved work failed: the uses stay counted, and a lockout key whose window is full is
     * locked (once per full window, however many failures arrive together).
     */
    async fail(rules: readonly LimitRule[]): Promise<void> {
      const at = now()
      const em = orm.em.fork()
      for (const rule of rules) {
        if (!rule.lockout) continue
        await limitRepository.lockIfFull(em, {
          key: rule.key,
          limit: rule.limit,
          at,
          windowStart: new Date(at.getTime() - rule.windowMs),
          forgetBefore: new Date(at.getTime() - FORGET_LOCKOUTS_MS),
          baseMs: rule.lockout.baseMs,
          maxMs: rule.lockout.maxMs,
        })
      }
    },

    /** Drops keys whose window and lockout are long over (keeps the table small under spraying). */
    async prune(maxWindowMs: number): Promise<void> {
      const at = now().getTime()
      await limitRepository.prune(orm.em.fork(), new Date(at - maxWindowMs), new Date(at - FORGET_LOCKOUTS_MS))
    },
  }
}
export type Limits = ReturnType<typeof createLimits>
