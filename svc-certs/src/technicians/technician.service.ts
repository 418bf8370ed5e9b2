import type { EntityManager } from '@mikro-orm/postgresql'
import {
  NOTIFICATION_PAUSE_DAYS,
  isExpiringSoon,
  nextTier,
  type CertificationSummary,
  type CertificationsOverview,
  type ConsistencyReport,
  type DeletedCertification,
  type TeamSummary,
  type TechnicianProfile,
  type TierLevel,
  type UserCertification,
} from '@portal/contracts'
import { ProjectedUser, badRequest, recordEvent, type Actor } from '@portal/server-kit'
import { certificationTypeRepository, toTierRequirement } from '../certification-types/index.ts'
import {
  type CertificationPeriodEntity,
  certificationRepository,
  requireEditableUser,
  requireReadableUser,
  statusFacts,
  toCertificationPeriod,
  toUserCertification,
} from '../certifications/index.ts'
import type { CertsContext } from '../context.ts'
import { complianceRequirements, consistencyReport, ledgerRepository, progressOf, requirementsFor, tierProgress } from '../compliance/index.ts'
import { TechnicianEntity } from './technician.entity.ts'
import { technicianRepository } from './technician.repository.ts'
import { revenueCards } from '../revenue/index.ts'

const DAY_MS = 86_400_000

/** Tier state of a technician (the defaults when svc-certs has no row yet). */
const tierState = (row: TechnicianEntity | null, at: Date) => {
  const until = row?.notificationsPausedUntil && row.notificationsPausedUntil > at ? row.notificationsPausedUntil : null
  return {
    current_tier: (row?.currentTier ?? 0) as TierLevel,
    notifications_paused: until !== null,
    notifications_paused_until: until?.toISOString() ?? null,
    rev_pay_ratio: row?.revPayRatio ?? null,
  }
}

/**
 * The certifications a technician deleted and does not hold again, each with the history kept for
 * it (`history` is newest first, so the first deleted is the latest deletion's), latest first.
 */
const deletedCertifications = (history: CertificationPeriodEntity[], held: ReadonlySet<number>): DeletedCertification[] =>
  [...Map.groupBy(history, (p) => p.certificationId)]
    .filter(([certificationId]) => !held.has(certificationId))
    .map(([certificationId, periods]) => ({
      certification_id: certificationId,
      user_certification_id: periods[0]!.technicianCertificationId,
      name: periods[0]!.certificationName,
      code: periods[0]!.certificationCode,
      history: periods.map(toCertificationPeriod),
    }))

/** Expiring soon (contracts' rule): not expired and within the warning band (30 days). */
const expiringSoon = (c: UserCertification) => c.days_until_expiry !== null && isExpiringSoon(c.days_until_expiry)

/**
 * Technicians' profiles and tier state (learner §2-§4, §7): profile, dashboard summary,
 * notification pause, and the admins' compliance overview.
 */
export interface TechnicianServiceDeps {
  /** The team dashboard's summary as an admin sees it (the team feature's), for the consistency check. */
  adminTeamSummary: (em: EntityManager, admin: Actor, today: string) => Promise<TeamSummary>
}

