import { EXAM_LIMITS, EXAM_MESSAGES, type Exam, type ExamInput, type ExamType, type QuestionType } from '@portal/contracts'
import { ApiError, errorMessage, neighbourAfterRemoval } from '@portal/ui-kit'

/** A question as the form edits it; `key` identifies it in the list, `id` when it is stored already. */
export interface QuestionDraft {
  key: number
  id?: number
  question_type: QuestionType
  question_text: string
  options: string[]
  correct_answer: number | number[]
  subject_category: string
  category_weight: number
  /** Shown in this order even when the exam shuffles options (e.g. "All of the above"). */
  keep_option_order: boolean
}

/** The Add New Exam / Edit Exam form; numbers stay text while typed and are normalised on blur and submit. */
export interface ExamFormState {
  name: string
  time_limit: string
  pass_score: string
  total_questions: string
  exam_type: ExamType
  max_attempts: string
  is_assigned_to_all: boolean
  /** Each attempt shows the options in an order of its own (decision 0045). */
  shuffle_options: boolean
  subject_categories: string[]
  newCategory: string
  categoryError: string | null
  questions: QuestionDraft[]
  nextKey: number
  /** Set by the first submit: from then on every error shows, not only the live ones. */
  submitted: boolean
}

export const newQuestion = (key: number): QuestionDraft => ({
  key,
  question_type: 'multiple_choice',
  question_text: '',
  options: ['', ''],
  correct_answer: 0,
  subject_category: '',
  category_weight: 1,
  keep_option_order: false,
})

/** A new form: time 60, pass 70, 10 questions, practice (admin §4); options shuffled per attempt (issue 27). */
export const emptyForm = (): ExamFormState => ({
  name: '',
  time_limit: String(EXAM_LIMITS.timeLimit.default),
  pass_score: String(EXAM_LIMITS.passScore.default),
  total_questions: String(EXAM_LIMITS.totalQuestionsDefault),
  exam_type: 'practice',
  max_attempts: '1',
  is_assigned_to_all: false,
  shuffle_options: true,
  subject_categories: [],
  newCategory: '',
  categoryError: null,
  questions: [],
  nextKey: 1,
  submitted: false,
})

/** The form filled with a stored exam (Edit Exam). */
export const formFromExam = (exam: Exam): ExamFormState => ({
  ...emptyForm(),
  name: exam.name,
  time_limit: String(exam.time_limit),
  pass_score: String(exam.pass_score),
  total_questions: String(exam.total_questions),
  exam_type: exam.exam_type,
  max_attempts: String(exam.max_attempts ?? 1),
  is_assigned_to_all: exam.is_assigned_to_all,
  // A service that does not say does not shuffle.
  shuffle_options: exam.shuffle_options ?? false,
  subject_categories: [...exam.subject_categories],
  questions: exam.questions.map((q, i) => ({
    key: i + 1,
    id: q.id,
    question_type: q.question_type,
    question_text: q.question_text,
    options: [...q.options],
    correct_answer: Array.isArray(q.correct_answer) ? [...q.correct_answer] : q.correct_answer,
    subject_category: q.subject_category ?? '',
    category_weight: q.category_weight,
    keep_option_order: q.keep_option_order ?? false,
  })),
  nextKey: exam.questions.length + 1,
})

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n))
const parseNumber = (text: string) => {
  const n = Number.parseInt(text.trim(), 10)
  return Number.isFinite(n) ? n : null
}

/** Time limit 1-180; unparseable becomes 60. */
export const normaliseTimeLimit = (text: string) => clamp(parseNumber(text) ?? EXAM_LIMITS.timeLimit.default, EXAM_LIMITS.timeLimit.min, EXAM_LIMITS.timeLimit.max)
/** Pass score 0-100; unparseable becomes 70. */
export const normalisePassScore = (text: string) => {
  const n = Number.parseFloat(text.trim())
  return clamp(Number.isFinite(n) ? n : EXAM_LIMITS.passScore.default, EXAM_LIMITS.passScore.min, EXAM_LIMITS.passScore.max)
}
/** Max attempts 1-10; unparseable becomes 1. */
export const normaliseMaxAttempts = (text: string) => clamp(parseNumber(text) ?? EXAM_LIMITS.maxAttempts.min, EXAM_LIMITS.maxAttempts.min, EXAM_LIMITS.maxAttempts.max)

