import { LockMode, type EntityManager } from '@mikro-orm/postgresql'
import { CERT_MESSAGES } from '@portal/contracts'
import { conflict, forbidden, inManagerScope, notFound, projectedUsers, withProjectedScope, type Actor, type ProjectedUser } from '@portal/server-kit'
import { CertificationPeriodEntity, TechnicianCertificationEntity } from './certification.entity.ts'

export { requireReadableUser } from '@portal/server-kit'

const userNotFound = () => notFound('User not found', 'user_not_found')
export const certificationNotFound = () => notFound(CERT_MESSAGES.certificationNotFound, 'certification_not_found')

/**
 * The user whose certifications `actor` may change (DESIGN "Security"): themself, or anyone for an
 * admin; a manager reads their scope but changes nothing (403). Null only for the caller themself
 * before their registration reached the projection.
 */
export async function requireEditableUser(em: EntityManager, actor: Actor, userId: string): Promise<ProjectedUser | null> {
  if (actor.userId !== userId && !actor.isAdmin) throw forbidden('You can only change your own certifications and settings', 'not_your_certification')
  const user = await projectedUsers.findAny(em, userId)
  if (user?.deletedAt) throw userNotFound()
  if (!user && actor.userId !== userId) throw userNotFound()
  return user
}

/**
 * Learner §2: certification features stay locked until the technician has chosen a branch and a
 * department (the Complete Your Profile modal); the server holds it too, for the technician's own
 * changes (an admin may still set up a new hire's certifications).
 */
export function requireCompleteProfile(actor: Actor, user: ProjectedUser | null): void {
  if (actor.isAdmin) return
  if (!user?.branch || !user.department) throw conflict(CERT_MESSAGES.profileIncomplete, 'profile_incomplete')
}

/** A technician's certification with its owner and what the caller may do with it. */
export interface AccessibleCertification {
  cert: TechnicianCertificationEntity
  owner: ProjectedUser | null
  /** The owner and admins edit, replace and delete. */
  canEdit: boolean
  /** The owner, admins and managers whose scope covers the owner delete proof files (learner §6). */
  canDeleteFile: boolean
}

/**
 * The certification `id` as far as `actor` may see it: the owner's and admins' own, and a manager's
 * when their scope covers the owner. Anyone else gets the same 404 as for an id that does not
 * exist, so ids reveal nothing. `lock` locks the row for the caller's transaction.
 */
export async function requireReadableCertification(em: EntityManager, actor: Actor, id: number, lock = false): Promise<AccessibleCertification> {
  const cert = await em.findOne(TechnicianCertificationEntity, { id }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {})
  if (!cert) throw certificationNotFound()
  const { owner, own, inScope } = await readerOf(em, actor, cert.userId)
  if (!own && !actor.isAdmin && !inScope) throw certificationNotFound()
  return { cert, owner, canEdit: own || actor.isAdmin, canDeleteFile: own || actor.isAdmin || inScope }
}

/** The owner of certifications and whether `actor` is them or a manager whose scope covers them. */
async function readerOf(em: EntityManager, actor: Actor, ownerId: string) {
  const owner = await projectedUsers.findAny(em, ownerId)
  const own = ownerId === actor.userId
  const manager = own || actor.isAdmin ? actor : await withProjectedScope(em, actor)
  const inScope =
    manager.isManager && owner !== null && !owner.deletedAt && inManagerScope(manager.managerScope, { branch: owner.branch ?? null, department: owner.department ?? null })
  return { owner, own, inScope }
}

/** Whose history of which type certification `id`'s is, and the certification while it is held. */
export interface ReadableHistory {
  cert: TechnicianCertificationEntity | null
  userId: string
  /** The certification type. */
  certificationId: number
  owner: ProjectedUser | null
}

/**
 * The history of certification `id` as far as `actor` may read it, by the rule of
 * `requireReadableCertification` (the same 404 for anyone else), also once the certification was
 * deleted: then its owner and type come from the periods it left.
 */
export async function requireReadableHistory(em: EntityManager, actor: Actor, id: number): Promise<ReadableHistory> {
  const cert = await em.findOne(TechnicianCertificationEntity, { id })
  const kept = cert ? null : await em.findOne(CertificationPeriodEntity, { technicianCertificationId: id }, { orderBy: { id: 'desc' } })
  const held = cert ?? kept
  if (!held) throw certificationNotFound()
  const { owner, own, inScope } = await readerOf(em, actor, held.userId)
  if (!own && !actor.isAdmin && !inScope) throw certificationNotFound()
  return { cert, userId: held.userId, certificationId: held.certificationId, owner }
}

/** 403 unless the caller may edit the certification. */
export function requireEdit(access: AccessibleCertification): void {
  if (!access.canEdit) throw forbidden('Only the technician and admins can change this certification', 'not_your_certification')
}
