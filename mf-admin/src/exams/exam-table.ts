import type { Exam } from '@portal/contracts'
import { byNumber, byText, type TableColumns } from '../table/index.ts'

/** Type column: max attempts shown only for final exams (admin §2). */
export const typeText = (e: Pick<Exam, 'exam_type' | 'max_attempts'>): string =>
  e.exam_type === 'final' ? `Final (max ${e.max_attempts ?? 1} attempt${e.max_attempts === 1 ? '' : 's'})` : 'Practice'

/** Assignment column. */
export const assignmentText = (e: Pick<Exam, 'is_assigned_to_all' | 'assigned_user_ids'>): string =>
  e.is_assigned_to_all ? 'All users' : e.assigned_user_ids.length === 0 ? 'Not assigned' : `${e.assigned_user_ids.length} user${e.assigned_user_ids.length === 1 ? '' : 's'}`

/** Search and sort of the Exams table. */
export const EXAM_COLUMNS: TableColumns<Exam, 'name' | 'type' | 'time' | 'questions' | 'assignment'> = {
  searchText: (e) => e.name,
  compare: {
    name: byText((e) => e.name),
    type: byText(typeText),
    time: byNumber((e) => e.time_limit),
    questions: byNumber((e) => e.questions.length),
    // All users first, then by how many are assigned.
    assignment: byNumber((e) => (e.is_assigned_to_all ? -1 : e.assigned_user_ids.length)),
  },
}
