// A small fixed data set of item analysis with its figures worked out by hand (see stats.test.ts):
// five attempts of five questions, all weights 1. Q1 everyone gets right, Q2 nobody, Q3 has a
// negative discrimination, Q4 a low one; attempts A and B tie at the top (the upper 27 % group is
// one place: they share it, half each).
import type { QuestionType } from '@portal/contracts'
import type { AttemptFacts } from './reference.ts'

export interface FixtureQuestion {
  key: string
  type: QuestionType
  text: string
  options: string[]
  correct: number | number[]
}

export const FIXTURE_QUESTIONS: FixtureQuestion[] = [
  { key: 'Q1', type: 'multiple_choice', text: 'Everyone gets this', options: ['a', 'b', 'c'], correct: 0 },
  { key: 'Q2', type: 'multiple_choice', text: 'Nobody gets this', options: ['m', 'n'], correct: 0 },
  { key: 'Q3', type: 'multiple_choice', text: 'The weak get this', options: ['p', 'q', 'r', 's'], correct: 1 },
  { key: 'Q4', type: 'multiple_choice', text: 'Barely tells apart', options: ['u', 'v'], correct: 1 },
  { key: 'Q5', type: 'multi_select', text: 'Pick two', options: ['w', 'x', 'y'], correct: [0, 1] },
]

/** Each attempt's answers as pool indexes (-1: unanswered), Q1..Q5. */
export const FIXTURE_ANSWERS: Record<'A' | 'B' | 'C' | 'D' | 'E', (number | number[])[]> = {
  A: [0, 1, 0, 1, [0, 1]],
  B: [0, 1, 2, 1, [0, 1]],
  C: [0, 1, 0, 1, [0]],
  D: [0, 1, 1, 0, [0, 2]],
  E: [0, -1, -1, 0, []],
}

const isRight = (q: FixtureQuestion, a: number | number[]) => (Array.isArray(q.correct) ? Array.isArray(a) && a.join() === q.correct.join() : a === q.correct)
const asPool = (a: number | number[]) => (Array.isArray(a) ? a : a >= 0 ? [a] : [])

/** The fixture as kept facts, question ids from `ids` (Q1..Q5 in order). */
export function fixtureFacts(ids: readonly number[]): AttemptFacts[] {
  return Object.values(FIXTURE_ANSWERS).map((answers) => {
    const items = FIXTURE_QUESTIONS.map((q, i) => ({ questionId: ids[i]!, correct: isRight(q, answers[i]!), chosen: asPool(answers[i]!) }))
    return { score: (items.filter((i) => i.correct).length / items.length) * 100, durationSeconds: 300, items }
  })
}
