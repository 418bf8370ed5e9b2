import { ExamSubmissionResult, sectionScoreColour, type Answer } from '@portal/contracts'

export type ScoreTone = ReturnType<typeof sectionScoreColour>

/** The result handed over from the exam screen in router state, or null when there is none (or it is not one). */
export const resultFromState = (state: unknown): ExamSubmissionResult | null => {
  if (!state || typeof state !== 'object' || !('result' in state)) return null
  const parsed = ExamSubmissionResult.safeParse((state as { result: unknown }).result)
  return parsed.success ? parsed.data : null
}

/** A section's colour with the words that say the same (colour is never the only signal). */
export const sectionTone = (score: number): { tone: ScoreTone; label: string } => {
  const tone = sectionScoreColour(score)
  return { tone, label: tone === 'green' ? 'Strong' : tone === 'yellow' ? 'Fair' : 'Needs improvement' }
}

/** Scores are shown as whole-or-one-decimal percents. */
export const formatPercent = (score: number): string => `${Math.round(score * 10) / 10}%`

export const NOT_ANSWERED = 'Not answered'

/** The option texts an answer points at, or "Not answered". */
export const answerText = (answer: Answer | number[] | number, options: readonly string[]): string => {
  const picked = (Array.isArray(answer) ? answer : [answer]).filter((i) => i >= 0)
  if (picked.length === 0) return NOT_ANSWERED
  return picked.map((i) => options[i] ?? `Option ${i + 1}`).join(', ')
}

/** One option of a reviewed question: its text, whether the learner chose it and whether it is correct. */
export interface ReviewOption {
  text: string
  chosen: boolean
  correct: boolean
}

/**
 * A reviewed question's options in the order the learner saw them (the server gives the options,
 * the answer and the correct ones in that order), each marked as chosen and as correct.
 */
export const reviewOptions = (q: Pick<ExamSubmissionResult['question_results'][number], 'options' | 'user_answer' | 'correct_answer'>): ReviewOption[] => {
  const list = (a: Answer) => (Array.isArray(a) ? a : [a]).filter((i) => i >= 0)
  const chosen = new Set(list(q.user_answer))
  const correct = new Set(list(q.correct_answer))
  return q.options.map((text, i) => ({ text, chosen: chosen.has(i), correct: correct.has(i) }))
}

const points = (n: number) => `${Math.round(n * 100) / 100} point${n === 1 ? '' : 's'}`

/** Whether the questions of the result weigh differently (then the score counts points, not questions). */
export const isWeighted = (r: Pick<ExamSubmissionResult, 'question_results'>): boolean => {
  const weights = r.question_results.map((q) => q.weight ?? 1)
  return weights.some((w) => w !== weights[0])
}

/**
 * How a weighted score came about, in words: the points earned of the points possible, beside the
 * count of correct questions it differs from; null when every question weighs the same.
 */
export const weightedScoreExplanation = (r: Pick<ExamSubmissionResult, 'question_results' | 'score'>): string | null => {
  if (!isWeighted(r)) return null
  const total = r.question_results.reduce((sum, q) => sum + (q.weight ?? 1), 0)
  const earned = r.question_results.reduce((sum, q) => sum + (q.is_correct ? (q.weight ?? 1) : 0), 0)
  const correct = r.question_results.filter((q) => q.is_correct).length
  return (
    `Questions carry different weights, so your score counts points rather than questions: ` +
    `${correct} of ${r.question_results.length} questions correct earned ${Math.round(earned * 100) / 100} of ${points(total)}, ` +
    `which is ${formatPercent(r.score)}. Category scores are weighted the same way.`
  )
}

/** A question's weight as the review shows it when the exam is weighted. */
export const weightText = (weight: number | undefined): string => `Weight: ${points(weight ?? 1)}`
