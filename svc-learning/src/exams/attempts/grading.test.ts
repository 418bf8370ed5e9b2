import { describe, expect, it } from 'vitest'
import type { Question } from '@portal/contracts'
import { answerProblem, gradeAttempt, isCorrect } from './grading.ts'
import { shuffle } from '../../shared/index.ts'
import { draw } from './draw.ts'
import { drawOptionOrder, shownOptions, toPoolAnswer, toShownAnswer } from '../option-order.ts'

const mc = (id: number, correct: number, category: string | null = 'A', weight = 1): Question => ({
  id,
  question_type: 'multiple_choice',
  question_text: `Q${id}`,
  options: ['a', 'b', 'c'],
  correct_answer: correct,
  subject_category: category,
  category_weight: weight,
})
const ms = (id: number, correct: number[], category: string | null = 'B', weight = 1): Question => ({
  ...mc(id, 0, category, weight),
  question_type: 'multi_select',
  options: ['a', 'b', 'c', 'd'],
  correct_answer: correct,
})
const grade = (questions: Question[], answers: (number | number[])[], passScore = 70) =>
  gradeAttempt({ attemptId: crypto.randomUUID(), examId: 1, examName: 'E', passScore, attemptNumber: 1, questions, answers, submittedAt: new Date(0) })

describe('isCorrect', () => {
  it('grades multiple choice by index', () => {
    expect(isCorrect(mc(1, 2), 2)).toBe(true)
    expect(isCorrect(mc(1, 2), 1)).toBe(false)
    expect(isCorrect(mc(1, 0), -1)).toBe(false)
    expect(isCorrect(mc(1, 0), [0])).toBe(false)
  })
  it('grades multi-select by the exact set', () => {
    expect(isCorrect(ms(1, [0, 2]), [0, 2])).toBe(true)
    expect(isCorrect(ms(1, [0, 2]), [0])).toBe(false)
    expect(isCorrect(ms(1, [0, 2]), [0, 1, 2])).toBe(false)
    expect(isCorrect(ms(1, [0, 2]), [])).toBe(false)
    expect(isCorrect(ms(1, [0]), 0)).toBe(false)
    expect(isCorrect(ms(1, [0, 2]), -1)).toBe(false)
  })
})

describe('answerProblem', () => {
  it('accepts well-formed answers and -1 for unanswered', () => {
    expect(answerProblem(mc(1, 0), 2)).toBeNull()
    expect(answerProblem(mc(1, 0), -1)).toBeNull()
    expect(answerProblem(ms(1, [0]), [0, 3])).toBeNull()
    expect(answerProblem(ms(1, [0]), -1)).toBeNull()
    expect(answerProblem(ms(1, [0]), [])).toBeNull()
  })
  it('refuses wrong shapes, out-of-range indexes and unsorted or duplicate lists', () => {
    expect(answerProblem(mc(1, 0), [1])).toMatch(/one option index/)
    expect(answerProblem(mc(1, 0), 3)).toMatch(/not one of the options/)
    expect(answerProblem(ms(1, [0]), 1)).toMatch(/list of option indexes/)
    expect(answerProblem(ms(1, [0]), [4])).toMatch(/not one of the options/)
    expect(answerProblem(ms(1, [0]), [2, 1])).toMatch(/sorted/)
    expect(answerProblem(ms(1, [0]), [1, 1])).toMatch(/sorted/)
  })
})

