import { describe, expect, it } from 'vitest'
import type { ItemStats } from '@portal/contracts'
import { figure, histogramBars, histogramText, optionLines, percent, rangeError, scatterPoints, scatterText, workbookName } from './item-analysis-view.ts'

const q = (over: Partial<ItemStats>): ItemStats => ({
  question_id: 1,
  question_text: 'Q',
  question_type: 'multiple_choice',
  in_pool: true,
  status: 'active',
  attempts: 10,
  correct: 5,
  facility: 50,
  discrimination: 0.5,
  upper_lower: 0.4,
  avg_seconds: null,
  options: [],
  flags: [],
  ...over,
})

describe('item analysis view', () => {
  it('writes undefined figures as a dash, never NaN', () => {
    expect([figure(null), figure(0.12345), percent(null), percent(33.333)]).toEqual(['—', '0.12', '—', '33.3%'])
  })
  it('refuses an end before the start', () => {
    expect(rangeError('2025-05-10', '2025-05-09')).toMatch(/end date/)
    expect(rangeError('2025-05-10', '2025-05-10')).toBeNull()
    expect(rangeError('', '2025-05-09')).toBeNull()
  })
  it('draws the histogram bars to the tallest bin, and says them in words', () => {
    const h = [
      { from: 0, to: 50, count: 1 },
      { from: 50, to: 100, count: 4 },
    ]
    expect(histogramBars(h, 200, 100)).toEqual([
      { x: 0, y: 75, width: 100, height: 25, label: '0–50%', count: 1 },
      { x: 100, y: 0, width: 100, height: 100, label: '50–100%', count: 4 },
    ])
    expect(histogramBars([{ from: 0, to: 10, count: 0 }], 10, 10)[0]!.height).toBe(0)
    expect(histogramText(h)).toBe('Score distribution: 0 to 50%: 1 attempt; 50 to 100%: 4 attempts.')
  })
  it('places questions by facility and discrimination, leaving out those without either', () => {
    const points = scatterPoints(
      [q({ facility: 100, discrimination: null }), q({ question_id: 2, facility: 25, discrimination: -0.5, flags: [{ code: 'negative_discrimination', reason: 'r' }] })],
      200,
      100,
    )
    expect(points).toEqual([{ x: 50, y: 75, questionId: 2, label: 'Q2', flagged: true }])
    expect(scatterText([q({ facility: null, discrimination: null, attempts: 0 })])).toBe('No question has attempts yet.')
    expect(scatterText([q({})])).toBe('Facility and discrimination per question: Q1 facility 50%, discrimination 0.50.')
  })
  it('lists options with their share and the correct one', () => {
    const lines = optionLines(
      q({
        options: [
          { index: 0, text: 'Yes', is_correct: true, chosen: 3, chosen_pct: 30, upper_pct: 50, lower_pct: 0 },
          { index: 1, text: 'No', is_correct: false, chosen: 0, chosen_pct: null, upper_pct: null, lower_pct: null },
        ],
      }),
    )
    expect(lines).toEqual(['A. Yes: 30% (3), correct', 'B. No: — (0)'])
  })
  it('names the workbook after the exam and the kind of attempts', () => {
    expect(workbookName({ exam_name: 'Ladder Safety: Basics', kind: 'final' })).toBe('item-analysis-ladder-safety-basics-final.xlsx')
  })
})
