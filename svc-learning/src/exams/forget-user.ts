import type { EntityManager } from '@mikro-orm/postgresql'

/**
 * What a deleted user leaves in the exams wing: their exam assignments and any attempt under way
 * go; graded attempts stay (they are the history admins report on, and their events already went
 * out). Called by the identity consumer in the deletion's transaction.
 */
export async function forgetUser(em: EntityManager, userId: string): Promise<void> {
  await em.execute('delete from exam_assignments where user_id = ?', [userId])
  await em.execute("delete from exam_attempts where user_id = ? and status = 'in_progress'", [userId])
}
