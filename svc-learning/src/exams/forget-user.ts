import type { EntityManager } from '@mikro-orm/postgresql'
import { examRepository } from './exam.repository.ts'

/**
 * What a deleted user leaves in the exams wing: their exam assignments, any attempt under way and
 * the marks of where their attempt counts start go; graded attempts stay (they are the history admins report on, and their events already went
 * out). Called by the identity consumer in the deletion's transaction.
 */
export async function forgetUser(em: EntityManager, userId: string): Promise<void> {
  await examRepository.deleteAssignmentsOfUser(em, userId)
  await examRepository.deleteAttemptsInProgressOfUser(em, userId)
  await examRepository.deleteAttemptResetsOfUser(em, userId)
}
