import type { EntityManager } from '@mikro-orm/postgresql'
import { forbidden, notFound, type Actor } from '@portal/server-kit'
import type { ExamEntity } from './exam.entity.ts'
import { examRepository } from './exam.repository.ts'

/**
 * Who may take or see what in the exams wing, called first by each service method: admins take
 * and see every exam, learners those assigned to everyone or to them; an attempt is its owner's
 * alone. Admin-only methods are gated by their routes.
 */

export const examNotFound = () => notFound('Exam not found', 'exam_not_found')
export const attemptNotFound = () => notFound('Attempt not found', 'attempt_not_found')

/**
 * The exam `actor` may take: admins any, others those assigned to everyone or to them.
 * 404 when it does not exist, 403 when it is not assigned to the caller.
 */
export async function requireTakeable(em: EntityManager, actor: Actor, examId: number): Promise<ExamEntity> {
  const exam = await examRepository.findById(em, examId)
  if (!exam) throw examNotFound()
  if (!actor.isAdmin && !exam.isAssignedToAll && !(await examRepository.isAssigned(em, examId, actor.userId)))
    throw forbidden('This exam is not assigned to you', 'exam_not_assigned')
  return exam
}

/** The exams `actor` may take (admins: every exam), newest first. */
export const takeableExams = (em: EntityManager, actor: Actor) => (actor.isAdmin ? examRepository.listAll(em) : examRepository.listTakeable(em, actor.userId))

/** A submit naming a user names the caller (403 otherwise). */
export function requireSubmitterIsCaller(actor: Actor, userId: string | undefined): void {
  if (userId !== undefined && userId !== actor.userId) throw forbidden('You can only submit your own exam attempts', 'not_your_attempt')
}

/** The caller's own attempt (of `examId` when given); another's, or none, is 404. */
export function requireOwnAttempt<A extends { userId: string; examId: number }>(actor: Actor, attempt: A | null | undefined, examId?: number): A {
  if (!attempt || attempt.userId !== actor.userId || (examId !== undefined && attempt.examId !== examId)) throw attemptNotFound()
  return attempt
}
