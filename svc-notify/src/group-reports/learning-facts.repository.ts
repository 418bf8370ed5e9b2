import type { EntityManager } from '@mikro-orm/postgresql'

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

  /** A deleted user's facts go with them. */
  dropUser: async (em: EntityManager, userId: string) => {
    await em.execute('delete from learner_exam_results where user_id = ?', [userId])
    await em.execute('delete from learner_course_progress where user_id = ?', [userId])
  },
}