export type ExamFormAction =
  | { type: 'field'; field: 'name' | 'time_limit' | 'pass_score' | 'total_questions' | 'max_attempts' | 'newCategory'; value: string }
  | { type: 'normalise'; field: 'time_limit' | 'pass_score' | 'max_attempts' }
  | { type: 'examType'; value: ExamType }
  | { type: 'assignAll'; value: boolean }
  | { type: 'shuffleOptions'; value: boolean }
  | { type: 'addCategory' }
  | { type: 'removeCategory'; name: string }
  | { type: 'addQuestion' }
  | { type: 'removeQuestion'; key: number }
  | { type: 'questionText'; key: number; value: string }
  | { type: 'questionType'; key: number; value: QuestionType }
  | { type: 'questionCategory'; key: number; value: string }
  | { type: 'questionWeight'; key: number; value: number }
  | { type: 'keepOptionOrder'; key: number; value: boolean }
  | { type: 'optionText'; key: number; index: number; value: string }
  | { type: 'addOption'; key: number }
  | { type: 'removeOption'; key: number; index: number }
  | { type: 'correct'; key: number; index: number; checked: boolean }
  | { type: 'moveQuestion'; key: number; direction: 'up' | 'down' }
  | { type: 'importQuestions'; questions: ImportedQuestion[] }
  | { type: 'submitted' }

/** A question read from an import file, checked already (see import/question-import.ts). */
export type ImportedQuestion = Omit<QuestionDraft, 'key' | 'id'>

/** The correct answer after option `removed` is gone: indexes above it shift down; the removed one is dropped. */
export const shiftCorrectAnswer = (answer: number | number[], removed: number): number | number[] => {
  if (Array.isArray(answer)) return answer.filter((i) => i !== removed).map((i) => (i > removed ? i - 1 : i))
  if (answer === removed) return 0
  return answer > removed ? answer - 1 : answer
}

const updateQuestion = (s: ExamFormState, key: number, f: (q: QuestionDraft) => QuestionDraft): ExamFormState => ({
  ...s,
  questions: s.questions.map((q) => (q.key === key ? f(q) : q)),
})

