import { describe, expect, it } from 'vitest'
import { FIXTURE_QUESTIONS, fixtureFacts } from './fixture.test-support.ts'
import { groupWeights, poolAnswer, referenceAnalysis } from './reference.ts'
import { cronbachAlpha, flagsOf, toExamStats, toItemStats, type AnalysedQuestion } from './stats.ts'

// The fixture (fixture.test-support.ts): raw scores A..E = 3, 3, 2, 2, 1; scores 60, 60, 40, 40, 20.
const ids = [11, 12, 13, 14, 15]
const { exam, items } = referenceAnalysis(fixtureFacts(ids))
const questions: AnalysedQuestion[] = FIXTURE_QUESTIONS.map((q, i) => ({
  id: ids[i]!,
  text: q.text,
  type: q.type,
  options: q.options,
  correct: Array.isArray(q.correct) ? q.correct : [q.correct],
  inPool: true,
  status: 'active',
}))
const shown = questions.map((q, i) => toItemStats(q, items[i]))
const [q1, q2, q3, q4, q5] = shown as [
  ReturnType<typeof toItemStats>,
  ReturnType<typeof toItemStats>,
  ReturnType<typeof toItemStats>,
  ReturnType<typeof toItemStats>,
  ReturnType<typeof toItemStats>,
]

