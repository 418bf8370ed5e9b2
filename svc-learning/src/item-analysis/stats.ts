// What the item analysis computes, as plain figures, and the pure steps after the SQL aggregates:
// Cronbach's alpha from the item variances, the flags and the rounding. No I/O.
import { ITEM_ANALYSIS_LIMITS, type ExamTestStats, type ItemFlag, type ItemStats, type QuestionType } from '@portal/contracts'

/** One option's choices: by everyone, and weighted by membership of the upper / lower 27 % group. */
export interface RawOptionStats {
  index: number
  chosen: number
  upper: number
  lower: number
}

/** One question's aggregates over the attempts that had it. */
export interface RawItemStats {
  questionId: number
  attempts: number
  correct: number
  /** Item-rest point-biserial correlation; null without variance on either side. */
  discrimination: number | null
  /** Summed group weights of the attempts that had it, and of those that got it right. */
  upperN: number
  upperCorrect: number
  lowerN: number
  lowerCorrect: number
  options: RawOptionStats[]
}

/** The test's aggregates over the range's attempts. */
export interface RawExamStats {
  attempts: number
  mean: number | null
  median: number | null
  standardDeviation: number | null
  /** Population variance of the raw score (correct answers). */
  rawVariance: number | null
  questionsPerAttempt: number | null
  meanDurationSeconds: number | null
  /** Attempts per score bin (index 0: [0, 10), ..., 9: [90, 100]). */
  bins: number[]
}

/** A question as the analysis names it: its text and options, with the correct ones as pool indexes. */
export interface AnalysedQuestion {
  id: number
  text: string
  type: QuestionType
  options: string[]
  correct: number[]
  inPool: boolean
  /** In the pool, retired from it (kept), or deleted (named from an attempt's snapshot). */
  status: ItemStats['status']
}

/** Size of each of the upper and lower groups: 27 % of the attempts, at least one. */
export const groupSize = (attempts: number) => Math.max(1, Math.round(ITEM_ANALYSIS_LIMITS.groupShare * attempts))

/**
 * Cronbach's alpha as KR-20 on the 0/1 items: k/(k-1) · (1 − Σ item variances / variance of the
 * raw score), population variances. With drawn questions each attempt's own items count: the sum
 * of item variances is Σ n_i·p_i·(1−p_i) / N (N attempts, n_i of them had item i). Null when it is
 * not defined (fewer than two attempts or questions, no spread of scores).
 */
export function cronbachAlpha(
  attempts: number,
  questionsPerAttempt: number | null,
  rawVariance: number | null,
  items: readonly Pick<RawItemStats, 'attempts' | 'correct'>[],
): number | null {
  if (attempts < 2 || questionsPerAttempt === null || questionsPerAttempt < 2 || rawVariance === null || !(rawVariance > 0)) return null
  const itemVariance = items.reduce((sum, it) => (it.attempts > 0 ? sum + it.correct * (1 - it.correct / it.attempts) : sum), 0) / attempts
  const k = questionsPerAttempt
  return (k / (k - 1)) * (1 - itemVariance / rawVariance)
}

const round = (x: number | null, digits: number) => (x === null || !Number.isFinite(x) ? null : Number(x.toFixed(digits)))
const pct = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : null)
const shown = (x: number) => `${round(x, 1)}%`

/** Why a question is flagged (none without attempts). */
export function flagsOf(q: Pick<ItemStats, 'attempts' | 'facility' | 'discrimination' | 'options'>): ItemFlag[] {
  const L = ITEM_ANALYSIS_LIMITS
  const flags: ItemFlag[] = []
  if (q.attempts === 0 || q.facility === null) return flags
  if (q.facility > L.tooEasyAbove) flags.push({ code: 'too_easy', reason: `Too easy: ${shown(q.facility)} answered correctly (above ${L.tooEasyAbove}%)` })
  if (q.facility < L.tooHardBelow) flags.push({ code: 'too_hard', reason: `Too hard: ${shown(q.facility)} answered correctly (below ${L.tooHardBelow}%)` })
  if (q.discrimination !== null && q.discrimination < 0)
    flags.push({
      code: 'negative_discrimination',
      reason: `Negative discrimination: ${q.discrimination.toFixed(2)} (learners who did worse on the rest of the exam got it right more often)`,
    })
  else if (q.discrimination !== null && q.discrimination < L.lowDiscriminationBelow)
    flags.push({ code: 'low_discrimination', reason: `Low discrimination: ${q.discrimination.toFixed(2)} (below ${L.lowDiscriminationBelow})` })
  for (const o of q.options)
    if (!o.is_correct && o.chosen_pct !== null && o.chosen_pct < L.nonFunctioningDistractorBelow)
      flags.push({
        code: 'non_functioning_distractor',
        reason: `Non-functioning distractor: "${o.text}" chosen by ${shown(o.chosen_pct)} (below ${L.nonFunctioningDistractorBelow}%)`,
      })
  return flags
}

/** A question's figures as the screen and the export show them (percents to 2 places, indexes to 4). */
export function toItemStats(q: AnalysedQuestion, raw: RawItemStats | undefined): ItemStats {
  const attempts = raw?.attempts ?? 0
  const upper = raw && raw.upperN > 0 ? raw.upperCorrect / raw.upperN : null
  const lower = raw && raw.lowerN > 0 ? raw.lowerCorrect / raw.lowerN : null
  const byIndex = new Map(raw?.options.map((o) => [o.index, o]))
  const correct = new Set(q.correct)
  const item: Omit<ItemStats, 'flags'> = {
    question_id: q.id,
    question_text: q.text,
    question_type: q.type,
    in_pool: q.inPool,
    status: q.status,
    attempts,
    correct: raw?.correct ?? 0,
    facility: round(raw ? pct(raw.correct, attempts) : null, 2),
    discrimination: round(raw?.discrimination ?? null, 4),
    upper_lower: round(upper !== null && lower !== null ? upper - lower : null, 4),
    avg_seconds: null,
    options: q.options.map((text, index) => {
      const o = byIndex.get(index)
      return {
        index,
        text,
        is_correct: correct.has(index),
        chosen: o?.chosen ?? 0,
        chosen_pct: round(pct(o?.chosen ?? 0, attempts), 2),
        upper_pct: round(raw ? pct(o?.upper ?? 0, raw.upperN) : null, 2),
        lower_pct: round(raw ? pct(o?.lower ?? 0, raw.lowerN) : null, 2),
      }
    }),
  }
  return { ...item, flags: flagsOf(item) }
}

/** The test's figures as shown. */
export function toExamStats(raw: RawExamStats, items: readonly RawItemStats[]): ExamTestStats {
  const width = 100 / ITEM_ANALYSIS_LIMITS.histogramBins
  return {
    attempts: raw.attempts,
    mean: round(raw.mean, 2),
    median: round(raw.median, 2),
    standard_deviation: round(raw.standardDeviation, 2),
    questions_per_attempt: round(raw.questionsPerAttempt, 2),
    cronbach_alpha: round(cronbachAlpha(raw.attempts, raw.questionsPerAttempt, raw.rawVariance, items), 4),
    mean_duration_seconds: round(raw.meanDurationSeconds, 1),
    histogram: raw.bins.map((count, i) => ({ from: i * width, to: (i + 1) * width, count })),
  }
}
