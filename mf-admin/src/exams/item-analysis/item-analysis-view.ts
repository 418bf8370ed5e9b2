// What the item analysis dialog draws and says, worked out apart from React (tested in node).
import type { ExamTestStats, ItemAnalysis, ItemStats } from '@portal/contracts'

/** A figure for a cell: a dash when it is not defined (no attempts, no spread). */
export const figure = (x: number | null, digits = 2) => (x === null ? '—' : x.toFixed(digits))
export const percent = (x: number | null) => (x === null ? '—' : `${Number(x.toFixed(1))}%`)

/** The options of a question as one line each: "B: 40% (12), correct". */
export const optionLines = (q: ItemStats) =>
  q.options.map((o) => `${String.fromCharCode(65 + (o.index % 26))}. ${o.text}: ${percent(o.chosen_pct)} (${o.chosen})${o.is_correct ? ', correct' : ''}`)

/** Whether the date range is usable: the end may not come before the start. */
export const rangeError = (start: string, end: string) => (start && end && end < start ? 'The end date must not be before the start date' : null)

export interface Bar {
  x: number
  y: number
  width: number
  height: number
  label: string
  count: number
}

/** The histogram's bars in a `width` × `height` drawing (scores 0-100 along x, attempts up). */
export function histogramBars(h: ExamTestStats['histogram'], width: number, height: number): Bar[] {
  const most = Math.max(1, ...h.map((b) => b.count))
  const w = width / Math.max(1, h.length)
  return h.map((b, i) => {
    const barHeight = (b.count / most) * height
    return { x: i * w, y: height - barHeight, width: w, height: barHeight, label: `${b.from}–${b.to}%`, count: b.count }
  })
}

/** The histogram in words (the drawing's text alternative). */
export const histogramText = (h: ExamTestStats['histogram']) =>
  `Score distribution: ${h.map((b) => `${b.from} to ${b.to}%: ${b.count} attempt${b.count === 1 ? '' : 's'}`).join('; ')}.`

export interface Point {
  x: number
  y: number
  questionId: number
  label: string
  flagged: boolean
}

/**
 * Each question with attempts as a point: facility (0-100 %) along x, discrimination (-1 to 1)
 * up, in a `width` × `height` drawing. Questions without a discrimination are left out.
 */
export function scatterPoints(questions: readonly ItemStats[], width: number, height: number): Point[] {
  return questions.flatMap((q, i) =>
    q.facility === null || q.discrimination === null
      ? []
      : [{ x: (q.facility / 100) * width, y: ((1 - q.discrimination) / 2) * height, questionId: q.question_id, label: `Q${i + 1}`, flagged: q.flags.length > 0 }],
  )
}

/** The scatter in words. */
export function scatterText(questions: readonly ItemStats[]): string {
  const shown = questions.map((q, i) => ({ q, n: i + 1 })).filter(({ q }) => q.facility !== null)
  if (shown.length === 0) return 'No question has attempts yet.'
  return `Facility and discrimination per question: ${shown.map(({ q, n }) => `Q${n} facility ${percent(q.facility)}, discrimination ${figure(q.discrimination)}`).join('; ')}.`
}

/** How many questions carry a flag. */
export const flaggedCount = (a: ItemAnalysis) => a.questions.filter((q) => q.flags.length > 0).length

/** The .xlsx name the browser saves. */
export const workbookName = (a: Pick<ItemAnalysis, 'exam_name' | 'kind'>) =>
  `item-analysis-${
    a.exam_name
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase() || 'exam'
  }-${a.kind}.xlsx`
