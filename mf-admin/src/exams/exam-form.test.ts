import { ExamInput } from '@portal/contracts'
import { ApiError } from '@portal/ui-kit'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createExam, updateExam } from './api.ts'
import {
  afterMoveQuestion,
  afterRemoveCategory,
  afterRemoveOption,
  afterRemoveQuestion,
  EXAM_FOCUS,
  emptyForm,
  examFormReducer as reduce,
  formFromExam,
  normalisePassScore,
  normaliseTimeLimit,
  questionSummary,
  saveErrorText,
  shiftCorrectAnswer,
  toExamInput,
  validateExamForm,
  type ExamFormAction,
  type ExamFormState,
} from './exam-form.ts'

const run = (...actions: ExamFormAction[]) => actions.reduce(reduce, emptyForm())
const q = (s: ExamFormState, n = 0) => s.questions[n]!

describe('exam form', () => {
  it('starts with the spec defaults: 60 minutes, pass 70, 10 questions, practice; options shuffled per attempt', () => {
    const s = emptyForm()
    expect([s.time_limit, s.pass_score, s.total_questions, s.exam_type, s.shuffle_options]).toEqual(['60', '70', '10', 'practice', true])
  })

  it('turns shuffling off and keeps a question in its order, both sent with the exam', () => {
    let s = run(
      { type: 'field', field: 'name', value: 'Safety' },
      { type: 'field', field: 'total_questions', value: '1' },
      { type: 'addQuestion' },
      { type: 'questionText', key: 1, value: 'Which?' },
      { type: 'optionText', key: 1, index: 0, value: 'a' },
      { type: 'optionText', key: 1, index: 1, value: 'All of the above' },
    )
    expect(q(s).keep_option_order).toBe(false)
    expect(toExamInput(s)).toMatchObject({ shuffle_options: true, questions: [{ keep_option_order: false }] })
    s = reduce(s, { type: 'keepOptionOrder', key: 1, value: true })
    s = reduce(s, { type: 'shuffleOptions', value: false })
    const input = toExamInput(s)
    expect(input).toMatchObject({ shuffle_options: false, questions: [{ keep_option_order: true }] })
    expect(ExamInput.parse(input)).toMatchObject({ shuffle_options: false, questions: [{ keep_option_order: true }] })
    expect(questionSummary(q(s))).toBe('Which? · Multiple choice · 2 choices · option order kept')
  })

  it('edits a stored exam with its own settings; one from a service that does not say is not shuffled', () => {
    const stored = {
      id: 1,
      name: 'E',
      time_limit: 10,
      pass_score: 70,
      total_questions: 1,
      subject_categories: [],
      exam_type: 'practice' as const,
      max_attempts: null,
      is_assigned_to_all: true,
      assigned_user_ids: [],
      created_at: '2026-01-01T00:00:00Z',
      questions: [{ id: 5, question_type: 'multiple_choice' as const, question_text: 'Q', options: ['a', 'b'], correct_answer: 0, subject_category: null, category_weight: 1 }],
    }
    const old = formFromExam(stored)
    expect([old.shuffle_options, old.questions[0]!.keep_option_order]).toEqual([false, false])
    const set = formFromExam({ ...stored, shuffle_options: true, questions: [{ ...stored.questions[0]!, keep_option_order: true }] })
    expect([set.shuffle_options, set.questions[0]!.keep_option_order]).toEqual([true, true])
  })

  it('adds a question as multiple choice with two empty options, answer 0, weight 1', () => {
    const s = run({ type: 'addQuestion' })
    expect(q(s)).toMatchObject({ question_type: 'multiple_choice', options: ['', ''], correct_answer: 0, category_weight: 1 })
  })

  it('resets the correct answer when the question type changes', () => {
    let s = run({ type: 'addQuestion' }, { type: 'correct', key: 1, index: 1, checked: true })
    s = reduce(s, { type: 'questionType', key: 1, value: 'multi_select' })
    expect(q(s).correct_answer).toEqual([])
    s = reduce(s, { type: 'correct', key: 1, index: 1, checked: true })
    s = reduce(s, { type: 'correct', key: 1, index: 0, checked: true })
    expect(q(s).correct_answer).toEqual([0, 1])
    s = reduce(s, { type: 'questionType', key: 1, value: 'multiple_choice' })
    expect(q(s).correct_answer).toBe(0)
  })

  it('shifts correct-answer indexes when an option is removed', () => {
    expect(shiftCorrectAnswer(3, 1)).toBe(2)
    expect(shiftCorrectAnswer(0, 1)).toBe(0)
    expect(shiftCorrectAnswer(1, 1)).toBe(0)
    expect(shiftCorrectAnswer([0, 2, 3], 2)).toEqual([0, 2])
    let s = run({ type: 'addQuestion' }, { type: 'addOption', key: 1 }, { type: 'addOption', key: 1 })
    s = reduce(s, { type: 'correct', key: 1, index: 3, checked: true })
    s = reduce(s, { type: 'removeOption', key: 1, index: 0 })
    expect(q(s).options).toHaveLength(3)
    expect(q(s).correct_answer).toBe(2)
  })

  it('keeps at least two options', () => {
    const s = run({ type: 'addQuestion' }, { type: 'removeOption', key: 1, index: 0 })
    expect(q(s).options).toHaveLength(2)
  })

  it('adds categories trimmed, non-empty and unique', () => {
    let s = run({ type: 'field', field: 'newCategory', value: '  Safety ' }, { type: 'addCategory' })
    expect(s.subject_categories).toEqual(['Safety'])
    s = reduce(reduce(s, { type: 'field', field: 'newCategory', value: 'safety' }), { type: 'addCategory' })
    expect(s.categoryError).toBe('Subject category names must be unique')
    s = reduce(reduce(s, { type: 'field', field: 'newCategory', value: '   ' }), { type: 'addCategory' })
    expect(s.categoryError).toBe('Subject category names cannot be empty')
    expect(s.subject_categories).toEqual(['Safety'])
  })

  it('clears a removed category from the questions that used it', () => {
    let s = run(
      { type: 'field', field: 'newCategory', value: 'Wiring' },
      { type: 'addCategory' },
      { type: 'addQuestion' },
      { type: 'addQuestion' },
      { type: 'questionCategory', key: 1, value: 'Wiring' },
    )
    s = reduce(s, { type: 'removeCategory', name: 'Wiring' })
    expect(s.subject_categories).toEqual([])
    expect(q(s).subject_category).toBe('')
  })

  it('checks the number of questions against 1 and the pool', () => {
    let s = run({ type: 'field', field: 'total_questions', value: '0' })
    expect(validateExamForm(s).total_questions).toBe('Must have at least 1 question')
    s = run({ type: 'addQuestion' }, { type: 'addQuestion' }, { type: 'field', field: 'total_questions', value: '3' })
    expect(validateExamForm(s).total_questions).toBe('Cannot exceed question pool size (2)')
    expect(validateExamForm(s, true).pool).toBe('Not enough questions in the pool')
    s = reduce(s, { type: 'field', field: 'total_questions', value: '2' })
    expect(validateExamForm(s).count).toBe(0)
  })

  it('reports a pool that is too small on submit even when it is empty', () => {
    const s = run({ type: 'field', field: 'name', value: 'X' })
    expect(validateExamForm(s).total_questions).toBeUndefined()
    const errors = validateExamForm(s, true)
    expect(errors.pool).toBe('Not enough questions in the pool')
    expect(errors.total_questions).toBe('Cannot exceed question pool size (0)')
    expect(errors.count).toBeGreaterThan(0)
  })

  it('requires the exam name, question texts and option texts on submit', () => {
    const s = run({ type: 'addQuestion' }, { type: 'field', field: 'total_questions', value: '1' })
    expect(validateExamForm(s, false).count).toBe(0)
    const e = validateExamForm(s, true)
    expect(e.name).toBe('Exam name is required')
    expect(e.questions[1]?.text).toBe('Question text is required')
    expect(e.questions[1]?.options).toEqual(['Option text is required', 'Option text is required'])
  })

  it('normalises numbers: time 1-180 (else 60), pass 0-100 (else 70)', () => {
    expect(normaliseTimeLimit('abc')).toBe(60)
    expect(normaliseTimeLimit('0')).toBe(1)
    expect(normaliseTimeLimit('500')).toBe(180)
    expect(normalisePassScore('')).toBe(70)
    expect(normalisePassScore('150')).toBe(100)
    expect(normalisePassScore('-3')).toBe(0)
  })

  it('forces max attempts to null for practice exams and keeps it for final ones', () => {
    let s = run({ type: 'examType', value: 'final' }, { type: 'field', field: 'max_attempts', value: '3' })
    expect(toExamInput(s).max_attempts).toBe(3)
    s = reduce(s, { type: 'examType', value: 'practice' })
    expect(toExamInput(s).max_attempts).toBeNull()
  })

  it('drops blank options on submit and re-indexes the correct answers; the server schema accepts it', () => {
    let s = run(
      { type: 'field', field: 'name', value: ' Safety ' },
      { type: 'field', field: 'total_questions', value: '1' },
      { type: 'addQuestion' },
      { type: 'questionType', key: 1, value: 'multi_select' },
      { type: 'addOption', key: 1 },
      { type: 'questionText', key: 1, value: 'Which?' },
      { type: 'optionText', key: 1, index: 0, value: 'a' },
      { type: 'optionText', key: 1, index: 2, value: 'c' },
    )
    s = reduce(s, { type: 'correct', key: 1, index: 2, checked: true })
    s = reduce(s, { type: 'correct', key: 1, index: 0, checked: true })
    expect(validateExamForm(s, true).count).toBe(0)
    const input = toExamInput(s)
    expect(input.questions[0]).toMatchObject({ options: ['a', 'c'], correct_answer: [0, 1] })
    expect(ExamInput.safeParse(input).success).toBe(true)
  })
})

