import type { Answer, AttemptQuestion } from '@portal/contracts'

/** An answer in progress: an option index, a sorted list of indexes, or null when not answered. */
export type Draft = number | number[] | null

/** Blank drafts for the questions, or the answers the server kept when an attempt is resumed. */
export const initialDrafts = (questions: readonly AttemptQuestion[], saved?: readonly Answer[]): Draft[] =>
  questions.map((q, i) => {
    const a = saved?.[i]
    if (q.question_type === 'multi_select') return Array.isArray(a) ? [...a].sort((x, y) => x - y) : []
    return typeof a === 'number' && a >= 0 ? a : null
  })

/** Ticks or unticks option `index` of a multi-select answer; the list stays sorted and unique. */
export const toggleOption = (draft: Draft, index: number): number[] => {
  const current = Array.isArray(draft) ? draft : []
  const next = current.includes(index) ? current.filter((i) => i !== index) : [...current, index]
  return next.sort((a, b) => a - b)
}

export const isAnswered = (draft: Draft): boolean => (Array.isArray(draft) ? draft.length > 0 : draft !== null)

/** The answers as the server takes them: unanswered questions are -1. */
export const toSubmission = (drafts: readonly Draft[]): Answer[] => drafts.map((d) => (Array.isArray(d) ? (d.length ? [...d] : -1) : (d ?? -1)))

/** Adds or removes a question (by position) from the set marked for review; kept in order. */
export const toggleMarked = (marked: readonly number[], index: number): number[] =>
  marked.includes(index) ? marked.filter((i) => i !== index) : [...marked, index].sort((a, b) => a - b)
