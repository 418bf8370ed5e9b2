import type { z } from 'zod'
import { promotionTiers, TEAM_MESSAGES, type PromotionDecisionBody, type PromotionRequest, type PromotionStatus, type TierPromotionBody } from '@portal/contracts'
import { auditTrail, badRequest, conflict, notFound, recordEvent, type Actor } from '@portal/server-kit'
import type { CertsContext } from '../context.ts'
import { requireTeamMember, requireTeamViewer } from '../compliance/index.ts'
import { technicianRepository } from '../technicians/index.ts'
import { promotionRepository } from './promotion.repository.ts'

const requestNotFound = () => notFound('Promotion request not found', 'promotion_request_not_found')

const lockedTier = technicianRepository.lockedTier

/**
 * Tier promotions (learner §4, §5): a manager (for their team) or an admin asks for Tier 2 or 3,
 * above the current one, with a justification; the request waits until an admin approves it (the tier
 * changes, `certs.tier.promoted.v1` goes out through the outbox) or denies it, with a note. The
 * requester sees the outcome in their list and on the member detail.
 */
export function createPromotionService(ctx: CertsContext) {
  const { orm, now } = ctx
  return {
    /** POST /manager/tier-promotion. */
    async request(actor: Actor, body: z.output<typeof TierPromotionBody>): Promise<PromotionRequest> {
      return orm.em.fork().transactional(async (em) => {
        const viewer = await requireTeamViewer(em, actor)
        await requireTeamMember(em, viewer, body.userId)
        const current = await lockedTier(em, body.userId)
        if (current >= 3) throw badRequest(TEAM_MESSAGES.promotionAtTop, 'tier_at_top')
        // Only what the screen offers: Tier 2 or 3, above the current tier (learner §4).
        if (!promotionTiers(current).includes(body.newTier)) throw badRequest(TEAM_MESSAGES.promotionNotAbove, 'tier_not_above')
        const id = await promotionRepository.insertPending(em, {
          userId: body.userId,
          fromTier: current,
          toTier: body.newTier,
          justification: body.justification,
          requestedBy: actor.userId,
          requestedByName: actor.name,
          at: now(),
        })
        if (id === null) throw conflict(TEAM_MESSAGES.promotionPending, 'promotion_pending')
        return (await promotionRepository.byId(em, id))!
      })
    },
    /** GET /manager/tier-promotions: admins see every request, managers those they made. */
    async list(actor: Actor, status?: z.infer<typeof PromotionStatus>): Promise<PromotionRequest[]> {
      const em = orm.em.fork()
      const viewer = await requireTeamViewer(em, actor)
      return promotionRepository.list(em, { status, ...(viewer.scope === null ? {} : { requestedBy: actor.userId }) })
    },
    /** The requests about one member (the member detail), newest first. */
    about: (em: import('@mikro-orm/postgresql').EntityManager, userId: string) => promotionRepository.list(em, { userId }),
    /** POST /manager/tier-promotions/{id}/decision (admins). */
    async decide(actor: Actor, id: number, body: z.output<typeof PromotionDecisionBody>): Promise<PromotionRequest> {
      return orm.em.fork().transactional(async (em) => {
        const req = await promotionRepository.byId(em, id, true)
        if (!req) throw requestNotFound()
        if (req.status !== 'pending') throw conflict(TEAM_MESSAGES.promotionNotPending, 'promotion_decided')
        const at = now()
        if (body.approve) {
          const current = await lockedTier(em, req.user.id)
          // Promoted some other way meanwhile: approving would not raise the tier.
          if (req.to_tier <= current) throw conflict(TEAM_MESSAGES.promotionNotAbove, 'tier_not_above')
          await technicianRepository.setTier(em, req.user.id, req.to_tier, at)
          recordEvent(em, 'certs.tier.promoted.v1', {
            userId: req.user.id,
            requestId: req.id,
            fromTier: current,
            toTier: req.to_tier,
            requestedBy: req.requested_by.id,
            approvedBy: actor.userId,
          })
        }
        await promotionRepository.decide(em, id, { status: body.approve ? 'approved' : 'denied', by: actor.userId, byName: actor.name, at, note: body.note })
        await auditTrail.record(em, actor, body.approve ? 'tier_promotion.approved' : 'tier_promotion.denied', req.user.name, {
          user_id: req.user.id,
          request_id: req.id,
          from_tier: req.from_tier,
          to_tier: req.to_tier,
          note: body.note ?? null,
        })
        await em.flush()
        return (await promotionRepository.byId(em, id))!
      })
    },
  }
}
export type PromotionService = ReturnType<typeof createPromotionService>