describe('exam form at scale: reorder, summaries, import', () => {
  const three = () => {
    let s = run({ type: 'addQuestion' }, { type: 'addQuestion' }, { type: 'addQuestion' })
    s.questions.forEach((x, i) => (s = reduce(s, { type: 'questionText', key: x.key, value: `Q${i + 1}` })))
    return s
  }

  it('moves a question up or down; at either end nothing changes', () => {
    const s = three()
    expect(reduce(s, { type: 'moveQuestion', key: 3, direction: 'up' }).questions.map((x) => x.question_text)).toEqual(['Q1', 'Q3', 'Q2'])
    expect(reduce(s, { type: 'moveQuestion', key: 1, direction: 'up' })).toBe(s)
    expect(reduce(s, { type: 'moveQuestion', key: 3, direction: 'down' })).toBe(s)
  })

  it('keeps focus on the move button pressed while the question can go on, else on the other one, and says where it went', () => {
    const s = three()
    expect(afterMoveQuestion(s, 3, 'up')).toEqual({ focus: EXAM_FOCUS.moveQuestion(3, 'up'), message: 'Question 3 moved to position 2 of 3.' })
    expect(afterMoveQuestion(s, 2, 'up')).toEqual({ focus: EXAM_FOCUS.moveQuestion(2, 'down'), message: 'Question 2 moved to position 1 of 3.' })
    expect(afterMoveQuestion(s, 3, 'down')).toBeNull()
  })

  it('sums a collapsed question up in one line', () => {
    let s = three()
    s = reduce(s, { type: 'questionType', key: 1, value: 'multi_select' })
    s = reduce(s, { type: 'optionText', key: 1, index: 0, value: 'a' })
    expect(questionSummary(q(s))).toBe('Q1 · Multi-select · 1 choice')
    expect(questionSummary({ ...q(s), question_text: ' ', subject_category: 'Ladders', category_weight: 2 })).toBe(
      'No question text yet · Multi-select · 1 choice · Ladders · weight 2',
    )
  })

  it('adds imported questions after the others, with their new categories (an existing one in any case is reused)', () => {
    let s = run({ type: 'field', field: 'newCategory', value: 'Ladders' }, { type: 'addCategory' }, { type: 'addQuestion' })
    const imported = (text: string, subject_category: string) => ({
      question_type: 'multiple_choice' as const,
      question_text: text,
      options: ['a', 'b'],
      correct_answer: 1,
      subject_category,
      category_weight: 2,
      keep_option_order: false,
    })
    s = reduce(s, { type: 'importQuestions', questions: [imported('I1', 'ladders'), imported('I2', 'Tools'), imported('I3', '')] })
    expect(s.subject_categories).toEqual(['Ladders', 'Tools'])
    expect(s.questions.map((x) => [x.key, x.question_text, x.subject_category])).toEqual([
      [1, '', ''],
      [2, 'I1', 'Ladders'],
      [3, 'I2', 'Tools'],
      [4, 'I3', ''],
    ])
    expect(s.nextKey).toBe(5)
  })
})

