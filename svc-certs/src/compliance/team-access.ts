import type { EntityManager } from '@mikro-orm/postgresql'
import { TECHNICIAN_CONDITIONS } from './ledger.repository.ts'
import { TEAM_MESSAGES, type ManagerScope } from '@portal/contracts'
import { forbidden, inManagerScope, notFound, projectedUsers, withProjectedScope, type Actor, type ProjectedUser } from '@portal/server-kit'

/** Whose team a caller sees: everyone's (admins) or a manager's scope (empty lists cover all). */
export interface TeamViewer {
  actor: Actor
  /** Null for admins: every non-admin user. */
  scope: ManagerScope | null
}

export const memberNotFound = () => notFound(TEAM_MESSAGES.memberNotFound, 'member_not_found')

/**
 * The caller as a team viewer (DESIGN "Security"): admins see everyone, managers the users their
 * scope covers (the projection's latest scope), anyone else gets 403 before any data is read.
 */
export async function requireTeamViewer(em: EntityManager, actor: Actor): Promise<TeamViewer> {
  if (actor.isAdmin) return { actor, scope: null }
  const manager = await withProjectedScope(em, actor)
  if (!manager.isManager) throw forbidden(TEAM_MESSAGES.managersOnly, 'manager_required')
  return { actor: manager, scope: manager.managerScope }
}

/** Whether the viewer's team includes this user. */
export const inTeam = (viewer: TeamViewer, user: Pick<ProjectedUser, 'branch' | 'department'>) =>
  viewer.scope === null || inManagerScope(viewer.scope, { branch: user.branch ?? null, department: user.department ?? null })

/**
 * A member of the viewer's team: a known, non-admin user (404 `member_not_found` otherwise); one
 * outside a manager's scope is 403, as for the technician profile.
 */
export async function requireTeamMember(em: EntityManager, viewer: TeamViewer, userId: string): Promise<ProjectedUser> {
  const user = await projectedUsers.findExisting(em, userId)
  if (!user || user.isAdmin || user.name === null) throw memberNotFound()
  if (!inTeam(viewer, user)) throw forbidden('This technician is not in your team', 'not_in_team')
  return user
}

/** SQL conditions on `users u` limiting rows to the viewer's team (non-admin users in scope). */
export function teamConditions(viewer: TeamViewer): { where: string[]; params: unknown[] } {
  const where: string[] = [...TECHNICIAN_CONDITIONS]
  const params: unknown[] = []
  if (viewer.scope?.branches.length) {
    where.push('u.branch in (?)')
    params.push(viewer.scope.branches)
  }
  if (viewer.scope?.departments.length) {
    where.push('u.department in (?)')
    params.push(viewer.scope.departments)
  }
  return { where, params }
}