describe('gradeAttempt', () => {
  it('weights the score by category_weight and rounds to 2 decimals', () => {
    const qs = [mc(1, 0, 'A', 1), mc(2, 0, 'A', 2), mc(3, 0, 'B', 3)]
    expect(grade(qs, [0, 0, 1]).score).toBe(50) // (1 + 2) / 6
    expect(grade(qs, [1, 1, 0]).score).toBe(50)
    expect(grade(qs, [0, 1, 1]).score).toBe(16.67)
    expect(grade([mc(1, 0), mc(2, 0), mc(3, 0)], [0, 0, 1]).score).toBe(66.67)
  })
  it("gives each question's weight with its result, so the results can explain a weighted score", () => {
    const result = grade([mc(1, 0, 'A', 1), mc(2, 0, 'A', 2.5), mc(3, 0, 'B', 0)], [0, 1, 0])
    expect(result.question_results.map((r) => r.weight)).toEqual([1, 2.5, 1])
  })
  it('passes at exactly the pass score', () => {
    const qs = [mc(1, 0), mc(2, 0), mc(3, 0), mc(4, 0)]
    expect(grade(qs, [0, 0, 0, 1], 75)).toMatchObject({ score: 75, passed: true, correct_answers: 3, total_questions: 4 })
    expect(grade(qs, [0, 0, 1, 1], 75)).toMatchObject({ score: 50, passed: false })
  })
  it('counts unanswered (-1) as incorrect and keeps the learner’s answer in the review', () => {
    const result = grade([mc(1, 0), ms(2, [1, 2])], [-1, -1])
    expect(result).toMatchObject({ score: 0, passed: false, correct_answers: 0 })
    expect(result.question_results.map((r) => r.user_answer)).toEqual([-1, -1])
    expect(result.question_results[1]).toMatchObject({ question_id: 2, question_type: 'multi_select', correct_answer: [1, 2], is_correct: false })
  })
  it('reports sections per subject category in attempt order, weighted within each', () => {
    const qs = [ms(1, [0, 1], 'B', 1), mc(2, 0, 'A', 1), mc(3, 0, null), mc(4, 0, 'A', 3), ms(5, [3], 'B')]
    const result = grade(qs, [[0, 1], 0, 0, 1, [2]])
    expect(result.section_scores).toEqual([
      { section_name: 'B', section_score: 50, correct_answers: 1, questions_in_section: 2 },
      { section_name: 'A', section_score: 25, correct_answers: 1, questions_in_section: 2 },
      { section_name: 'General', section_score: 100, correct_answers: 1, questions_in_section: 1 },
    ])
    expect(result.question_results.map((r) => r.question_id)).toEqual([1, 2, 3, 4, 5])
  })
})

describe('draw', () => {
  it('draws distinct items of the pool in random order', () => {
    const pool = Array.from({ length: 20 }, (_, i) => i)
    const drawn = draw(pool, 8)
    expect(drawn).toHaveLength(8)
    expect(new Set(drawn).size).toBe(8)
    expect(drawn.every((x) => pool.includes(x))).toBe(true)
    expect(shuffle(pool).sort((a, b) => a - b)).toEqual(pool)
    const orders = new Set(Array.from({ length: 20 }, () => shuffle(pool).join(',')))
    expect(orders.size).toBeGreaterThan(1)
  })
})

describe('options in the order an attempt shows them', () => {
  // Shown: c, a, d, b (pool indexes 2, 0, 3, 1).
  const order = [2, 0, 3, 1]
  it('maps answers given in the order shown back to the pool (multi-select sorted), and correct answers forth', () => {
    expect(shownOptions(['a', 'b', 'c', 'd'], order)).toEqual(['c', 'a', 'd', 'b'])
    expect(toPoolAnswer(0, order)).toBe(2)
    expect(toPoolAnswer(-1, order)).toBe(-1)
    expect(toPoolAnswer([0, 3], order)).toEqual([1, 2])
    expect(toPoolAnswer([], order)).toEqual([])
    expect(toShownAnswer(2, order)).toBe(0)
    expect(toShownAnswer([1, 2], order)).toEqual([0, 3])
    // Attempts started before shuffling hold no order: the pool's.
    expect([toPoolAnswer([1, 3], null), toShownAnswer(1, null), shownOptions(['a', 'b'], null)]).toEqual([[1, 3], 1, ['a', 'b']])
  })
  it('grades the answers mapped back and reviews the question as shown', () => {
    const result = gradeAttempt({
      attemptId: crypto.randomUUID(),
      examId: 1,
      examName: 'E',
      passScore: 50,
      attemptNumber: 1,
      questions: [{ ...mc(1, 2), options: ['a', 'b', 'c', 'd'] }, ms(2, [1, 2]), mc(3, 0)],
      optionOrders: [order, order, null],
      answers: [0, [0, 3], 0],
      submittedAt: new Date(0),
    })
    expect(result.question_results.map((r) => [r.options, r.user_answer, r.correct_answer, r.is_correct])).toEqual([
      [['c', 'a', 'd', 'b'], 0, 0, true],
      [['c', 'a', 'd', 'b'], [0, 3], [0, 3], true],
      [['a', 'b', 'c'], 0, 0, true],
    ])
    expect(result.score).toBe(100)
  })
  it('draws an order only for an exam that shuffles and a question that does not keep its own', () => {
    const q = { options: ['a', 'b', 'c', 'd', 'e'], keep_option_order: false }
    const seen = new Set(Array.from({ length: 30 }, () => drawOptionOrder(q, true).join('')))
    expect(seen.size).toBeGreaterThan(1)
    for (const o of seen) expect([...o].sort().join('')).toBe('01234')
    expect(drawOptionOrder(q, false)).toEqual([0, 1, 2, 3, 4])
    expect(drawOptionOrder({ ...q, keep_option_order: true }, true)).toEqual([0, 1, 2, 3, 4])
  })
})
