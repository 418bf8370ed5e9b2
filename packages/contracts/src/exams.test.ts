import { describe, expect, it } from 'vitest'
import { ExamInput } from './exams.ts'

const q = (over: Record<string, unknown> = {}) => ({
  question_type: 'multiple_choice',
  question_text: 'What is 2 + 2?',
  options: ['3', '4', ' '],
  correct_answer: 1,
  subject_category: 'Math',
  ...over,
})
const exam = (over: Record<string, unknown> = {}) => ({
  name: 'Safety',
  time_limit: 60,
  pass_score: 70,
  total_questions: 1,
  subject_categories: ['Math'],
  exam_type: 'practice',
  max_attempts: 3,
  questions: [q()],
  ...over,
})
const messages = (v: unknown) => ExamInput.safeParse(v).error?.issues.map((i) => i.message) ?? []

describe('ExamInput', () => {
  it('drops blank options and forces max_attempts to null for practice exams', () => {
    const e = ExamInput.parse(exam())
    expect(e.questions[0]!.options).toEqual(['3', '4'])
    expect(e.max_attempts).toBeNull()
    expect(ExamInput.parse(exam({ exam_type: 'final', max_attempts: undefined })).max_attempts).toBe(1)
  })
  it('refuses a pool smaller than the questions drawn', () => {
    expect(messages(exam({ total_questions: 2 }))).toContain('Not enough questions in the pool')
    expect(messages(exam({ total_questions: 0 }))).toContain('Must have at least 1 question')
  })
  it('refuses empty or duplicate categories and unknown ones on questions', () => {
    expect(messages(exam({ subject_categories: ['Math', ' math '] }))).toContain('Subject category names must be unique')
    expect(messages(exam({ subject_categories: ['Math', ' '] }))).toContain('Subject category names cannot be empty')
    expect(messages(exam({ questions: [q({ subject_category: 'Art' })] }))).toContain('Unknown subject category')
  })
  it('checks correct answers against the options', () => {
    expect(messages(exam({ questions: [q({ correct_answer: 2 })] }))).toContain('The correct answer must be one of the options')
    expect(ExamInput.safeParse(exam({ questions: [q({ question_type: 'multi_select', correct_answer: [1, 0] })] })).success).toBe(false)
    expect(ExamInput.safeParse(exam({ questions: [q({ question_type: 'multi_select', correct_answer: [0, 1] })] })).success).toBe(true)
  })
  it('leaves shuffle_options and keep_option_order out unless sent (the server picks defaults), and takes only booleans', () => {
    const e = ExamInput.parse(exam())
    expect(e.shuffle_options).toBeUndefined()
    expect(e.questions[0]!.keep_option_order).toBeUndefined()
    const set = ExamInput.parse(exam({ shuffle_options: false, questions: [q({ keep_option_order: true })] }))
    expect([set.shuffle_options, set.questions[0]!.keep_option_order]).toEqual([false, true])
    expect(messages(exam({ shuffle_options: 'no' }))).toEqual(['shuffle_options must be true or false'])
    expect(messages(exam({ questions: [q({ keep_option_order: 'yes' })] }))).toEqual(['keep_option_order must be true or false'])
  })
  it('enforces the limits of time, pass score and attempts', () => {
    expect(ExamInput.safeParse(exam({ time_limit: 181 })).success).toBe(false)
    expect(ExamInput.safeParse(exam({ pass_score: 101 })).success).toBe(false)
    expect(ExamInput.safeParse(exam({ exam_type: 'final', max_attempts: 11 })).success).toBe(false)
    expect(messages(exam({ questions: [q({ question_text: '  ' })] }))).toContain('Question text is required')
  })
})
