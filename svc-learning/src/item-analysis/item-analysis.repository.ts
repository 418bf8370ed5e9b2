import type { EntityManager } from '@mikro-orm/postgresql'
import type { ExamType, Question } from '@portal/contracts'
import { ITEM_ANALYSIS_LIMITS } from '@portal/contracts'
import type { AnalysedQuestion, RawExamStats, RawItemStats } from './stats.ts'

/** Which kept rows an analysis reads: one exam's attempts of one kind, finalised in [from, to). */
export interface AnalysisRange {
  examId: number
  kind: ExamType
  /** ISO timestamps, or '-infinity' / 'infinity' when the range is open. */
  from: string
  to: string
}

const inRange = (alias: string) =>
  `${alias}.exam_id = ? and ${alias}.exam_type = ? and ${alias}.finalised_at >= ?::timestamptz and ${alias}.finalised_at < ?::timestamptz`
const rangeParams = (r: AnalysisRange) => [r.examId, r.kind, r.from, r.to]

/**
 * Each raw score's share of the upper and lower 27 % group (`w`): the g best (worst) attempts,
 * attempts tied across the group's edge sharing the places left equally. A few dozen rows (one per
 * raw score); the items join it by raw score. Twin: `groupWeights` in reference.ts.
 */
const GROUP_WEIGHTS = `f as (select s.raw_score from exam_attempt_scores s where ${inRange('s')}),
  n as (select greatest(1, round(${ITEM_ANALYSIS_LIMITS.groupShare} * count(*)))::float8 as g from f),
  dist as (select raw_score, count(*)::float8 as c from f group by raw_score),
  w as (
    select raw_score,
      least(1, greatest(0, (n.g - coalesce(sum(c) over (order by raw_score desc rows between unbounded preceding and 1 preceding), 0)) / c)) as wu,
      least(1, greatest(0, (n.g - coalesce(sum(c) over (order by raw_score asc rows between unbounded preceding and 1 preceding), 0)) / c)) as wl
    from dist cross join n)`

interface ExamRow {
  attempts: number
  mean: number | null
  median: number | null
  sd: number | null
  raw_variance: number | null
  questions_per_attempt: number | null
  mean_duration: number | null
}
interface BinRow {
  bin: number
  n: number
}
interface ItemRow {
  question_id: number
  attempts: number
  correct: number
  discrimination: number | null
  upper_n: number
  upper_correct: number | null
  lower_n: number
  lower_correct: number | null
}
interface OptionRow {
  question_id: number
  option_index: number
  chosen: number
  upper: number
  lower: number
}
interface QuestionRow {
  id: number
  question_type: AnalysedQuestion['type']
  question_text: string
  options: string[]
  correct_answer: number | number[]
}

const num = (x: unknown) => (x === null || x === undefined ? null : Number(x))
const correctOf = (a: number | number[]) => (Array.isArray(a) ? a : [a])

