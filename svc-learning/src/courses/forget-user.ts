import type { EntityManager } from '@mikro-orm/postgresql'
import { courseRepository } from './course.repository.ts'

/**
 * What a deleted user leaves in the courses wing: their course assignments and their stored SCORM
 * runtime data (whole cmi trees, shared data stores) go; module progress and course completions
 * stay (they are the history admins report on, and their events already went out). Called by the
 * identity consumer in the deletion's transaction.
 */
export async function forgetUser(em: EntityManager, userId: string): Promise<void> {
  await courseRepository.deleteAssignmentsOfUser(em, userId)
  await courseRepository.deleteRuntimeDataOfUser(em, userId)
}
