import { describe, expect, it } from 'vitest'
import { ExamInput } from '@portal/contracts'
import { DEMO_EXAMS } from './demo-data.ts'

describe('demo exams', () => {
  it('shuffle their options, and list the correct ones all over rather than first (issue 27)', () => {
    expect(DEMO_EXAMS.length).toBeGreaterThan(0)
    for (const input of DEMO_EXAMS) {
      const exam = ExamInput.parse(input)
      expect(exam.shuffle_options, exam.name).toBe(true)
      const single = exam.questions.flatMap((q) => (typeof q.correct_answer === 'number' ? [q.correct_answer] : []))
      // Every position of a four-option question holds a correct answer somewhere, the first no more than its share.
      expect(new Set(single).size, exam.name).toBeGreaterThanOrEqual(3)
      expect(single.filter((i) => i === 0).length, exam.name).toBeLessThanOrEqual(Math.ceil(single.length / 3))
      const multi = exam.questions.flatMap((q) => (Array.isArray(q.correct_answer) ? [q.correct_answer] : []))
      expect(multi.filter((a) => a[0] === 0).length, exam.name).toBeLessThan(multi.length)
    }
  })
})
