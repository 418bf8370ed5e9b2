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

const inRange = (alias: string) => `${alias}.exam_id = ? and ${alias}.exam_type = ? and ${alias}.finalised_at >= ?::timestamptz and ${alias}.finalised_at < ?::timestamptz`
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
  n: number
  sx: number
  discrimination: number | null
  upper_n: number
  upper_correct: number
  lower_n: number
  lower_correct: number
  /** A row chose an option past the slots counted. */
  beyond: boolean
  /** Per option slot: attempts that chose it, and their upper / lower group shares. */
  chosen: number[]
  upper: number[]
  lower: number[]
}
interface QuestionRow {
  id: number
  question_type: AnalysedQuestion['type']
  question_text: string
  options: string[]
  correct_answer: number | number[]
}

/** Option slots `chosen_bits` holds (bits 0-62; questions have at most 50 options). */
const MAX_SLOTS = 63

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
   * Each question's aggregates over the range, in one pass over the kept rows grouped by question
   * and raw score (plain integers, a few thousand groups): attempts, correct answers and, per
   * option slot, the attempts that chose it (bit b of `chosen_bits`). Joined with each raw score's
   * group weights, the groups give the rest: the sums of the item-rest point-biserial (x the item,
   * y = raw score − x, so Σy² = (c − Σx)·raw² + Σx·(raw − 1)² and Σxy = Σx·(raw − 1)) and the
   * groups' shares. `slots` is the widest question's number of options; a row choosing past it (a
   * question since deleted had more) makes the statement run again with every slot (a question
   * has at most 50 options, QuestionInput).
   */
  async itemStats(em: EntityManager, r: AnalysisRange, slots: number): Promise<RawItemStats[]> {
    const width = Math.min(MAX_SLOTS, Math.max(1, slots))
    const range = rangeParams(r)
    const slot = Array.from({ length: width }, (_, b) => b)
    const rows = (await em.execute(
      `with ${GROUP_WEIGHTS},
       g as (select i.question_id, i.raw_score, count(*)::float8 as c, count(*) filter (where i.correct)::float8 as sx,
                    bool_or(i.chosen_bits >= ${2n ** BigInt(width)}) as beyond,
                    ${slot.map((b) => `count(*) filter (where i.chosen_bits & ${2n ** BigInt(b)} <> 0)::float8 as o${b}`).join(',\n                    ')}
               from exam_attempt_items i where ${inRange('i')} group by 1, 2),
       it as (select g.question_id, sum(g.c) as n, sum(g.sx) as sx, sum(g.raw_score * g.c - g.sx) as sy,
                     sum((g.c - g.sx) * g.raw_score * g.raw_score + g.sx * (g.raw_score - 1) * (g.raw_score - 1)) as syy,
                     sum(g.sx * (g.raw_score - 1)) as sxy,
                     sum(g.c * w.wu) as upper_n, sum(g.sx * w.wu) as upper_correct, sum(g.c * w.wl) as lower_n, sum(g.sx * w.wl) as lower_correct,
                     bool_or(g.beyond) as beyond,
                     array[${slot.map((b) => `sum(g.o${b})`).join(', ')}] as chosen,
                     array[${slot.map((b) => `sum(g.o${b} * w.wu)`).join(', ')}] as upper,
                     array[${slot.map((b) => `sum(g.o${b} * w.wl)`).join(', ')}] as lower
                from g join w on w.raw_score = g.raw_score group by g.question_id)
       select it.question_id, it.n, it.sx, it.upper_n, it.upper_correct, it.lower_n, it.lower_correct, it.beyond, it.chosen, it.upper, it.lower,
              -- Pearson's r from the sums (x is 0/1, so Σx² = Σx); no variance on either side: undefined.
              case when it.n * it.sx - it.sx * it.sx > 0 and it.n * it.syy - it.sy * it.sy > 0
                   then (it.n * it.sxy - it.sx * it.sy) / sqrt((it.n * it.sx - it.sx * it.sx) * (it.n * it.syy - it.sy * it.sy)) end as discrimination
         from it
        order by it.question_id`,
      [...range, ...range],
    )) as ItemRow[]
    if (width < MAX_SLOTS && rows.some((i) => i.beyond)) return itemAnalysisRepository.itemStats(em, r, MAX_SLOTS)
    return rows.map((i) => {
      const options = new Map<number, RawItemStats['options'][number]>()
      i.chosen.forEach((chosen, index) => {
        if (Number(chosen) > 0) options.set(index, { index, chosen: Number(chosen), upper: Number(i.upper[index]), lower: Number(i.lower[index]) })
      })
      return {
        questionId: Number(i.question_id),
        attempts: Number(i.n),
        correct: Number(i.sx),
        discrimination: num(i.discrimination),
        upperN: Number(i.upper_n),
        upperCorrect: Number(i.upper_correct),
        lowerN: Number(i.lower_n),
        lowerCorrect: Number(i.lower_correct),
        options: [...options.values()].sort((a, b) => a.index - b.index),
      }
    })
  },

  /** Which of `ids` graded attempts have answered. */
  async answered(em: EntityManager, ids: readonly number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set()
    const rows = (await em.execute(
      `select ids.id from unnest(string_to_array(?, ',')::int[]) as ids (id)
        where exists (select 1 from exam_attempt_items i where i.question_id = ids.id)`,
      [ids.join(',')],
    )) as { id: number }[]
    return new Set(rows.map((r) => Number(r.id)))
  },

  /** The exam's questions: its pool in order, then those retired from it. */
  async poolQuestions(em: EntityManager, examId: number): Promise<AnalysedQuestion[]> {
    const rows = (await em.execute(
      `select id, question_type, question_text, options, correct_answer, retired_at is not null as retired
         from exam_questions where exam_id = ? order by retired_at is not null, position, id`,
      [examId],
    )) as (QuestionRow & { retired: boolean })[]
    return rows.map((q) => ({
      id: Number(q.id),
      type: q.question_type,
      text: q.question_text,
      options: q.options,
      correct: correctOf(q.correct_answer),
      inPool: !q.retired,
      status: q.retired ? 'retired' : 'active',
    }))
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
        ? [
            {
              id: Number(r.id),
              type: r.question.question_type,
              text: r.question.question_text,
              options: r.question.options,
              correct: correctOf(r.question.correct_answer),
              inPool: false,
              status: 'deleted' as const,
            },
          ]
        : [],
    )
  },
}
