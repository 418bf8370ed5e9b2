// The item analysis written the plain way, over attempts held in memory: the reference the SQL of
// item-analysis.repository.ts is tested against (decision 0041's agreement test). Never used to
// serve a request. Pure: no I/O.
import { ITEM_ANALYSIS_LIMITS, type Answer } from '@portal/contracts'
import { groupSize, type RawExamStats, type RawItemStats } from './stats.ts'

/** One graded attempt as the kept rows hold it. */
export interface AttemptFacts {
  score: number
  durationSeconds: number | null
  items: { questionId: number; correct: boolean; chosen: number[] }[]
}

/**
 * The answer as pool indexes, sorted: the shown indexes mapped through the attempt's order (none:
 * shown = pool); unanswered is empty. The TypeScript twin of the `chosen_bits` column the database
 * fills on finalising (migration 0011: bit i for pool index i).
 */
export function poolAnswer(answer: Answer, order: readonly number[] | null | undefined): number[] {
  const shown = Array.isArray(answer) ? answer : answer >= 0 ? [answer] : []
  return shown.map((i) => (order ? order[i]! : i)).sort((a, b) => a - b)
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null)

function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  const mx = mean(xs)
  const my = mean(ys)
  if (mx === null || my === null) return null
  let sxy = 0
  let sxx = 0
  let syy = 0
  xs.forEach((x, i) => {
    sxy += (x - mx) * (ys[i]! - my)
    sxx += (x - mx) ** 2
    syy += (ys[i]! - my) ** 2
  })
  return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy)
}

/**
 * Each attempt's share of the upper and lower group: the g best (worst) attempts by raw score;
 * attempts tied across the group's edge share the places left equally.
 */
export function groupWeights(raw: readonly number[]): { upper: number[]; lower: number[] } {
  const g = groupSize(raw.length)
  const share = (r: number, better: (s: number) => boolean) => {
    const ahead = raw.filter(better).length
    const tied = raw.filter((s) => s === r).length
    return Math.min(1, Math.max(0, (g - ahead) / tied))
  }
  return {
    upper: raw.map((r) => share(r, (s) => s > r)),
    lower: raw.map((r) => share(r, (s) => s < r)),
  }
}

/** Every figure of the analysis over `attempts`. */
export function referenceAnalysis(attempts: readonly AttemptFacts[]): { exam: RawExamStats; items: RawItemStats[] } {
  const raw = attempts.map((a) => a.items.filter((i) => i.correct).length)
  const scores = attempts.map((a) => a.score)
  const sorted = [...scores].sort((a, b) => a - b)
  const n = attempts.length
  const m = mean(scores)
  const median = n === 0 ? null : n % 2 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2
  const sd = n < 2 ? null : Math.sqrt(scores.reduce((s, x) => s + (x - m!) ** 2, 0) / (n - 1))
  const rawMean = mean(raw)
  const durations = attempts.flatMap((a) => (a.durationSeconds === null ? [] : [a.durationSeconds]))
  const bins = Array.from({ length: ITEM_ANALYSIS_LIMITS.histogramBins }, () => 0)
  for (const s of scores) bins[Math.min(bins.length - 1, Math.floor(s / (100 / bins.length)))]!++
  const exam: RawExamStats = {
    attempts: n,
    mean: m,
    median,
    standardDeviation: sd,
    rawVariance: rawMean === null ? null : raw.reduce((s, x) => s + (x - rawMean) ** 2, 0) / n,
    questionsPerAttempt: mean(attempts.map((a) => a.items.length)),
    meanDurationSeconds: mean(durations),
    bins,
  }

  const { upper, lower } = groupWeights(raw)
  const byQuestion = new Map<number, { x: number[]; rest: number[]; wu: number[]; wl: number[]; chosen: number[][] }>()
  attempts.forEach((a, ai) => {
    for (const it of a.items) {
      const q = byQuestion.get(it.questionId) ?? { x: [], rest: [], wu: [], wl: [], chosen: [] }
      const x = it.correct ? 1 : 0
      q.x.push(x)
      q.rest.push(raw[ai]! - x)
      q.wu.push(upper[ai]!)
      q.wl.push(lower[ai]!)
      q.chosen.push(it.chosen)
      byQuestion.set(it.questionId, q)
    }
  })
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0)
  const items = [...byQuestion].map(([questionId, q]): RawItemStats => {
    const optionIndexes = [...new Set(q.chosen.flat())].sort((a, b) => a - b)
    return {
      questionId,
      attempts: q.x.length,
      correct: sum(q.x),
      discrimination: pearson(q.x, q.rest),
      upperN: sum(q.wu),
      upperCorrect: sum(q.x.map((x, i) => x * q.wu[i]!)),
      lowerN: sum(q.wl),
      lowerCorrect: sum(q.x.map((x, i) => x * q.wl[i]!)),
      options: optionIndexes.map((index) => {
        const has = q.chosen.map((c) => (c.includes(index) ? 1 : 0))
        return {
          index,
          chosen: sum(has),
          upper: sum(has.map((h, i) => h * q.wu[i]!)),
          lower: sum(has.map((h, i) => h * q.wl[i]!)),
        }
      }),
    }
  })
  return { exam, items: items.sort((a, b) => a.questionId - b.questionId) }
}
