import type { EntityManager, MikroORM } from '@mikro-orm/postgresql'
import { AppError, createTokenCheck, notFound, requireSelfOrAdmin, requireUserAccess, type Actor, type TokenCheck } from '@portal/server-kit'
import type { UserEntity } from './user.entity.ts'
import { userRepository } from './user.repository.ts'

const userNotFound = () => notFound('User not found', 'user_not_found')

/**
 * The user whose records `actor` asks for (DESIGN "Security"): technicians only themselves,
 * managers the users their scope covers, admins everyone. 404 for a user identity does not know
 * (or deleted); the branch and department a manager's scope is checked against come from the
 * projection.
 */
export async function requireReadableUser(em: EntityManager, actor: Actor, userId: string): Promise<UserEntity | null> {
  // Refused before the lookup, so a technician learns nothing about other ids.
  if (!actor.isAdmin && !actor.isManager) requireSelfOrAdmin(actor, userId)
  const user = await userRepository.findAny(em, userId)
  if (user?.deletedAt) throw userNotFound()
  // The signed token vouches for its own user, whose registration may not have reached the
  // projection yet (the shell checks a session with this call: a 404 would sign them out).
  if (actor.userId === userId) return user
  if (!user) throw userNotFound()
  requireUserAccess(actor, { id: user.id, branch: user.branch ?? null, department: user.department ?? null })
  return user
}

const SHOWN = 5
const listed = (items: string[]) => (items.length <= SHOWN ? items.join(', ') : `${items.slice(0, SHOWN).join(', ')} and ${items.length - SHOWN} more`)

/**
 * Only existing non-admin users may be given an exam or a course (admin §6: the assign dialog
 * offers only them); otherwise 400 naming the unknown ids and the admins, with one detail per id.
 * Call it inside the assigning transaction: the users stay share-locked until it ends.
 */
export async function requireAssignable(em: EntityManager, userIds: string[]): Promise<void> {
  const found = new Map((await userRepository.lockExisting(em, userIds)).map((u) => [u.id, u]))
  const unknown = userIds.filter((id) => !found.has(id))
  const admins = userIds.flatMap((id) => (found.get(id)?.isAdmin ? [found.get(id)!] : []))
  if (unknown.length === 0 && admins.length === 0) return
  const message = [
    'Only existing non-admin users can be assigned.',
    ...(unknown.length ? [`Unknown user id(s): ${listed(unknown)}.`] : []),
    ...(admins.length ? [`Admin(s): ${listed(admins.map((a) => a.name ?? a.id))}.`] : []),
  ].join(' ')
  throw new AppError(400, 'invalid_assignees', message, {
    details: [
      ...unknown.map((userId) => ({ path: 'userIds', userId, message: 'Unknown user' })),
      ...admins.map((a) => ({ path: 'userIds', userId: a.id, message: 'Admins cannot be assigned' })),
    ],
  })
}

/**
 * Refuses (401 token_stale) the token of a user the projection marks deleted, or whose auth version
 * rose after the token was issued (roles changed, password reset); identity's events bring both.
 */
export const userTokenCheck = (orm: MikroORM): TokenCheck => createTokenCheck((id) => userRepository.authState(orm.em.fork(), id))