describe('exam form: keyboard focus and announcements', () => {
  const three = run({ type: 'addQuestion' }, { type: 'addQuestion' }, { type: 'addQuestion' })

  it("sends focus to the next question's Remove after Remove Question, else the previous one's, else Add Question", () => {
    expect(afterRemoveQuestion(three, 2)).toEqual({
      focus: [EXAM_FOCUS.removeQuestion(3), EXAM_FOCUS.addQuestion],
      message: 'Question 2 removed; 2 questions left.',
    })
    expect(afterRemoveQuestion(three, 3).focus).toEqual([EXAM_FOCUS.removeQuestion(2), EXAM_FOCUS.addQuestion])
    expect(afterRemoveQuestion(run({ type: 'addQuestion' }), 1)).toEqual({ focus: [EXAM_FOCUS.addQuestion], message: 'Question 1 removed; no questions left.' })
  })

  it("sends focus to the Remove of the choice taking the removed one's place, or to its text once two are left", () => {
    const four = run({ type: 'addQuestion' }, { type: 'addOption', key: 1 }, { type: 'addOption', key: 1 })
    expect(afterRemoveOption(four, 1, 1)).toEqual({
      focus: [EXAM_FOCUS.removeOption(1, 1), EXAM_FOCUS.option(1, 1)],
      message: 'Choice 2 of question 1 removed; 3 choices left.',
    })
    // The last one: the choice before it takes focus.
    expect(afterRemoveOption(four, 1, 3).focus).toEqual([EXAM_FOCUS.removeOption(1, 2), EXAM_FOCUS.option(1, 2)])
    const threeChoices = run({ type: 'addQuestion' }, { type: 'addOption', key: 1 })
    expect(afterRemoveOption(threeChoices, 1, 2).focus).toEqual([EXAM_FOCUS.removeOption(1, 1), EXAM_FOCUS.option(1, 1)])
  })

  it("sends focus to the next category's remove button, else the new-category field, and says which questions lost it", () => {
    const s = run(
      { type: 'addQuestion' },
      { type: 'field', field: 'newCategory', value: 'Ladders' },
      { type: 'addCategory' },
      { type: 'field', field: 'newCategory', value: 'Tools' },
      { type: 'addCategory' },
      { type: 'questionCategory', key: 1, value: 'Ladders' },
    )
    expect(afterRemoveCategory(s, 'Ladders')).toEqual({
      focus: [EXAM_FOCUS.removeCategory('Tools'), EXAM_FOCUS.newCategory],
      message: 'Category Ladders removed; 1 question now without a category.',
    })
    expect(afterRemoveCategory(reduce(s, { type: 'removeCategory', name: 'Ladders' }), 'Tools')).toEqual({
      focus: [EXAM_FOCUS.newCategory],
      message: 'Category Tools removed.',
    })
  })
})

