import type { EntityManager } from '@mikro-orm/postgresql'
import type { TierLevel } from '@portal/contracts'

/**
 * The technicians' rows (tier, notification pause, rev/pay ratio; decision 0046): written with an
 * upsert, since a technician without a row is tier 0 with notifications on and no ratio.
 */
export const technicianRepository = {
  /** The technician's tier (0 without a row), locked for the caller's transaction. */
  async lockedTier(em: EntityManager, userId: string): Promise<TierLevel> {
    await em.execute(`insert into technicians (user_id, current_tier, updated_at) values (?, 0, now()) on conflict (user_id) do nothing`, [userId])
    const rows = (await em.execute('select current_tier from technicians where user_id = ? for update', [userId])) as { current_tier: number }[]
    return Number(rows[0]!.current_tier) as TierLevel
  },

  /** Sets the tier of a technician whose row exists (see `lockedTier`). */
  async setTier(em: EntityManager, userId: string, tier: TierLevel, at: Date): Promise<void> {
    await em.execute('update technicians set current_tier = ?, updated_at = ? where user_id = ?', [tier, at, userId])
  },

  /** Sets the rev/pay ratio target: the ratio it had before (null: none). */
  async setRevPay(em: EntityManager, userId: string, ratio: number, at: Date): Promise<number | null> {
    const [before] = (await em.execute(
      `insert into technicians (user_id, current_tier, rev_pay_ratio, updated_at) values (?, 0, ?, ?)
       on conflict (user_id) do update set rev_pay_ratio = excluded.rev_pay_ratio, updated_at = excluded.updated_at
       returning (select rev_pay_ratio from technicians where user_id = ?) as before`,
      [userId, ratio, at, userId],
    )) as { before: string | null }[]
    return before?.before == null ? null : Number(before.before)
  },

  /** Pauses the technician's own expiry notifications until `until`. */
  async pauseNotifications(em: EntityManager, userId: string, until: Date, at: Date): Promise<void> {
    await em.execute(
      `insert into technicians (user_id, current_tier, notifications_paused_until, updated_at) values (?, 0, ?, ?)
       on conflict (user_id) do update set notifications_paused_until = excluded.notifications_paused_until, updated_at = excluded.updated_at`,
      [userId, until, at],
    )
  },
}
