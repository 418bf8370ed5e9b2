import type { ExamSummary } from '@portal/contracts'
import { ApiError } from '@portal/ui-kit'

/** "Attempts: used / allowed" for final exams; practice exams have no limit to show. */
export const attemptsText = (exam: ExamSummary): string | null =>
  exam.exam_type === 'final' && exam.max_attempts !== null ? `Attempts: ${exam.attempts_used} / ${exam.max_attempts}` : null

/** A final exam whose attempts are all used cannot be started again (an attempt under way can still be resumed). */
export const attemptsUsedUp = (exam: ExamSummary): boolean =>
  !exam.open_attempt && exam.exam_type === 'final' && exam.max_attempts !== null && exam.attempts_used >= exam.max_attempts

/** "Attempt under way: 42 minutes left" (its clock runs on the server), or null. */
export const openAttemptText = (exam: ExamSummary): string | null => {
  const open = exam.open_attempt
  if (!open) return null
  const minutes = Math.ceil(open.seconds_left / 60)
  return `Attempt under way: ${minutes} minute${minutes === 1 ? '' : 's'} left`
}

/** Dashboard load errors of learner §8 (the server's message wins when it sent one). */
export const dashboardError = (err: unknown): string => {
  if (err instanceof ApiError && err.status === 401) return 'Authentication failed. Please log in again.'
  return err instanceof ApiError && err.serverMessage ? err.serverMessage : 'Failed to load data. Please try again later.'
}

/** A score as shown on the statistics card: at most one decimal, with a percent sign. */
export const scoreText = (score: number): string => `${Math.round(score * 10) / 10}%`

/** A percentage over `counted` things (exams taken, courses started): none counted is no data (null), not 0%. */
export const statText = (score: number, counted: number): string | null => (counted > 0 ? scoreText(score) : null)