export const examFormReducer = (s: ExamFormState, a: ExamFormAction): ExamFormState => {
  switch (a.type) {
    case 'field':
      return { ...s, [a.field]: a.value, ...(a.field === 'newCategory' ? { categoryError: null } : {}) }
    case 'normalise': {
      const value = a.field === 'time_limit' ? normaliseTimeLimit(s.time_limit) : a.field === 'pass_score' ? normalisePassScore(s.pass_score) : normaliseMaxAttempts(s.max_attempts)
      return { ...s, [a.field]: String(value) }
    }
    case 'examType':
      // Practice exams have no attempt limit; final exams start at 1.
      return { ...s, exam_type: a.value, max_attempts: a.value === 'final' ? s.max_attempts || '1' : '1' }
    case 'assignAll':
      return { ...s, is_assigned_to_all: a.value }
    case 'shuffleOptions':
      return { ...s, shuffle_options: a.value }
    case 'addCategory': {
      const name = s.newCategory.trim()
      if (!name) return { ...s, categoryError: EXAM_MESSAGES.categoryEmpty }
      if (s.subject_categories.some((c) => c.toLowerCase() === name.toLowerCase())) return { ...s, categoryError: EXAM_MESSAGES.categoryDuplicate }
      return { ...s, subject_categories: [...s.subject_categories, name], newCategory: '', categoryError: null }
    }
    case 'removeCategory':
      return {
        ...s,
        subject_categories: s.subject_categories.filter((c) => c !== a.name),
        questions: s.questions.map((q) => (q.subject_category === a.name ? { ...q, subject_category: '' } : q)),
      }
    case 'addQuestion':
      return { ...s, questions: [...s.questions, newQuestion(s.nextKey)], nextKey: s.nextKey + 1 }
    case 'removeQuestion':
      return { ...s, questions: s.questions.filter((q) => q.key !== a.key) }
    case 'questionText':
      return updateQuestion(s, a.key, (q) => ({ ...q, question_text: a.value }))
    case 'questionType':
      return updateQuestion(s, a.key, (q) => (q.question_type === a.value ? q : { ...q, question_type: a.value, correct_answer: a.value === 'multi_select' ? [] : 0 }))
    case 'questionCategory':
      return updateQuestion(s, a.key, (q) => ({ ...q, subject_category: a.value }))
    case 'questionWeight':
      return updateQuestion(s, a.key, (q) => ({ ...q, category_weight: a.value }))
    case 'keepOptionOrder':
      return updateQuestion(s, a.key, (q) => ({ ...q, keep_option_order: a.value }))
    case 'optionText':
      return updateQuestion(s, a.key, (q) => ({ ...q, options: q.options.map((o, i) => (i === a.index ? a.value : o)) }))
    case 'addOption':
      return updateQuestion(s, a.key, (q) => ({ ...q, options: [...q.options, ''] }))
    case 'removeOption':
      return updateQuestion(s, a.key, (q) =>
        q.options.length <= 2 ? q : { ...q, options: q.options.filter((_, i) => i !== a.index), correct_answer: shiftCorrectAnswer(q.correct_answer, a.index) },
      )
    case 'correct':
      return updateQuestion(s, a.key, (q) => {
        if (q.question_type === 'multiple_choice') return { ...q, correct_answer: a.index }
        const current = Array.isArray(q.correct_answer) ? q.correct_answer : []
        const next = a.checked ? [...new Set([...current, a.index])] : current.filter((i) => i !== a.index)
        return { ...q, correct_answer: next.sort((x, y) => x - y) }
      })
    case 'moveQuestion': {
      const from = s.questions.findIndex((q) => q.key === a.key)
      const to = from + (a.direction === 'up' ? -1 : 1)
      if (from < 0 || to < 0 || to >= s.questions.length) return s
      const questions = [...s.questions]
      questions[from] = s.questions[to]!
      questions[to] = s.questions[from]!
      return { ...s, questions }
    }
    case 'importQuestions': {
      // Their categories join the exam's (a question's category must be one of them).
      const known = new Set(s.subject_categories.map((c) => c.toLowerCase()))
      const added: string[] = []
      for (const q of a.questions)
        if (q.subject_category && !known.has(q.subject_category.toLowerCase())) {
          known.add(q.subject_category.toLowerCase())
          added.push(q.subject_category)
        }
      const categories = [...s.subject_categories, ...added]
      // A category typed in another case is the exam's own.
      const canonical = (c: string) => categories.find((x) => x.toLowerCase() === c.toLowerCase()) ?? ''
      const questions = a.questions.map((q, i) => ({
        ...q,
        key: s.nextKey + i,
        options: [...q.options],
        subject_category: q.subject_category ? canonical(q.subject_category) : '',
      }))
      return { ...s, subject_categories: categories, questions: [...s.questions, ...questions], nextKey: s.nextKey + questions.length }
    }
    case 'submitted':
      return { ...s, submitted: true }
  }
}

/** Whether a question can move up / down. */
export const canMoveQuestion = (s: Pick<ExamFormState, 'questions'>, key: number, direction: 'up' | 'down'): boolean => {
  const i = s.questions.findIndex((q) => q.key === key)
  return i >= 0 && (direction === 'up' ? i > 0 : i < s.questions.length - 1)
}

/**
 * After Move Up/Down (decision 0010): focus stays on the button pressed while the question can still
 * go that way, else on its other move button; the message says where it went. Null when it cannot move.
 */
export const afterMoveQuestion = (s: ExamFormState, key: number, direction: 'up' | 'down'): { focus: string; message: string } | null => {
  if (!canMoveQuestion(s, key, direction)) return null
  const moved = examFormReducer(s, { type: 'moveQuestion', key, direction })
  const position = moved.questions.findIndex((q) => q.key === key)
  const again = canMoveQuestion(moved, key, direction) ? direction : direction === 'up' ? 'down' : 'up'
  const from = s.questions.findIndex((q) => q.key === key)
  return {
    focus: EXAM_FOCUS.moveQuestion(key, again),
    message: `Question ${from + 1} moved to position ${position + 1} of ${s.questions.length}.`,
  }
}

