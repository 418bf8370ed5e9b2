import { describe, expect, it } from 'vitest'
import { drawOptionOrder, shownOptions, toPoolAnswer, toShownAnswer } from './option-order.ts'

// Issue 27: options shuffled per attempt (decision 0045). In the demo exams the correct option used
// to be listed first; over 1,000 attempts it must land on each position about equally often.
const question = { options: ['Right', 'Wrong A', 'Wrong B', 'Wrong C'], keep_option_order: false }
const CORRECT = 0
const ATTEMPTS = 1_000

/** Where the correct option is shown in each of `n` drawn orders. */
const positions = (q: typeof question, shuffleOptions: boolean, n = ATTEMPTS) =>
  Array.from({ length: n }, () => toShownAnswer(CORRECT, drawOptionOrder(q, shuffleOptions)) as number)

const counts = (shown: number[], k: number) => shown.reduce((c, p) => (c[p]!++, c), Array<number>(k).fill(0))

describe('the order an attempt shows options in', () => {
  it('puts the correct option at each position about equally often over 1,000 attempts (chi-square, 3 degrees of freedom)', () => {
    const seen = counts(positions(question, true), question.options.length)
    const expected = ATTEMPTS / question.options.length
    const chiSquare = seen.reduce((sum, o) => sum + (o - expected) ** 2 / expected, 0)
    // 30.66 is the chi-square of 3 degrees of freedom exceeded by chance once in a million runs:
    // a fixed or favoured position fails it (all at one position scores 3,000), a fair shuffle never does.
    expect(chiSquare).toBeLessThan(30.66)
    // No position is missed or dominant: each holds between 15% and 35% of the attempts.
    for (const o of seen) expect(o / ATTEMPTS).toBeGreaterThan(0.15)
    for (const o of seen) expect(o / ATTEMPTS).toBeLessThan(0.35)
  })

  it('keeps the pool order when the exam does not shuffle or the question keeps its order ("All of the above")', () => {
    expect(new Set(positions(question, false, 50))).toEqual(new Set([CORRECT]))
    expect(new Set(positions({ ...question, keep_option_order: true }, true, 50))).toEqual(new Set([CORRECT]))
  })

  it('shows, grades and reports through the same permutation', () => {
    const order = [2, 0, 3, 1]
    expect(shownOptions(question.options, order)).toEqual(['Wrong B', 'Right', 'Wrong C', 'Wrong A'])
    // The learner picks the second option shown: the pool's first, the correct one.
    expect(toPoolAnswer(1, order)).toBe(CORRECT)
    expect(toShownAnswer(CORRECT, order)).toBe(1)
    expect(toPoolAnswer([3, 0], order)).toEqual([1, 2])
    expect(toPoolAnswer(-1, order)).toBe(-1)
    expect(shownOptions(question.options, null)).toEqual(question.options)
  })
})
