// Pure grading of an exam attempt: no I/O, no clock.
import type { Answer, ExamSubmissionResult, Question } from '@portal/contracts'
import { roundPercent } from '../../percent.ts'
import { shownOptions, toPoolAnswer, toShownAnswer, type OptionOrder } from '../option-order.ts'

/** Questions without a subject category are reported under this section name. */
export const GENERAL_SECTION = 'General'

const isUnanswered = (a: Answer) => a === -1 || (Array.isArray(a) && a.length === 0)

/**
 * Why `answer` is not a well-formed answer to `q`, or null when it is. multiple_choice takes one
 * option index; multi_select a strictly ascending list of option indexes; -1 means unanswered
 * (an empty list too, for multi_select).
 */
export function answerProblem(q: Pick<Question, 'question_type' | 'options'>, answer: Answer): string | null {
  const n = q.options.length
  if (answer === -1) return null
  if (q.question_type === 'multiple_choice') {
    if (typeof answer !== 'number') return 'A multiple choice answer is one option index'
    return answer >= 0 && answer < n ? null : 'The answer is not one of the options'
  }
  if (!Array.isArray(answer)) return 'A multi-select answer is a list of option indexes'
  if (answer.some((x) => x < 0 || x >= n)) return 'The answer is not one of the options'
  if (answer.some((x, i) => i > 0 && x <= answer[i - 1]!)) return 'A multi-select answer must be sorted without duplicates'
  return null
}

/** multiple_choice by index; multi_select by the exact set of indexes. */
export function isCorrect(q: Pick<Question, 'question_type' | 'correct_answer'>, answer: Answer): boolean {
  if (isUnanswered(answer)) return false
  if (q.question_type === 'multiple_choice') return typeof answer === 'number' && answer === q.correct_answer
  const expected = Array.isArray(q.correct_answer) ? q.correct_answer : [q.correct_answer]
  if (!Array.isArray(answer) || answer.length !== expected.length) return false
  const want = new Set(expected)
  return answer.every((x) => want.has(x)) && new Set(answer).size === answer.length
}

export interface GradeInput {
  attemptId: string
  examId: number
  examName: string
  passScore: number
  attemptNumber: number
  /** The attempt's questions in the order drawn. */
  questions: Question[]
  /** Aligned with `questions`, indexes into the options as shown (`optionOrders`); -1 = unanswered. */
  answers: Answer[]
  /** The order each question's options were shown in (pool index per position); none: the pool's order. */
  optionOrders?: readonly (OptionOrder | null)[] | null | undefined
  submittedAt: Date
}

/**
 * Grades an attempt. The overall score is weighted by `category_weight`:
 * score = Σ weight·correct / Σ weight × 100; each section (subject category) is weighted the same
 * way within itself. Sections follow the order their first question appears in the attempt.
 * Answers are mapped back to the pool's indexes to be graded against the stored answer; the review
 * gives the options, the learner's answer and the correct one in the order the learner saw them.
 */
export function gradeAttempt(input: GradeInput): ExamSubmissionResult {
  let weightTotal = 0
  let weightCorrect = 0
  let correctAnswers = 0
  const sections = new Map<string, { weight: number; weightCorrect: number; correct: number; count: number }>()
  const questionResults = input.questions.map((q, i) => {
    const answer = input.answers[i] ?? -1
    const order = input.optionOrders?.[i] ?? null
    const correct = isCorrect(q, toPoolAnswer(answer, order))
    const w = q.category_weight > 0 ? q.category_weight : 1
    weightTotal += w
    if (correct) {
      weightCorrect += w
      correctAnswers++
    }
    const name = q.subject_category ?? GENERAL_SECTION
    const s = sections.get(name) ?? { weight: 0, weightCorrect: 0, correct: 0, count: 0 }
    s.weight += w
    s.count++
    if (correct) {
      s.weightCorrect += w
      s.correct++
    }
    sections.set(name, s)
    return {
      question_id: q.id,
      question_text: q.question_text,
      options: shownOptions(q.options, order),
      question_type: q.question_type,
      subject_category: q.subject_category,
      user_answer: answer,
      correct_answer: toShownAnswer(q.correct_answer, order),
      is_correct: correct,
      weight: w,
    }
  })
  const score = weightTotal > 0 ? roundPercent((weightCorrect / weightTotal) * 100) : 0
  return {
    attemptId: input.attemptId,
    examId: input.examId,
    exam_name: input.examName,
    score,
    passed: score >= input.passScore,
    pass_score: input.passScore,
    correct_answers: correctAnswers,
    total_questions: input.questions.length,
    attempt_number: input.attemptNumber,
    question_results: questionResults,
    section_scores: [...sections].map(([name, s]) => ({
      section_name: name,
      section_score: s.weight > 0 ? roundPercent((s.weightCorrect / s.weight) * 100) : 0,
      correct_answers: s.correct,
      questions_in_section: s.count,
    })),
    submitted_at: input.submittedAt.toISOString(),
  }
}
