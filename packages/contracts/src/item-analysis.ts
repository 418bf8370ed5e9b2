import { z } from 'zod'
import { IsoDate } from './certs.ts'
import { ExamType, QuestionType } from './exams.ts'

/**
 * Item analysis of an exam (issue 27): how each question performed over the graded attempts of a
 * date range, final and practice attempts apart. Statistics are null (never NaN) when they are
 * not defined: no attempts, one attempt, or no spread of scores.
 */

/** Where the flags draw their lines (facility and shares in percent, discrimination as a correlation). */
export const ITEM_ANALYSIS_LIMITS = {
  tooEasyAbove: 90,
  tooHardBelow: 20,
  lowDiscriminationBelow: 0.2,
  nonFunctioningDistractorBelow: 5,
  /** The upper and lower groups of the discrimination index: 27 % of the attempts each. */
  groupShare: 0.27,
  histogramBins: 10,
} as const

export const ITEM_ANALYSIS_MESSAGES = {
  noAttempts: 'No attempts yet',
  endBeforeStart: 'end_date must not be before start_date',
} as const

/** `GET /admin/exams/{id}/item-analysis`: calendar days (UTC, both included) and the kind of attempts (default: the exam's type). */
export const ItemAnalysisQuery = z
  .object({
    start_date: IsoDate.optional(),
    end_date: IsoDate.optional(),
    kind: ExamType.optional(),
  })
  .refine((q) => !q.start_date || !q.end_date || q.start_date <= q.end_date, {
    message: ITEM_ANALYSIS_MESSAGES.endBeforeStart,
    path: ['end_date'],
  })
export type ItemAnalysisQuery = z.infer<typeof ItemAnalysisQuery>

export const ItemFlagCode = z.enum(['too_easy', 'too_hard', 'negative_discrimination', 'low_discrimination', 'non_functioning_distractor'])
export type ItemFlagCode = z.infer<typeof ItemFlagCode>
export const ItemFlag = z.object({ code: ItemFlagCode, reason: z.string() })
export type ItemFlag = z.infer<typeof ItemFlag>

export const ItemOptionStats = z.object({
  /** Index in the pool (the order the admin wrote), whatever order each attempt showed. */
  index: z.number().int(),
  text: z.string(),
  is_correct: z.boolean(),
  /** Attempts that chose it. */
  chosen: z.number().int(),
  /** Percent of the question's attempts that chose it; null without attempts. */
  chosen_pct: z.number().nullable(),
  /** Percent of the upper / lower 27 % group (of those that had the question) that chose it. */
  upper_pct: z.number().nullable(),
  lower_pct: z.number().nullable(),
})
export type ItemOptionStats = z.infer<typeof ItemOptionStats>

export const ItemStats = z.object({
  question_id: z.number().int(),
  question_text: z.string(),
  question_type: QuestionType,
  /** Still in the exam's pool (false: retired or deleted since). */
  in_pool: z.boolean(),
  /** active: in the pool; retired: kept but not offered; deleted: named as its attempts saw it. */
  status: z.enum(['active', 'retired', 'deleted']),
  attempts: z.number().int(),
  correct: z.number().int(),
  /** Facility index: percent of its attempts that answered it correctly. */
  facility: z.number().nullable(),
  /** Point-biserial correlation of the item with the rest of the test (the attempt's other questions). */
  discrimination: z.number().nullable(),
  /** Upper minus lower 27 % group's proportion correct (-1 to 1). */
  upper_lower: z.number().nullable(),
  /** Average seconds spent on the question: null, time per question is not recorded. */
  avg_seconds: z.number().nullable(),
  options: z.array(ItemOptionStats),
  flags: z.array(ItemFlag),
})
export type ItemStats = z.infer<typeof ItemStats>

export const ScoreBin = z.object({ from: z.number(), to: z.number(), count: z.number().int() })
export type ScoreBin = z.infer<typeof ScoreBin>

export const ExamTestStats = z.object({
  attempts: z.number().int(),
  /** Of the graded score (percent). */
  mean: z.number().nullable(),
  median: z.number().nullable(),
  /** Sample standard deviation (null below two attempts). */
  standard_deviation: z.number().nullable(),
  /** Questions per attempt (the mean when the exam's size changed). */
  questions_per_attempt: z.number().nullable(),
  /** Cronbach's alpha (KR-20 on the 0/1 items; drawn questions: each attempt's own). */
  cronbach_alpha: z.number().nullable(),
  /** Of the attempts the learner submitted (expired ones ran out of time). */
  mean_duration_seconds: z.number().nullable(),
  /** Ten bins of 10 points: [0, 10), ..., [90, 100]. */
  histogram: z.array(ScoreBin),
})
export type ExamTestStats = z.infer<typeof ExamTestStats>

export const ItemAnalysis = z.object({
  exam_id: z.number().int(),
  exam_name: z.string(),
  kind: ExamType,
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  exam: ExamTestStats,
  questions: z.array(ItemStats),
})
export type ItemAnalysis = z.infer<typeof ItemAnalysis>
