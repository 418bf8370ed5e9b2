import type { EntityManager } from '@mikro-orm/postgresql'
import { ExamAssignmentEntity, ExamEntity, ExamQuestionEntity } from './exam.entity.ts'

export const examRepository = {
  /** Locks `exams` against other writers until the transaction ends (concurrent first starts seed once). */
  lockForSeeding: (em: EntityManager) => em.execute('lock table exams in share row exclusive mode'),
  /** A deleted user's exam assignments go. */
  deleteAssignmentsOfUser: (em: EntityManager, userId: string) => em.execute('delete from exam_assignments where user_id = ?', [userId]),
  /** Drops the exam's attempts under way (never graded): the exam is being deleted. */
  deleteAttemptsInProgressOfExam: (em: EntityManager, examId: number) => em.execute("delete from exam_attempts where exam_id = ? and status = 'in_progress'", [examId]),
  /** Drops the user's marks of where their attempt counts start (the user is being deleted). */
  deleteAttemptResetsOfUser: (em: EntityManager, userId: string) => em.execute('delete from exam_attempt_resets where user_id = ?', [userId]),
  /** Drops the user's attempts under way (never graded): the user is being deleted. */
  deleteAttemptsInProgressOfUser: (em: EntityManager, userId: string) => em.execute("delete from exam_attempts where user_id = ? and status = 'in_progress'", [userId]),
  findById: (em: EntityManager, id: number) => em.findOne(ExamEntity, { id }),
  listAll: (em: EntityManager) => em.find(ExamEntity, {}, { orderBy: { createdAt: 'desc', id: 'desc' } }),
  count: (em: EntityManager) => em.count(ExamEntity, {}),
  /** Exams assigned to everyone or to the user. */
  async listTakeable(em: EntityManager, userId: string) {
    const assigned = await em.find(ExamAssignmentEntity, { userId }, { fields: ['examId'] })
    return em.find(ExamEntity, { $or: [{ isAssignedToAll: true }, { id: { $in: assigned.map((a) => a.examId) } }] }, { orderBy: { createdAt: 'desc', id: 'desc' } })
  },
  questionsOf: (em: EntityManager, examIds: number[]) => em.find(ExamQuestionEntity, { examId: { $in: examIds } }, { orderBy: { examId: 'asc', position: 'asc', id: 'asc' } }),
  assignmentsOf: (em: EntityManager, examIds: number[]) => em.find(ExamAssignmentEntity, { examId: { $in: examIds } }, { orderBy: { assignedAt: 'asc', userId: 'asc' } }),
  isAssigned: async (em: EntityManager, examId: number, userId: string) => (await em.count(ExamAssignmentEntity, { examId, userId })) > 0,
  /** Attempts (any state) per exam of one user that count against the exam's limit (since a recurring assignment's new cycle, decision 0051). */
  async attemptCounts(em: EntityManager, userId: string): Promise<Map<number, number>> {
    const rows = (await em.execute(
      `select a.exam_id, count(*)::int as n from exam_attempts a left join exam_attempt_resets r on r.exam_id = a.exam_id and r.user_id = a.user_id
        where a.user_id = ? and a.attempt_number >= coalesce(r.counts_from, 1) group by a.exam_id`,
      [userId],
    )) as {
      exam_id: number
      n: number
    }[]
    return new Map(rows.map((r) => [Number(r.exam_id), Number(r.n)]))
  },
  /** The user's attempts still under way (status in_progress, deadline not passed), by exam; of one exam when `examId` is given. */
  async openAttempts(em: EntityManager, userId: string, now: Date, examId?: number) {
    const rows = (await em.execute(
      `select exam_id, attempt_number, started_at, deadline, answers from exam_attempts
       where user_id = ? and status = 'in_progress' and deadline > ?${examId === undefined ? '' : ' and exam_id = ?'}`,
      examId === undefined ? [userId, now] : [userId, now, examId],
    )) as { exam_id: number; attempt_number: number; started_at: Date | string; deadline: Date | string; answers: unknown[] }[]
    return new Map(
      rows.map((r) => [Number(r.exam_id), { attemptNumber: Number(r.attempt_number), startedAt: new Date(r.started_at), deadline: new Date(r.deadline), answers: r.answers }]),
    )
  },
}
