import { describe, expect, it } from 'vitest'
import { initialDrafts, isAnswered, toSubmission, toggleMarked, toggleOption } from './answers.ts'

const q = (id: number, question_type: 'multiple_choice' | 'multi_select') => ({
  id,
  question_type,
  question_text: `Q${id}`,
  options: ['a', 'b', 'c', 'd'],
  subject_category: null,
})

describe('answers', () => {
  it('keeps multi-select answers sorted and unique when options are ticked in any order', () => {
    let d = toggleOption([], 3)
    d = toggleOption(d, 0)
    d = toggleOption(d, 2)
    expect(d).toEqual([0, 2, 3])
    expect(toggleOption(d, 2)).toEqual([0, 3])
  })

  it('sends unanswered questions as -1, including an empty multi-select', () => {
    expect(toSubmission([null, [], 2, [1, 3]])).toEqual([-1, -1, 2, [1, 3]])
  })

  it('starts blank, or from the answers saved on the server when resuming', () => {
    const qs = [q(1, 'multiple_choice'), q(2, 'multi_select'), q(3, 'multiple_choice')]
    expect(initialDrafts(qs)).toEqual([null, [], null])
    expect(initialDrafts(qs, [2, [3, 1], -1])).toEqual([2, [1, 3], null])
  })

  it('tells answered from unanswered', () => {
    expect(isAnswered(null)).toBe(false)
    expect(isAnswered([])).toBe(false)
    expect(isAnswered(0)).toBe(true)
    expect(isAnswered([0])).toBe(true)
  })

  it('marks and unmarks questions for review, in question order', () => {
    expect(toggleMarked([4], 1)).toEqual([1, 4])
    expect(toggleMarked([1, 4], 4)).toEqual([1])
  })
})