export function createTechnicianService(ctx: CertsContext, deps: TechnicianServiceDeps) {
  const { orm, now } = ctx

  /** What a profile is built from. */
  const load = async (em: EntityManager, userId: string, withHistory = false) => {
    const [tech, held, requirements, history] = await Promise.all([
      em.findOne(TechnicianEntity, { userId }),
      certificationRepository.listWithTypes(em, userId),
      certificationTypeRepository.requirements(em),
      withHistory ? certificationRepository.historiesOf(em, userId) : Promise.resolve([]),
    ])
    return { tech, held, requirements, history }
  }

  const build = (actor: Actor, userId: string, user: ProjectedUser | null, data: Awaited<ReturnType<typeof load>>) => {
    const at = now()
    const today = ctx.today()
    const tier = tierState(data.tech, at)
    const department = user?.department ?? null
    const histories = Map.groupBy(data.history, (p) => p.certificationId)
    const certifications = data.held.map(({ cert, type }) => toUserCertification(cert, type, today, histories.get(cert.certificationId) ?? []))
    const facts = new Map(data.held.map(({ cert, type }) => [cert.certificationId, statusFacts(cert, type)]))
    const heldIds = new Map(data.held.map(({ cert }) => [cert.certificationId, cert.id]))
    const shown = requirementsFor(data.requirements, department)
    const counting = complianceRequirements(data.requirements, { currentTier: tier.current_tier, department })
    return { at, today, tier, department, certifications, facts, heldIds, shown, counting }
  }

  return {
    /**
     * GET /technician/profile/{userId}: the user themself, managers whose scope covers them, admins.
     * `managerView` (the team's member detail) counts a requirement met only with its proof
     * uploaded where the type requires one (learner §4).
     */
    async profile(actor: Actor, userId: string, view: { managerView?: boolean } = {}): Promise<TechnicianProfile> {
      const em = orm.em.fork()
      const user = await requireReadableUser(em, actor, userId)
      const data = await load(em, userId, true)
      const b = build(actor, userId, user, data)
      const own = actor.userId === userId
      const next = b.tier.current_tier < 3 ? nextTier(b.tier.current_tier) : null
      return {
        user: {
          id: userId,
          // The caller themself before their registration reached the projection: the token's facts.
          name: user?.name ?? actor.name,
          email: user?.email ?? actor.email,
          employee_id: user?.employeeId ?? null,
          branch: user?.branch ?? null,
          department: b.department,
          hire_date: user?.hireDate ?? null,
        },
        tier: b.tier,
        tier_requirements: b.shown.map((r) => ({
          ...toTierRequirement(r),
          met: progressOf([r], b.facts, b.today, view).met === 1,
          user_certification_id: b.heldIds.get(r.certification_id) ?? null,
        })),
        certifications: b.certifications,
        deleted_certifications: deletedCertifications(data.history, new Set(data.held.map(({ cert }) => cert.certificationId))),
        upcoming_expirations: b.certifications.filter((c) => c.expiration_badge !== null).sort((x, y) => x.days_until_expiry! - y.days_until_expiry! || x.id - y.id),
        revenue_data: await revenueCards(em, userId, b.tier.current_tier, b.today),
        current_tier_progress: tierProgress(b.shown, b.facts, b.tier.current_tier, b.today, view),
        next_tier_progress: next === null ? null : tierProgress(b.shown, b.facts, next, b.today, view),
        // Whoever may read the profile may delete its proof files: the owner, admins, managers in scope (learner §6).
        permissions: { can_edit: own || actor.isAdmin, can_toggle_notifications: own, can_delete_files: true },
        as_of: b.today,
      }
    },

    /**
     * GET /technician/summary/{userId}: the dashboard's Certification Tracking figures; the team's
     * member report asks with `managerView` (learner §4, as `profile`).
     */
    async summary(actor: Actor, userId: string, view: { managerView?: boolean } = {}): Promise<CertificationSummary> {
      const em = orm.em.fork()
      const user = await requireReadableUser(em, actor, userId)
      const b = build(actor, userId, user, await load(em, userId))
      const compliance = progressOf(b.counting, b.facts, b.today, view)
      const next = b.tier.current_tier < 3 ? nextTier(b.tier.current_tier) : null
      return {
        total: b.certifications.length,
        valid: b.certifications.filter((c) => c.is_valid).length,
        expiring_soon: b.certifications.filter(expiringSoon).length,
        expired: b.certifications.filter((c) => !c.is_valid).length,
        required_total: compliance.total,
        required_met: compliance.met,
        current_tier: b.tier.current_tier,
        next_tier_progress: next === null ? null : tierProgress(b.shown, b.facts, next, b.today, view),
      }
    },

    /**
     * POST /technician/pause-notifications: 30 days from now, or until `pauseUntil` when sooner;
     * announced as `certs.notification-pause.changed.v1` (issue 24: svc-notify pauses assignment
     * reminders too), as is a resume.
     */
    async pause(actor: Actor, userId: string, pauseUntil?: string) {
      await requireEditableUser(orm.em.fork(), actor, userId)
      const at = now()
      const longest = new Date(at.getTime() + NOTIFICATION_PAUSE_DAYS * DAY_MS)
      const wanted = pauseUntil ? new Date(pauseUntil) : longest
      if (wanted <= at) throw badRequest('pauseUntil must be in the future', 'invalid_pause')
      const until = wanted < longest ? wanted : longest
      await orm.em.fork().transactional(async (em) => {
        await technicianRepository.pauseNotifications(em, userId, until, at)
        recordEvent(em, 'certs.notification-pause.changed.v1', { userId, pausedUntil: until.toISOString(), at: at.toISOString() })
      })
      return { message: `Notifications paused until ${until.toISOString().slice(0, 10)}`, notifications_paused: true, notifications_paused_until: until.toISOString() }
    },

    /** POST /technician/resume-notifications. */
    async resume(actor: Actor, userId: string) {
      await requireEditableUser(orm.em.fork(), actor, userId)
      const at = now()
      await orm.em.fork().transactional(async (em) => {
        await em.nativeUpdate(TechnicianEntity, { userId }, { notificationsPausedUntil: null, updatedAt: at })
        recordEvent(em, 'certs.notification-pause.changed.v1', { userId, pausedUntil: null, at: at.toISOString() })
      })
      return { message: 'Notifications resumed', notifications_paused: false, notifications_paused_until: null }
    },

    /**
     * GET /admin/certifications/overview: types, and the organisation's figures from the ledger
     * (issue 23), the same as Certification Notification Management and the team dashboard show:
     * technicians (every non-admin user), the two measures, expired and expiring-soon certifications.
     */
    /** GET /admin/certifications/consistency: every figure recomputed from the ledger and compared (issue 23). */
    async consistency(actor: Actor): Promise<ConsistencyReport> {
      return consistencyReport(orm.em.fork(), ctx.today(), now(), actor, deps.adminTeamSummary)
    },

    async overview(): Promise<CertificationsOverview> {
      const em = orm.em.fork()
      const today = ctx.today()
      const [types, { organisation: o }] = await Promise.all([certificationTypeRepository.listAll(em), ledgerRepository.figures(orm.em.fork(), today)])
      return {
        types_total: types.length,
        types_active: types.filter((t) => t.isActive).length,
        technicians: o.technicians,
        requirements_met: o.requirements_met ?? 0,
        no_expired: o.compliant,
        expired: o.expired_certifications,
        expiring_soon: o.expiring_30_days,
        as_of: today,
      }
    },
  }
}
export type TechnicianService = ReturnType<typeof createTechnicianService>
