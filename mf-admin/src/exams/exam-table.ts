import type { Exam } from '@portal/contracts'

/** Type column: max attempts shown only for final exams (admin §2). */
export const typeText = (e: Pick<Exam, 'exam_type' | 'max_attempts'>): string =>
  e.exam_type === 'final' ? `Final (max ${e.max_attempts ?? 1} attempt${e.max_attempts === 1 ? '' : 's'})` : 'Practice'

/** Assignment column. */
export const assignmentText = (e: Pick<Exam, 'is_assigned_to_all' | 'assigned_user_ids'>): string =>
  e.is_assigned_to_all
    ? 'All users'
    : e.assigned_user_ids.length === 0
      ? 'Not assigned'
      : `${e.assigned_user_ids.length} user${e.assigned_user_ids.length === 1 ? '' : 's'}`
