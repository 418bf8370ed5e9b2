import type { EntityManager } from '@mikro-orm/postgresql'

/** The SQL of exam attempts (`exam_attempts`); snapshots and results are JSON documents sent as parameters. */
export const attemptRepository = {
  /** Drops the exam's attempts under way (never graded): the exam is being deleted. */
  deleteInProgressOfExam: (em: EntityManager, examId: number) => em.execute("delete from exam_attempts where exam_id = ? and status = 'in_progress'", [examId]),

  /** Drops the user's attempts under way (never graded): the user is being deleted. */
  deleteInProgressOfUser: (em: EntityManager, userId: string) => em.execute("delete from exam_attempts where user_id = ? and status = 'in_progress'", [userId]),
}