const TYPE_WORDS: Record<QuestionType, string> = { multiple_choice: 'Multiple choice', multi_select: 'Multi-select' }

/** A collapsed question's one-line summary: its text, type, choices, category, weight and a kept option order. */
export const questionSummary = (q: QuestionDraft): string => {
  const filled = q.options.filter((o) => o.trim()).length
  return [
    q.question_text.trim() || 'No question text yet',
    TYPE_WORDS[q.question_type],
    `${filled} choice${filled === 1 ? '' : 's'}`,
    q.subject_category || null,
    q.category_weight !== 1 ? `weight ${q.category_weight}` : null,
    q.keep_option_order ? 'option order kept' : null,
  ]
    .filter(Boolean)
    .join(' · ')
}

/** Focus target names in the form: a question's controls, a category's remove button and the fixed fields. */
export const EXAM_FOCUS = {
  questionText: (key: number) => `question-${key}-text`,
  removeQuestion: (key: number) => `question-${key}-remove`,
  option: (key: number, index: number) => `question-${key}-option-${index}`,
  removeOption: (key: number, index: number) => `question-${key}-remove-option-${index}`,
  removeCategory: (name: string) => `category-${name}-remove`,
  moveQuestion: (key: number, direction: 'up' | 'down') => `question-${key}-${direction}`,
  toggleQuestion: (key: number) => `question-${key}-toggle`,
  importQuestions: 'import-questions',
  newCategory: 'new-category',
  addQuestion: 'add-question',
  summary: 'summary',
} as const

const count = (n: number, what: string) => `${n === 0 ? 'no' : n} ${what}${n === 1 ? '' : 's'}`

/**
 * After Remove Question: focus on the Remove of the question taking its place, else of the one
 * before, else Add Question; the message says which went (the others are renumbered).
 */
export const afterRemoveQuestion = (s: ExamFormState, key: number): { focus: string[]; message: string } => {
  const keys = s.questions.map((q) => q.key)
  const next = neighbourAfterRemoval(keys, key)
  return {
    focus: next === undefined ? [EXAM_FOCUS.addQuestion] : [EXAM_FOCUS.removeQuestion(next), EXAM_FOCUS.addQuestion],
    message: `Question ${keys.indexOf(key) + 1} removed; ${count(keys.length - 1, 'question')} left.`,
  }
}

/**
 * After removing a choice: focus on the Remove of the choice now in its place (or the last one);
 * with two choices left those are disabled, so on that choice's text instead.
 */
export const afterRemoveOption = (s: ExamFormState, key: number, index: number): { focus: string[]; message: string } => {
  const n = s.questions.findIndex((q) => q.key === key)
  const left = s.questions[n]!.options.length - 1
  const at = Math.min(index, left - 1)
  return {
    focus: [EXAM_FOCUS.removeOption(key, at), EXAM_FOCUS.option(key, at)],
    message: `Choice ${index + 1} of question ${n + 1} removed; ${count(left, 'choice')} left.`,
  }
}

/** After removing a category: focus on the next category's remove button, else the previous one's, else the new-category field. */
export const afterRemoveCategory = (s: ExamFormState, name: string): { focus: string[]; message: string } => {
  const next = neighbourAfterRemoval(s.subject_categories, name)
  const used = s.questions.filter((q) => q.subject_category === name).length
  return {
    focus: next === undefined ? [EXAM_FOCUS.newCategory] : [EXAM_FOCUS.removeCategory(next), EXAM_FOCUS.newCategory],
    message: `Category ${name} removed${used > 0 ? `; ${count(used, 'question')} now without a category` : ''}.`,
  }
}

export interface QuestionErrors {
  text?: string
  options: (string | undefined)[]
  correct?: string
}

export interface ExamFormErrors {
  name?: string
  total_questions?: string
  /** Form-level, shown on submit. */
  pool?: string
  questions: Record<number, QuestionErrors>
  count: number
}

