import type { EntityManager } from '@mikro-orm/postgresql'
import { AppError, projectedUsers } from '@portal/server-kit'

export { requireReadableUser } from '@portal/server-kit'

const SHOWN = 5
const listed = (items: string[]) => (items.length <= SHOWN ? items.join(', ') : `${items.slice(0, SHOWN).join(', ')} and ${items.length - SHOWN} more`)

/**
 * Only existing non-admin users may be given an exam or a course (admin §6: the assign dialog
 * offers only them); otherwise 400 naming the unknown ids and the admins, with one detail per id.
 * Call it inside the assigning transaction: the users stay share-locked until it ends.
 */
export async function requireAssignable(em: EntityManager, userIds: string[]): Promise<void> {
  const found = new Map((await projectedUsers.lockExisting(em, userIds)).map((u) => [u.id, u]))
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
