// @vitest-environment happy-dom
import type { ExamSubmissionResult } from '@portal/contracts'
import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ResultsView } from './ResultsView.tsx'

const result: ExamSubmissionResult = {
  attemptId: '3f1c7a52-6a1e-4f5e-9d7a-0c8e2b1d4a10',
  examId: 1,
  exam_name: 'Safety',
  score: 50,
  passed: false,
  pass_score: 70,
  correct_answers: 1,
  total_questions: 2,
  attempt_number: 1,
  // As the server gives them: the options in the order this attempt showed them, answers as indexes into it.
  question_results: [
    {
      question_id: 1,
      question_text: 'Angle?',
      options: ['2:1', '1:1', '4:1'],
      question_type: 'multiple_choice',
      subject_category: null,
      user_answer: 0,
      correct_answer: 2,
      is_correct: false,
      weight: 1,
    },
    {
      question_id: 2,
      question_text: 'Inspect?',
      options: ['Colour', 'Feet', 'Rungs'],
      question_type: 'multi_select',
      subject_category: null,
      user_answer: [1, 2],
      correct_answer: [1, 2],
      is_correct: true,
      weight: 1,
    },
    {
      question_id: 3,
      question_text: 'Skipped?',
      options: ['Yes', 'No'],
      question_type: 'multiple_choice',
      subject_category: null,
      user_answer: -1,
      correct_answer: 1,
      is_correct: false,
      weight: 1,
    },
  ],
  section_scores: [],
  submitted_at: '2026-01-01T10:00:00Z',
}

/** The review's option lines of question `n`, as read, in the order shown. */
const optionLines = (n: number) =>
  within(screen.getByRole('list', { name: `Options of question ${n} as you saw them` }))
    .getAllByRole('listitem')
    .map((li) => [...li.children].map((c) => c.textContent).join(' '))

describe('ResultsView', () => {
  it('reviews each question with its options in the order the learner saw them, their answer and the correct ones marked', () => {
    render(<ResultsView result={result} onDone={() => undefined} />)
    expect(optionLines(1)).toEqual(['2:1 Your answer', '1:1', '4:1 Correct answer'])
    expect(optionLines(2)).toEqual(['Colour', 'Feet Your answer Correct answer', 'Rungs Your answer Correct answer'])
    expect(optionLines(3)).toEqual(['Yes', 'No Correct answer'])
    expect(screen.getAllByText(/Not answered/)).toHaveLength(1)
  })
})
