import { isAnswered, type Draft } from './answers.ts'

/** Where one question of the attempt stands, for the palette and the review. */
export interface QuestionState {
  /** Position in the attempt, from 0. */
  index: number
  answered: boolean
  marked: boolean
}

export const questionStates = (drafts: readonly Draft[], marked: readonly number[]): QuestionState[] =>
  drafts.map((d, index) => ({ index, answered: isAnswered(d), marked: marked.includes(index) }))

/** A palette button's accessible name: "Question 3, unanswered, marked for review". */
export const paletteLabel = (s: QuestionState): string => `Question ${s.index + 1}, ${s.answered ? 'answered' : 'unanswered'}${s.marked ? ', marked for review' : ''}`

/** "3", "3 and 5", "2, 3 and 5" (question numbers from 1). */
export const listNumbers = (indexes: readonly number[]): string => {
  const n = indexes.map((i) => String(i + 1))
  return n.length <= 1 ? (n[0] ?? '') : `${n.slice(0, -1).join(', ')} and ${n.at(-1)}`
}

const questions = (n: number) => `${n} question${n === 1 ? '' : 's'}`

/** What the review screen lists before the final submit. */
export const reviewLists = (states: readonly QuestionState[]) => ({
  unanswered: states.filter((s) => !s.answered).map((s) => s.index),
  marked: states.filter((s) => s.marked).map((s) => s.index),
})

/**
 * The confirm step's words: what is still unanswered (it counts as wrong) and marked, or that all
 * is answered; a final exam also says the attempt is used up by submitting.
 */
export const confirmSubmitText = (states: readonly QuestionState[], attempt: { final: boolean; number: number; allowed: number | null }): string[] => {
  const { unanswered, marked } = reviewLists(states)
  const lines: string[] = []
  if (unanswered.length === 0) lines.push(`All ${questions(states.length)} are answered.`)
  else if (unanswered.length === states.length) lines.push(`None of the ${questions(states.length)} is answered: each counts as wrong.`)
  else
    lines.push(
      `${unanswered.length} of ${questions(states.length)} ${unanswered.length === 1 ? 'is' : 'are'} unanswered: ` +
        `question${unanswered.length === 1 ? '' : 's'} ${listNumbers(unanswered)}. Unanswered questions count as wrong.`,
    )
  if (marked.length > 0)
    lines.push(`${questions(marked.length)} ${marked.length === 1 ? 'is' : 'are'} marked for review: question${marked.length === 1 ? '' : 's'} ${listNumbers(marked)}.`)
  lines.push(
    attempt.final && attempt.allowed !== null
      ? `You cannot change your answers after submitting. This uses attempt ${attempt.number} of ${attempt.allowed}.`
      : 'You cannot change your answers after submitting.',
  )
  return lines
}