describe('item analysis figures, worked by hand on the fixture', () => {
  it('the test: mean 44, median 40, sample deviation √280, the histogram, alpha 5/4·(1 − 0.64/0.56)', () => {
    const stats = toExamStats(exam, items)
    expect(stats).toMatchObject({ attempts: 5, mean: 44, median: 40, standard_deviation: 16.73, questions_per_attempt: 5, mean_duration_seconds: 300 })
    expect(exam.standardDeviation).toBeCloseTo(Math.sqrt(280), 12)
    // Σ p·q = 0 + 0 + 0.16 + 0.24 + 0.24; population variance of 3, 3, 2, 2, 1 is 0.56.
    expect(exam.rawVariance).toBeCloseTo(0.56, 12)
    expect(cronbachAlpha(5, 5, 0.56, items)).toBeCloseTo(1.25 * (1 - 0.64 / 0.56), 12)
    expect(stats.cronbach_alpha).toBe(-0.1786)
    expect(stats.histogram.map((b) => b.count)).toEqual([0, 0, 1, 0, 2, 0, 2, 0, 0, 0])
    expect(stats.histogram[9]).toEqual({ from: 90, to: 100, count: 0 })
  })

  it('the tie: A and B share the one upper place, E alone is the lower group', () => {
    expect(groupWeights([3, 3, 2, 2, 1])).toEqual({ upper: [0.5, 0.5, 0, 0, 0], lower: [0, 0, 0, 0, 1] })
    // 27 % of 10 is 3 places: three tied at 2 below the best share two places.
    expect(groupWeights([5, 2, 2, 2, 1, 1, 1, 1, 0, 0]).upper).toEqual([1, 2 / 3, 2 / 3, 2 / 3, 0, 0, 0, 0, 0, 0])
    expect(groupWeights([1])).toEqual({ upper: [1], lower: [1] })
  })

  it('a question everyone gets right: facility 100, no discrimination (no variance), too easy, unchosen distractors', () => {
    expect(q1).toMatchObject({ attempts: 5, correct: 5, facility: 100, discrimination: null, upper_lower: 0 })
    expect(q1.flags.map((f) => f.code)).toEqual(['too_easy', 'non_functioning_distractor', 'non_functioning_distractor'])
    expect(q1.flags[0]!.reason).toBe('Too easy: 100% answered correctly (above 90%)')
    expect(q1.flags[1]!.reason).toBe('Non-functioning distractor: "b" chosen by 0% (below 5%)')
  })

  it('a question nobody gets right: facility 0, too hard; its correct option is no distractor', () => {
    expect(q2).toMatchObject({ attempts: 5, correct: 0, facility: 0, discrimination: null, upper_lower: 0 })
    expect(q2.flags.map((f) => f.code)).toEqual(['too_hard'])
    expect(q2.options.map((o) => [o.chosen, o.chosen_pct])).toEqual([
      [0, 0],
      [4, 80],
    ])
  })

  it('a negative discrimination: r = −1/√3.2, the weak get it right; facility exactly 20 % is not too hard', () => {
    expect(items[2]!.discrimination).toBeCloseTo(-1 / Math.sqrt(3.2), 12)
    expect(q3).toMatchObject({ facility: 20, discrimination: -0.559, upper_lower: 0 })
    expect(q3.flags.map((f) => f.code)).toEqual(['negative_discrimination', 'non_functioning_distractor'])
    expect(q3.flags[0]!.reason).toMatch(/^Negative discrimination: -0\.56 /)
    // Chosen by A, C (p); D (q); B (r); nobody (s); E left it. The upper group (A, B: half each) split p and r.
    expect(q3.options.map((o) => [o.text, o.chosen, o.chosen_pct, o.upper_pct, o.lower_pct])).toEqual([
      ['p', 2, 40, 50, 0],
      ['q', 1, 20, 0, 0],
      ['r', 1, 20, 50, 0],
      ['s', 0, 0, 0, 0],
    ])
  })

  it('a low discrimination: r = 0.2/1.2, though the upper/lower difference is 1', () => {
    expect(items[3]!.discrimination).toBeCloseTo(0.2 / 1.2, 12)
    expect(q4).toMatchObject({ facility: 60, discrimination: 0.1667, upper_lower: 1 })
    expect(q4.flags.map((f) => f.code)).toEqual(['low_discrimination'])
  })

  it('a multi-select question: each option counted, r = 0.4/√0.96, no flags', () => {
    expect(items[4]!.discrimination).toBeCloseTo(0.4 / Math.sqrt(0.96), 12)
    expect(q5).toMatchObject({ facility: 40, discrimination: 0.4082, upper_lower: 1, avg_seconds: null })
    expect(q5.options.map((o) => [o.is_correct, o.chosen, o.chosen_pct, o.upper_pct])).toEqual([
      [true, 4, 80, 100],
      [true, 2, 40, 100],
      [false, 1, 20, 0],
    ])
    expect(q5.flags).toEqual([])
  })

  it('no attempts: counts 0 and null statistics (never NaN), no flags', () => {
    const empty = referenceAnalysis([])
    const stats = toExamStats(empty.exam, empty.items)
    expect(stats).toMatchObject({ attempts: 0, mean: null, median: null, standard_deviation: null, cronbach_alpha: null, mean_duration_seconds: null })
    expect(stats.histogram.every((b) => b.count === 0)).toBe(true)
    const q = toItemStats(questions[0]!, undefined)
    expect(q).toMatchObject({ attempts: 0, correct: 0, facility: null, discrimination: null, upper_lower: null })
    expect(q.options.every((o) => o.chosen === 0 && o.chosen_pct === null && o.upper_pct === null)).toBe(true)
    expect(q.flags).toEqual([])
    expect(JSON.stringify(stats)).not.toMatch(/NaN/)
  })

  it('one attempt: no deviation nor alpha', () => {
    const one = referenceAnalysis(fixtureFacts(ids).slice(0, 1))
    expect(toExamStats(one.exam, one.items)).toMatchObject({ attempts: 1, mean: 60, median: 60, standard_deviation: null, cronbach_alpha: null })
  })

  it('flags draw their lines at 90 %, 20 %, 0.2 and 5 % (strictly)', () => {
    const at = (facility: number, discrimination: number | null, pct = 50) =>
      flagsOf({ attempts: 10, facility, discrimination, options: [{ index: 0, text: 'x', is_correct: false, chosen: 1, chosen_pct: pct, upper_pct: 0, lower_pct: 0 }] }).map(
        (f) => f.code,
      )
    expect(at(90, 0.2, 5)).toEqual([])
    expect(at(90.01, 0.2)).toEqual(['too_easy'])
    expect(at(19.99, 0.5)).toEqual(['too_hard'])
    expect(at(50, 0.1999)).toEqual(['low_discrimination'])
    expect(at(50, -0.01)).toEqual(['negative_discrimination'])
    expect(at(50, 0.5, 4.99)).toEqual(['non_functioning_distractor'])
  })

  it('maps an answer given in the shown order back to pool indexes', () => {
    expect(poolAnswer(2, [3, 0, 1, 2])).toEqual([1])
    expect(poolAnswer([0, 3], [3, 0, 1, 2])).toEqual([2, 3])
    expect(poolAnswer(-1, [1, 0])).toEqual([])
    expect(poolAnswer([], null)).toEqual([])
    expect(poolAnswer(1, null)).toEqual([1])
  })
})
