import { describe, expect, it } from 'vitest'
import { IMPORT_TEMPLATE, parseCorrect, readQuestions } from './question-import.ts'

describe('question import', () => {
  it('reads the template: one column per option, numbers for the correct answers', () => {
    const result = readQuestions(IMPORT_TEMPLATE, [])
    expect(result.fileError).toBeNull()
    expect(result.rows.map((r) => r.errors)).toEqual([[], [], []])
    expect(result.rows[0]).toMatchObject({
      line: 2,
      question: { question_type: 'multiple_choice', options: ['One foot', 'Three feet', 'Five feet'], correct_answer: 1, subject_category: 'Ladders', category_weight: 1 },
    })
    expect(result.rows[1]!.question).toMatchObject({ question_type: 'multi_select', correct_answer: [0, 2], category_weight: 2, keep_option_order: false })
    expect(result.rows[2]!.question).toMatchObject({ options: ['The rungs', 'The feet', 'The locks', 'All of the above'], correct_answer: 3, keep_option_order: true })
    expect(result.newCategories).toEqual(['Ladders', 'Tools'])
  })

  it('takes an Options column split by "|", letters for answers, any case and spacing in the names, and infers the type', () => {
    const result = readQuestions(
      [
        ['QUESTION_TEXT', 'options', 'Correct Answer', 'subject-category'],
        ['Pick two', 'a | b | c', 'A, c', 'Tools'],
      ],
      ['tools'],
    )
    expect(result.rows[0]!.question).toMatchObject({ question_type: 'multi_select', options: ['a', 'b', 'c'], correct_answer: [0, 2] })
    expect(result.rows[0]!.errors).toEqual([])
    expect(result.newCategories).toEqual([])
  })

  it('gives each row its own errors, with its line in the file, and skips empty rows', () => {
    const result = readQuestions(
      [
        ['Question', 'Option 1', 'Option 2', 'Correct', 'Type', 'Weight'],
        ['', 'a', 'b', '1', '', ''],
        ['', '', '', '', '', ''],
        ['Only one option', 'a', '', '1', '', ''],
        ['Answer out of range', 'a', 'b', '3', '', ''],
        ['Two answers, one allowed', 'a', 'b', '1,2', 'multiple choice', ''],
        ['Bad type and weight', 'a', 'b', '1', 'essay', 'heavy'],
        ['No answer', 'a', 'b', '', '', ''],
      ],
      [],
    )
    expect(result.rows.map((r) => [r.line, r.errors])).toEqual([
      [2, ['Question text is required']],
      [4, ['A question needs at least two options']],
      [5, ['Correct answer 3 is not one of the 2 options']],
      [6, ['A multiple choice question has one correct answer']],
      [7, ['Unknown type "essay": use multiple_choice or multi_select', 'Weight must be a number above 0 and at most 100']],
      [8, ['Correct answer is missing']],
    ])
  })

  it('says what the first row must hold when the columns are missing, and refuses an empty or huge file', () => {
    expect(readQuestions([['Name', 'Email']], []).fileError).toMatch(/^The first row must name the columns: Question, Option 1/)
    expect(readQuestions([['Question', 'Option 1', 'Correct']], []).fileError).toBe('The file has no questions.')
    const many = [['Question', 'Options', 'Correct'], ...Array.from({ length: 3 }, () => ['q', 'a|b', '1'])]
    expect(readQuestions(many, [], 2).fileError).toBe('The file has 3 questions; at most 2 can be imported at once.')
  })

  it('reads an optional Keep Order column: yes keeps the options in their order, empty or no shuffles them, anything else is an error', () => {
    const rows = readQuestions(
      [
        ['Question', 'Options', 'Correct', 'Keep option order'],
        ['A', 'a|b|All of the above', '3', 'Yes'],
        ['B', 'a|b', '1', ''],
        ['C', 'a|b', '1', 'no'],
        ['D', 'a|b', '1', 'x'],
        ['E', 'a|b', '1', 'sometimes'],
      ],
      [],
    ).rows
    expect(rows.map((r) => r.question.keep_option_order)).toEqual([true, false, false, true, false])
    expect(rows.map((r) => r.errors)).toEqual([[], [], [], [], ['Keep Order must be yes or no, not "sometimes"']])
    // Without the column every question may be shuffled.
    expect(
      readQuestions(
        [
          ['Question', 'Options', 'Correct'],
          ['A', 'a|b', '1'],
        ],
        [],
      ).rows[0]!.question.keep_option_order,
    ).toBe(false)
  })

  it('reads answers as numbers or letters', () => {
    expect(parseCorrect('2')).toEqual([1])
    expect(parseCorrect('3; 1')).toEqual([0, 2])
    expect(parseCorrect('b')).toEqual([1])
    expect(parseCorrect('two')).toBeNull()
  })
})
