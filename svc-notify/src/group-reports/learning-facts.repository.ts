import type { EntityManager } from '@mikro-orm/postgresql'

/** A learner's standing on one exam, as the projection holds it. */
export interface ExamResultFact {
  userId: string
  examId: number
  attempts: number
  bestScore: number
  passed: boolean
}
/** A learner's progress on one course, as the projection holds it. */
export interface CourseProgressFact {
  userId: string
  courseId: number
  progress: number
  completedAt: Date | null
}
interface ExamResultRow {
  user_id: string
  exam_id: number
  attempts: number
  best_score: string | number
  passed: boolean
}
interface CourseProgressRow {
  user_id: string
  course_id: number
  progress: number
  completed_at: Date | string | null
}

/**
 * Notify's projection of learning's exam and course events, per learner: what group reports and
 * immediate rule mails are built from (never a call to learning on the request path).
 */
export const learningFacts = {
  /** One more graded attempt: best score and passed ever, latest exam name. */
  examSubmitted: (em: EntityManager, f: { userId: string; examId: number; examName: string; score: number; passed: boolean; at: Date }) =>
    em.execute(
      `insert into learner_exam_results (user_id, exam_id, exam_name, attempts, best_score, passed, last_submitted_at) values (?, ?, ?, 1, ?, ?, ?)
       on conflict (user_id, exam_id) do update set
         exam_name = excluded.exam_name, attempts = learner_exam_results.attempts + 1,
         best_score = greatest(learner_exam_results.best_score, excluded.best_score),
         passed = learner_exam_results.passed or excluded.passed,
         last_submitted_at = greatest(learner_exam_results.last_submitted_at, excluded.last_submitted_at)`,
      [f.userId, f.examId, f.examName, f.score, f.passed, f.at],
    ),

  /** Progress made on a course (percent, never going back); completion sets 100 and the date. */
  courseProgressed: (em: EntityManager, f: { userId: string; courseId: number; courseTitle: string; progress: number; completedAt: Date | null; at: Date }) =>
    em.execute(
      `insert into learner_course_progress (user_id, course_id, course_title, progress, completed_at, last_activity_at) values (?, ?, ?, ?, ?, ?)
       on conflict (user_id, course_id) do update set
         course_title = excluded.course_title,
         progress = greatest(learner_course_progress.progress, excluded.progress),
         completed_at = coalesce(learner_course_progress.completed_at, excluded.completed_at),
         last_activity_at = greatest(learner_course_progress.last_activity_at, excluded.last_activity_at)`,
      [f.userId, f.courseId, f.courseTitle, Math.max(0, Math.min(100, Math.round(f.progress))), f.completedAt, f.at],
    ),

  /** The exam results of the users on the exams (none asked: none found). */
  async examResults(em: EntityManager, userIds: readonly string[], examIds: readonly number[]): Promise<ExamResultFact[]> {
    const rows = (await em.execute(
      `select user_id, exam_id, attempts, best_score, passed from learner_exam_results
        where user_id = any(string_to_array(?, ',')::uuid[]) and exam_id = any(string_to_array(?, ',')::int[])`,
      [userIds.join(','), examIds.join(',') || '0'],
    )) as ExamResultRow[]
    return rows.map((r) => ({ userId: r.user_id, examId: r.exam_id, attempts: r.attempts, bestScore: Number(r.best_score), passed: r.passed }))
  },

  /** The course progress of the users on the courses (none asked: none found). */
  async courseProgress(em: EntityManager, userIds: readonly string[], courseIds: readonly number[]): Promise<CourseProgressFact[]> {
    const rows = (await em.execute(
      `select user_id, course_id, progress, completed_at from learner_course_progress
        where user_id = any(string_to_array(?, ',')::uuid[]) and course_id = any(string_to_array(?, ',')::int[])`,
      [userIds.join(','), courseIds.join(',') || '0'],
    )) as CourseProgressRow[]
    return rows.map((r) => ({ userId: r.user_id, courseId: r.course_id, progress: r.progress, completedAt: r.completed_at ? new Date(r.completed_at) : null }))
  },

  /** A deleted user's facts go with them. */
  dropUser: async (em: EntityManager, userId: string) => {
    await em.execute('delete from learner_exam_results where user_id = ?', [userId])
    await em.execute('delete from learner_course_progress where user_id = ?', [userId])
  },
}
