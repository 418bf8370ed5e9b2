import type { EntityManager } from '@mikro-orm/postgresql'
import { assignmentRepository } from './assignment.repository.ts'
import { retakeRepository as repo, type RetakePair, type RetakeScope } from './retake.repository.ts'

export type { RetakeScope } from './retake.repository.ts'

/** What one roll forward did. */
export interface RetakeResult {
  /** Learners and items looked at (at most the limit asked). */
  pairs: number
  /** Rows of assignment rules moved on to their next cycle. */
  rolled: number
  /** Learners given a fresh start at a course, and at an exam's attempts. */
  courses: number
  exams: number
}

/**
 * Recurring training is retaken (issue 24, decision 0051): in `tx`, every row of the scope whose
 * next cycle has opened on `today` rolls forward (cycle + 1, the next cycle's dates, not completed:
 * `assignment_completions` keeps the cycle done), and its learner gets a fresh go at the item: a
 * course's progress and SCORM state start over (the state moved to the attempts' history), an
 * exam's attempt limit counts only attempts started from now on. Completing the item again then
 * completes the new cycle through the usual completion hook.
 *
 * Locks, in the order of decision 0051: each learner's lock of the item (what a module completion
 * and an exam start hold), the items' locks shared (as a completion takes them), the courses' rows,
 * then the assignment rows. At most `limit` learners and items per call: the scan calls again while
 * the answer's `pairs` reaches it.
 */
export async function rollForwardOpenedCycles(tx: EntityManager, p: { today: string; at: Date; scope?: RetakeScope; limit?: number }): Promise<RetakeResult> {
  const limit = p.limit ?? 500
  const pairs = await repo.openedPairs(tx, p.today, p.scope ?? {}, limit)
  if (pairs.length === 0) return { pairs: 0, rolled: 0, courses: 0, exams: 0 }
  await repo.lockLearnerItems(tx, pairs)
  const items = [...new Map(pairs.map((x) => [`${x.item_kind}:${x.item_id}`, x])).values()].sort((a, b) => a.item_kind.localeCompare(b.item_kind) || a.item_id - b.item_id)
  for (const item of items) await assignmentRepository.lockItem(tx, item.item_kind, item.item_id, 'shared')
  await repo.lockCourses(
    tx,
    items.filter((x) => x.item_kind === 'course').map((x) => x.item_id),
  )
  const rolled = await repo.roll(tx, p.today, pairs, p.at)
  const of = (kind: RetakePair['item_kind']) => rolled.filter((r) => r.item_kind === kind)
  const courses = of('course').map((r) => ({ course_id: r.item_id, user_id: r.user_id }))
  const exams = of('exam').map((r) => ({ exam_id: r.item_id, user_id: r.user_id }))
  await repo.restartCourses(tx, courses, p.at)
  await repo.restartExams(tx, exams, p.at)
  return { pairs: pairs.length, rolled: rolled.length, courses: courses.length, exams: exams.length }
}

/**
 * The lazy side of retakes: where a learner opens, launches or starts an item, a next cycle whose
 * window opened before the scan came by is rolled forward first, so the learner is never held back
 * by the scan's timing. A cheap read on the learner's index answers most calls; the roll forward
 * runs in the caller's transaction when it has one, else in its own.
 */
export async function openRetakes(em: EntityManager, scope: RetakeScope & { userId: string }, cal: { today: string; at: Date }): Promise<number> {
  if (!(await repo.anyOpened(em, cal.today, scope))) return 0
  const run = (tx: EntityManager) => rollForwardOpenedCycles(tx, { today: cal.today, at: cal.at, scope })
  const result = em.isInTransaction() ? await run(em) : await em.transactional(run)
  return result.rolled
}