/** Live errors: total_questions against 1 and the pool size; on submit also every required text. */
export const validateExamForm = (s: ExamFormState, onSubmit = s.submitted): ExamFormErrors => {
  const errors: ExamFormErrors = { questions: {}, count: 0 }
  const pool = s.questions.length
  const total = parseNumber(s.total_questions)
  if (total === null || total < 1) errors.total_questions = EXAM_MESSAGES.atLeastOneQuestion
  // An empty pool is named while typing only once a question exists; on submit it is named too.
  else if (total > pool && (pool > 0 || onSubmit)) errors.total_questions = EXAM_MESSAGES.exceedsPool(pool)
  if (onSubmit) {
    if (!s.name.trim()) errors.name = 'Exam name is required'
    if (total !== null && total > pool) errors.pool = EXAM_MESSAGES.notEnoughInPool
    for (const q of s.questions) {
      const qe: QuestionErrors = { options: q.options.map(() => undefined) }
      if (!q.question_text.trim()) qe.text = EXAM_MESSAGES.questionTextRequired
      const filled = q.options.filter((o) => o.trim()).length
      const correct = Array.isArray(q.correct_answer) ? q.correct_answer : [q.correct_answer]
      q.options.forEach((o, i) => {
        // Blank options are dropped on submit, unless fewer than two would be left or it is a correct answer.
        if (!o.trim() && (filled < 2 || correct.includes(i))) qe.options[i] = EXAM_MESSAGES.optionTextRequired
      })
      if (q.question_type === 'multi_select' && correct.length === 0) qe.correct = 'Select at least one correct option'
      if (qe.text || qe.correct || qe.options.some(Boolean)) errors.questions[q.key] = qe
    }
  }
  errors.count = Number(Boolean(errors.name)) + Number(Boolean(errors.total_questions)) + Number(Boolean(errors.pool)) + Object.keys(errors.questions).length
  return errors
}

/** The payload of POST /exams and PUT /exams/{id}: numbers normalised, blank options dropped, answers re-indexed. */
export const toExamInput = (s: ExamFormState): ExamInput => ({
  name: s.name.trim(),
  time_limit: normaliseTimeLimit(s.time_limit),
  pass_score: normalisePassScore(s.pass_score),
  total_questions: parseNumber(s.total_questions) ?? 1,
  subject_categories: [...s.subject_categories],
  exam_type: s.exam_type,
  max_attempts: s.exam_type === 'final' ? normaliseMaxAttempts(s.max_attempts) : null,
  is_assigned_to_all: s.is_assigned_to_all,
  shuffle_options: s.shuffle_options,
  questions: s.questions.map((q) => {
    const kept = q.options.map((o, i) => ({ text: o.trim(), i })).filter((o) => o.text)
    const newIndex = (old: number) => kept.findIndex((o) => o.i === old)
    const correct_answer = Array.isArray(q.correct_answer)
      ? q.correct_answer
          .map(newIndex)
          .filter((i) => i >= 0)
          .sort((a, b) => a - b)
      : Math.max(0, newIndex(q.correct_answer))
    return {
      ...(q.id !== undefined ? { id: q.id } : {}),
      question_type: q.question_type,
      question_text: q.question_text.trim(),
      options: kept.map((o) => o.text),
      correct_answer,
      subject_category: q.subject_category || null,
      category_weight: q.category_weight > 0 ? q.category_weight : 1,
      keep_option_order: q.keep_option_order,
    }
  }),
})

export const EXAM_ERRORS = {
  create: 'Failed to create exam. Please try again.',
  update: 'Failed to update exam. Please try again.',
  noData: 'No exam data received from server',
} as const

/** The text for a failed save: no exam in the answer, else the server message or the default (admin §8). */
export const saveErrorText = (error: unknown, mode: 'create' | 'update'): string => {
  if (error instanceof ApiError && error.code === 'invalid_response') return EXAM_ERRORS.noData
  return errorMessage(error, mode === 'create' ? EXAM_ERRORS.create : EXAM_ERRORS.update)
}
