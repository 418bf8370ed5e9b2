import { sqlConditions } from '@portal/server-kit'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { Branch, Department, PromotionRequest, TierLevel } from '@portal/contracts'
import { z } from 'zod'
import type { PromotionStatus } from '@portal/contracts'

type Status = z.infer<typeof PromotionStatus>

interface RequestSql {
  id: number
  user_id: string
  name: string | null
  branch: Branch | null
  department: Department | null
  from_tier: number
  to_tier: number
  justification: string
  status: Status
  requested_by: string
  requested_by_name: string
  requested_at: Date
  decided_by: string | null
  decided_by_name: string | null
  decided_at: Date | null
  decision_note: string | null
}

const toRequest = (r: RequestSql): PromotionRequest => ({
  id: Number(r.id),
  user: { id: r.user_id, name: r.name ?? '', branch: r.branch, department: r.department },
  from_tier: Number(r.from_tier) as TierLevel,
  to_tier: Number(r.to_tier) as TierLevel,
  justification: r.justification,
  status: r.status,
  requested_by: { id: r.requested_by, name: r.requested_by_name },
  requested_at: new Date(r.requested_at).toISOString(),
  decided_by: r.decided_by ? { id: r.decided_by, name: r.decided_by_name ?? '' } : null,
  decided_at: r.decided_at ? new Date(r.decided_at).toISOString() : null,
  decision_note: r.decision_note,
})

const SELECT = `select p.*, u.name, u.branch, u.department from promotion_requests p left join users u on u.id = p.user_id`

export const promotionRepository = {
  /** Stores a pending request; null when one is pending for the technician already. */
  async insertPending(
    em: EntityManager,
    r: { userId: string; fromTier: TierLevel; toTier: TierLevel; justification: string; requestedBy: string; requestedByName: string; at: Date },
  ): Promise<number | null> {
    const rows = (await em.execute(
      `insert into promotion_requests (user_id, from_tier, to_tier, justification, status, requested_by, requested_by_name, requested_at)
       values (?, ?, ?, ?, 'pending', ?, ?, ?) on conflict (user_id) where status = 'pending' do nothing returning id`,
      [r.userId, r.fromTier, r.toTier, r.justification, r.requestedBy, r.requestedByName, r.at],
    )) as { id: number }[]
    return rows[0] ? Number(rows[0].id) : null
  },
  async byId(em: EntityManager, id: number, lock = false): Promise<PromotionRequest | null> {
    const rows = (await em.execute(`${SELECT} where p.id = ?${lock ? ' for update of p' : ''}`, [id])) as RequestSql[]
    return rows[0] ? toRequest(rows[0]) : null
  },
  /** Newest first; all of them, or those `requestedBy` made, or those about `userId`. */
  async list(em: EntityManager, f: { status?: Status | undefined; requestedBy?: string; userId?: string }): Promise<PromotionRequest[]> {
    const filter = sqlConditions().when(f.status, 'p.status = ?', f.status).when(f.requestedBy, 'p.requested_by = ?', f.requestedBy).when(f.userId, 'p.user_id = ?', f.userId)
    return ((await em.execute(`${SELECT} ${filter.where} order by p.requested_at desc, p.id desc limit 500`, filter.values)) as RequestSql[]).map(toRequest)
  },
  decide: (em: EntityManager, id: number, d: { status: 'approved' | 'denied'; by: string; byName: string; at: Date; note: string | null }) =>
    em.execute('update promotion_requests set status = ?, decided_by = ?, decided_by_name = ?, decided_at = ?, decision_note = ? where id = ?', [
      d.status,
      d.by,
      d.byName,
      d.at,
      d.note,
      id,
    ]),
}