import { assignmentText, typeText } from './exam-table.ts'

describe('exams table', () => {
  it('shows max attempts only for final exams', () => {
    expect(typeText({ exam_type: 'practice', max_attempts: null })).toBe('Practice')
    expect(typeText({ exam_type: 'final', max_attempts: 3 })).toBe('Final (max 3 attempts)')
  })
  it('describes the assignment', () => {
    expect(assignmentText({ is_assigned_to_all: true, assigned_user_ids: [] })).toBe('All users')
    expect(assignmentText({ is_assigned_to_all: false, assigned_user_ids: ['a'] })).toBe('1 user')
  })
})

describe('exam form: save feedback', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
  })

  it('says no exam data was received when the save answers without an exam', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ message: 'Saved' }), { status: 201, headers: { 'Content-Type': 'application/json' } }))
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const input = toExamInput(emptyForm())
    expect(saveErrorText(await createExam(input).catch((e: unknown) => e), 'create')).toBe('No exam data received from server')
    expect(saveErrorText(await updateExam(7, input).catch((e: unknown) => e), 'update')).toBe('No exam data received from server')
  })

  it('explains a missing exam in the answer and otherwise the server message or default (admin §8)', () => {
    expect(saveErrorText(new ApiError(201, 'invalid_response', 'x', undefined), 'create')).toBe('No exam data received from server')
    expect(saveErrorText(new ApiError(200, 'invalid_response', 'x', undefined), 'update')).toBe('No exam data received from server')
    expect(saveErrorText(new ApiError(400, 'validation', 'x', undefined, 'Exam name is required'), 'create')).toBe('Exam name is required')
    expect(saveErrorText(new ApiError(0, 'timeout', 'x', undefined), 'create')).toBe('Failed to create exam. Please try again.')
    expect(saveErrorText(new Error('boom'), 'update')).toBe('Failed to update exam. Please try again.')
  })
})
