import type { ExamSummary } from '@portal/contracts'
import { ApiError } from '@portal/ui-kit'
import { describe, expect, it } from 'vitest'
import { attemptsText, attemptsUsedUp, dashboardError, openAttemptText, scoreText, statText } from './exam-cards.ts'

const exam = (over: Partial<ExamSummary>): ExamSummary => ({
  id: 1,
  name: 'Safety',
  time_limit: 60,
  pass_score: 70,
  total_questions: 10,
  exam_type: 'practice',
  max_attempts: null,
  attempts_used: 0,
  is_assigned_to_all: false,
  ...over,
})

describe('exam cards', () => {
  it('shows attempts used and allowed for final exams only', () => {
    expect(attemptsText(exam({}))).toBeNull()
    expect(attemptsText(exam({ exam_type: 'final', max_attempts: 3, attempts_used: 1 }))).toBe('Attempts: 1 / 3')
  })

  it('knows when a final exam has no attempts left', () => {
    expect(attemptsUsedUp(exam({ exam_type: 'final', max_attempts: 2, attempts_used: 2 }))).toBe(true)
    expect(attemptsUsedUp(exam({ exam_type: 'final', max_attempts: 2, attempts_used: 1 }))).toBe(false)
    expect(attemptsUsedUp(exam({ attempts_used: 9 }))).toBe(false)
  })

  it('offers to resume an attempt under way, with its time left, even when it was the last one', () => {
    const open = { attempt_number: 2, started_at: '', deadline: '', seconds_left: 41 * 60 + 5, answered: 3, questions: 10 }
    const final = exam({ exam_type: 'final', max_attempts: 2, attempts_used: 2, open_attempt: open })
    expect(attemptsUsedUp(final)).toBe(false)
    expect(openAttemptText(final)).toBe('Attempt under way: 42 minutes left')
    expect(openAttemptText(exam({ open_attempt: null }))).toBeNull()
  })

  it('uses the spec messages for dashboard load errors', () => {
    expect(dashboardError(new ApiError(401, 'unauthorized', 'x', null))).toBe('Authentication failed. Please log in again.')
    expect(dashboardError(new ApiError(500, 'internal', 'x', null))).toBe('Failed to load data. Please try again later.')
    expect(dashboardError(new ApiError(503, 'down', 'x', null, 'Service unavailable'))).toBe('Service unavailable')
  })

  it('formats scores', () => {
    expect(scoreText(83.333)).toBe('83.3%')
  })

  it('shows no figure, not 0%, for statistics over nothing yet', () => {
    expect(statText(0, 0)).toBeNull()
    expect(statText(0, 2)).toBe('0%')
    expect(statText(72.25, 3)).toBe('72.3%')
  })
})
