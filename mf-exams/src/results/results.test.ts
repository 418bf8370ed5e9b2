import { describe, expect, it } from 'vitest'
import { answerText, formatPercent, isWeighted, resultFromState, reviewOptions, sectionTone, weightText, weightedScoreExplanation } from './results.ts'

describe('exam results', () => {
  it('colours sections green from 80, yellow from 70, else red, with words as well', () => {
    expect(sectionTone(80)).toEqual({ tone: 'green', label: 'Strong' })
    expect(sectionTone(79.9).tone).toBe('yellow')
    expect(sectionTone(70)).toEqual({ tone: 'yellow', label: 'Fair' })
    expect(sectionTone(69)).toEqual({ tone: 'red', label: 'Needs improvement' })
  })

  it('names the chosen options, or says it was not answered', () => {
    expect(answerText(1, ['a', 'b'])).toBe('b')
    expect(answerText([0, 2], ['a', 'b', 'c'])).toBe('a, c')
    expect(answerText(-1, ['a'])).toBe('Not answered')
    expect(answerText([], ['a'])).toBe('Not answered')
  })

  it('marks the options of a reviewed question, in the order the learner saw them, as chosen and as correct', () => {
    expect(reviewOptions({ options: ['c', 'a', 'b'], user_answer: 2, correct_answer: 0 })).toEqual([
      { text: 'c', chosen: false, correct: true },
      { text: 'a', chosen: false, correct: false },
      { text: 'b', chosen: true, correct: false },
    ])
    expect(reviewOptions({ options: ['x', 'y', 'z'], user_answer: [0, 2], correct_answer: [0, 1] }).map((o) => [o.chosen, o.correct])).toEqual([
      [true, true],
      [false, true],
      [true, false],
    ])
    expect(reviewOptions({ options: ['x', 'y'], user_answer: -1, correct_answer: 1 }).some((o) => o.chosen)).toBe(false)
  })

  it('formats scores', () => {
    expect(formatPercent(66.666)).toBe('66.7%')
    expect(formatPercent(100)).toBe('100%')
  })

  it('accepts only a real submission result from router state', () => {
    expect(resultFromState(null)).toBeNull()
    expect(resultFromState({ result: { score: 5 } })).toBeNull()
    const result = {
      attemptId: '3f1c7a52-6a1e-4f5e-9d7a-0c8e2b1d4a10',
      examId: 1,
      exam_name: 'Safety',
      score: 50,
      passed: false,
      pass_score: 70,
      correct_answers: 1,
      total_questions: 2,
      attempt_number: 1,
      question_results: [],
      section_scores: [],
      submitted_at: '2026-01-01T10:00:00Z',
    }
    expect(resultFromState({ result })?.exam_name).toBe('Safety')
  })
  it('explains a weighted score by points, and says nothing when every question weighs the same', () => {
    const q = (is_correct: boolean, weight?: number) => ({ is_correct, ...(weight === undefined ? {} : { weight }) })
    const weighted = { score: 25, question_results: [q(true, 1), q(false, 2), q(false, 1)] }
    expect(isWeighted(weighted as never)).toBe(true)
    expect(weightedScoreExplanation(weighted as never)).toBe(
      'Questions carry different weights, so your score counts points rather than questions: 1 of 3 questions correct earned 1 of 4 points, which is 25%. Category scores are weighted the same way.',
    )
    expect(weightedScoreExplanation({ score: 50, question_results: [q(true, 2), q(false, 2)] } as never)).toBeNull()
    // Results stored before weights were reported count every question once.
    expect(weightedScoreExplanation({ score: 50, question_results: [q(true), q(false)] } as never)).toBeNull()
    expect(weightText(2.5)).toBe('Weight: 2.5 points')
    expect(weightText(1)).toBe('Weight: 1 point')
  })
})
