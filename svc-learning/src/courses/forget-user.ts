import type { EntityManager } from '@mikro-orm/postgresql'

/**
 * What a deleted user leaves in the courses wing: their course assignments and their stored SCORM
 * runtime data (whole cmi trees, shared data stores) go; module progress and course completions
 * stay (they are the history admins report on, and their events already went out). Called by the
 * identity consumer in the deletion's transaction.
 */
export async function forgetUser(em: EntityManager, userId: string): Promise<void> {
  await em.execute('delete from course_assignments where user_id = ?', [userId])
  await em.execute('delete from scorm_states where user_id = ?', [userId])
  await em.execute('delete from scorm_shared_data where user_id = ?', [userId])
}
