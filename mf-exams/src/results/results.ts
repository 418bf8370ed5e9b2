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

/** The option texts an answer points at, or "Not answered". */
export const answerText = (answer: Answer | number[] | number, options: readonly string[]): string => {
  const picked = (Array.isArray(answer) ? answer : [answer]).filter((i) => i >= 0)
  if (picked.length === 0) return 'Not answered'
  return picked.map((i) => options[i] ?? `Option ${i + 1}`).join(', ')
}
