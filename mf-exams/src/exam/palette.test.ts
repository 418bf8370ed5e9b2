import { describe, expect, it } from 'vitest'
import { confirmSubmitText, listNumbers, paletteLabel, questionStates, reviewLists } from './palette.ts'

describe('question palette and review', () => {
  const states = questionStates([0, null, [1, 2], [], 3], [1, 3])

  it('names each question by number, answered or not, and marked', () => {
    expect(states.map(paletteLabel)).toEqual([
      'Question 1, answered',
      'Question 2, unanswered, marked for review',
      'Question 3, answered',
      'Question 4, unanswered, marked for review',
      'Question 5, answered',
    ])
  })

  it('lists the unanswered and the marked questions for the review', () => {
    expect(reviewLists(states)).toEqual({ unanswered: [1, 3], marked: [1, 3] })
  })

  it('joins question numbers as a person writes them', () => {
    expect(listNumbers([])).toBe('')
    expect(listNumbers([2])).toBe('3')
    expect(listNumbers([2, 4])).toBe('3 and 5')
    expect(listNumbers([0, 2, 4])).toBe('1, 3 and 5')
  })

  it('names what is unanswered before the final submit, and the attempt it uses', () => {
    expect(confirmSubmitText(states, { final: true, number: 1, allowed: 2 })).toEqual([
      '2 of 5 questions are unanswered: questions 2 and 4. Unanswered questions count as wrong.',
      '2 questions are marked for review: questions 2 and 4.',
      'You cannot change your answers after submitting. This uses attempt 1 of 2.',
    ])
    expect(confirmSubmitText(questionStates([0, null], []), { final: false, number: 3, allowed: null })).toEqual([
      '1 of 2 questions is unanswered: question 2. Unanswered questions count as wrong.',
      'You cannot change your answers after submitting.',
    ])
  })

  it('says so when everything is answered, or nothing is', () => {
    expect(confirmSubmitText(questionStates([0, [1]], []), { final: false, number: 1, allowed: null })[0]).toBe('All 2 questions are answered.')
    expect(confirmSubmitText(questionStates([null, []], []), { final: false, number: 1, allowed: null })[0]).toBe('None of the 2 questions is answered: each counts as wrong.')
  })
})
