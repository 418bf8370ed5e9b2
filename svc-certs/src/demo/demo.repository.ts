import type { EntityManager } from '@mikro-orm/postgresql'

/** The demo data's statements (decision 0046): the demo users it waits for, the lock of concurrent first starts, and its revenue and promotion rows. */
export const demoRepository = {
  /** How many of these e-mails belong to users identity has sent (not deleted). */
  async usersPresent(em: EntityManager, emails: string[]): Promise<number> {
    const rows = (await em.execute('select count(*)::int as n from users where deleted_at is null and email in (?)', [emails])) as { n: number }[]
    return Number(rows[0]!.n)
  },

  /** Serializes concurrent first starts of several instances (until the caller's transaction ends). */
  async lockTypes(em: EntityManager): Promise<void> {
    await em.execute('lock table certification_types in share row exclusive mode')
  },

  async usersByEmail(em: EntityManager, emails: string[]): Promise<{ id: string; name: string; email: string }[]> {
    return (await em.execute('select id, name, email from users where email in (?)', [emails])) as { id: string; name: string; email: string }[]
  },

  async addRevenue(em: EntityManager, r: { userId: string; month: string; gross: number; pay: number; enteredBy: string; at: Date }): Promise<void> {
    await em.execute('insert into revenue_records (user_id, month, gross_revenue, pay_amount, entered_by, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)', [
      r.userId,
      r.month,
      r.gross,
      r.pay,
      r.enteredBy,
      r.at,
      r.at,
    ])
  },

  async addPendingPromotion(
    em: EntityManager,
    p: { userId: string; fromTier: number; toTier: number; justification: string; requestedBy: string; requestedByName: string; at: Date },
  ): Promise<void> {
    await em.execute(
      `insert into promotion_requests (user_id, from_tier, to_tier, justification, status, requested_by, requested_by_name, requested_at) values (?, ?, ?, ?, 'pending', ?, ?, ?)`,
      [p.userId, p.fromTier, p.toTier, p.justification, p.requestedBy, p.requestedByName, p.at],
    )
  },
}