export const itemAnalysisRepository = {
  /** The exam's name and type now, or null. */
  async exam(em: EntityManager, examId: number): Promise<{ name: string; examType: ExamType } | null> {
    const rows = (await em.execute('select name, exam_type from exams where id = ?', [examId])) as { name: string; exam_type: ExamType }[]
    return rows[0] ? { name: rows[0].name, examType: rows[0].exam_type } : null
  },

  /** The test's aggregates over the range (mean, median and sample deviation of the graded score; variance of the raw score). */
  async examStats(em: EntityManager, r: AnalysisRange): Promise<RawExamStats> {
    const [rows, bins] = await Promise.all([
      em.execute(
        `select count(*)::int as attempts, avg(score) as mean, percentile_cont(0.5) within group (order by score) as median,
                stddev_samp(score) as sd, var_pop(raw_score::float8) as raw_variance, avg(items::float8) as questions_per_attempt,
                avg(duration_seconds) as mean_duration
           from exam_attempt_scores s where ${inRange('s')}`,
        rangeParams(r),
      ) as Promise<ExamRow[]>,
      em.execute(
        `select least(width_bucket(score, 0, 100, ${ITEM_ANALYSIS_LIMITS.histogramBins}), ${ITEM_ANALYSIS_LIMITS.histogramBins}) - 1 as bin, count(*)::int as n
           from exam_attempt_scores s where ${inRange('s')} group by 1`,
        rangeParams(r),
      ) as Promise<BinRow[]>,
    ])
    const e = rows[0]!
    const counts = Array.from({ length: ITEM_ANALYSIS_LIMITS.histogramBins }, () => 0)
    for (const b of bins) counts[Math.max(0, Number(b.bin))] = Number(b.n)
    return {
      attempts: Number(e.attempts),
      mean: num(e.mean),
      median: num(e.median),
      standardDeviation: num(e.sd),
      rawVariance: num(e.raw_variance),
      questionsPerAttempt: num(e.questions_per_attempt),
      meanDurationSeconds: num(e.mean_duration),
      bins: counts,
    }
  },

  /**
   * Each question's aggregates over the range: attempts, correct answers, the item-rest
   * point-biserial (`corr`, null without variance), the group weights, and each option's choices.
   */
  async itemStats(em: EntityManager, r: AnalysisRange): Promise<RawItemStats[]> {
    const [items, options] = await Promise.all([
      em.execute(
        `with ${GROUP_WEIGHTS}
         select i.question_id, count(*)::int as attempts, count(*) filter (where i.correct)::int as correct,
                corr(i.correct::int::float8, (i.raw_score - i.correct::int)::float8) as discrimination,
                sum(w.wu) as upper_n, sum(w.wu) filter (where i.correct) as upper_correct,
                sum(w.wl) as lower_n, sum(w.wl) filter (where i.correct) as lower_correct
           from exam_attempt_items i join w on w.raw_score = i.raw_score
          where ${inRange('i')}
          group by i.question_id
          order by i.question_id`,
        [...rangeParams(r), ...rangeParams(r)],
      ) as Promise<ItemRow[]>,
      em.execute(
        `with ${GROUP_WEIGHTS}
         select i.question_id, o.opt as option_index, count(*)::int as chosen, sum(w.wu) as upper, sum(w.wl) as lower
           from exam_attempt_items i join w on w.raw_score = i.raw_score cross join lateral unnest(i.chosen) as o (opt)
          where ${inRange('i')}
          group by 1, 2
          order by 1, 2`,
        [...rangeParams(r), ...rangeParams(r)],
      ) as Promise<OptionRow[]>,
    ])
    const byQuestion = new Map<number, RawItemStats['options']>()
    for (const o of options) {
      const list = byQuestion.get(Number(o.question_id)) ?? []
      list.push({ index: Number(o.option_index), chosen: Number(o.chosen), upper: Number(o.upper), lower: Number(o.lower) })
      byQuestion.set(Number(o.question_id), list)
    }
    return items.map((i) => ({
      questionId: Number(i.question_id),
      attempts: Number(i.attempts),
      correct: Number(i.correct),
      discrimination: num(i.discrimination),
      upperN: Number(i.upper_n),
      upperCorrect: num(i.upper_correct) ?? 0,
      lowerN: Number(i.lower_n),
      lowerCorrect: num(i.lower_correct) ?? 0,
      options: byQuestion.get(Number(i.question_id)) ?? [],
    }))
  },

  /** The exam's pool in its order. */
  async poolQuestions(em: EntityManager, examId: number): Promise<AnalysedQuestion[]> {
    const rows = (await em.execute(
      'select id, question_type, question_text, options, correct_answer from exam_questions where exam_id = ? order by position, id',
      [examId],
    )) as QuestionRow[]
    return rows.map((q) => ({ id: Number(q.id), type: q.question_type, text: q.question_text, options: q.options, correct: correctOf(q.correct_answer), inPool: true }))
  },

  /** Questions since deleted from the pool, as one of their attempts saw them (the snapshot). */
  async snapshotQuestions(em: EntityManager, examId: number, ids: readonly number[]): Promise<AnalysedQuestion[]> {
    if (ids.length === 0) return []
    const rows = (await em.execute(
      `select ids.id, (select a.questions -> i.position::int
                         from exam_attempt_items i join exam_attempts a on a.id = i.attempt_id
                        where i.exam_id = ? and i.question_id = ids.id limit 1) as question
         from unnest(string_to_array(?, ',')::int[]) as ids (id)
        order by ids.id`,
      [examId, ids.join(',')],
    )) as { id: number; question: Question | null }[]
    return rows.flatMap((r) =>
      r.question
        ? [{ id: Number(r.id), type: r.question.question_type, text: r.question.question_text, options: r.question.options, correct: correctOf(r.question.correct_answer), inPool: false }]
        : [],
    )
  },
}
