/**
 * Item analysis (issue 27) of an exam with 100,000 graded attempts of 50 questions on the machine's
 * PostgreSQL, beside a bare SQL scan of the same rows in the same run:
 * - ceiling: one `select` that reads every kept item row of the exam once and adds up two columns,
 *   the least any analysis computed by the database has to do;
 * - ours: the analysis as `GET /admin/exams/{id}/item-analysis` runs it (the service: the test's
 *   figures, each question's and each option's, the question texts), median of three after a warm-up.
 * The kept rows are written straight into the tables the database fills as attempts are graded
 * (migration 0011): a 50-question snapshot per attempt would be gigabytes the analysis never reads.
 * Each attempt's learner has an ability, each question a difficulty; 5 % of answers are left blank.
 * `npm run bench` calls `benchItemAnalysis`; `node bench/item-analysis.ts` runs this part alone.
 * BENCH_ITEM_ATTEMPTS sets the number of attempts.
 */
import { ensureDatabase, openDatabase } from '@portal/server-kit'
import { silentLogger } from '@portal/server-kit/testing'
import { createItemAnalysisService } from 'svc-learning/item-analysis'
import { migrationsList } from 'svc-learning/migrations'
import { entities } from 'svc-learning/server'
import type { LearningContext } from 'svc-learning/context'
import { BENCH_PG, writeBenchRecord } from './support.ts'

const QUESTIONS = 50
const OPTIONS = 4

export interface ItemAnalysisBenchResult {
  attempts: number
  questions: number
  itemRows: number
  seedSeconds: number
  ceilingScanMs: number
  runsMs: number[]
  analysisMs: number
  flagged: number
  ratio: number
  goals: { analysisMs: 2_000 }
}

const log = (msg: string) => process.env.BENCH_VERBOSE && process.stderr.write(`[item-analysis ${new Date().toISOString().slice(11, 19)}] ${msg}\n`)

export async function benchItemAnalysis(pgUrl = BENCH_PG, attempts = Number(process.env.BENCH_ITEM_ATTEMPTS ?? 100_000)): Promise<ItemAnalysisBenchResult> {
  const url = new URL(pgUrl)
  url.pathname = '/bench_item_analysis'
  {
    const { default: pg } = await import('pg')
    const client = new pg.Client({ connectionString: pgUrl })
    await client.connect()
    await client.query('drop database if exists bench_item_analysis with (force)')
    await client.end()
  }
  await ensureDatabase(url.toString())
  const db = await openDatabase({ service: 'learning', url: url.toString(), dataDir: '/tmp/unused', entities, migrations: migrationsList, logger: silentLogger })
  const conn = db.orm.em.getConnection()

  const seedStart = performance.now()
  await conn.execute(`insert into exams (id, name, time_limit, pass_score, total_questions, exam_type, max_attempts, created_at, updated_at)
    values (1, 'Bench final', 60, 70, ${QUESTIONS}, 'final', 10, now(), now())`)
  await conn.execute(`insert into exam_questions (id, exam_id, position, question_type, question_text, options, correct_answer)
    select q, 1, q, 'multiple_choice', 'Question ' || q, '["A", "B", "C", "D"]', to_jsonb(q % ${OPTIONS}) from generate_series(1, ${QUESTIONS}) q`)
  // The attempts themselves (their snapshots left empty: the analysis reads only the kept rows).
  await conn.execute(`insert into exam_attempts (id, exam_id, user_id, attempt_number, exam_name, pass_score, questions, answers, status, started_at, deadline)
    select ('00000000-0000-4000-8000-' || lpad(to_hex(a), 12, '0'))::uuid, 1, ('00000000-0000-4000-9000-' || lpad(to_hex(a), 12, '0'))::uuid, 1,
           'Bench final', 70, '[]', '[]', 'in_progress', now() - interval '1 hour', now() + interval '1 hour'
      from generate_series(1, ${attempts}) a`)
  // Answers: right with a chance that grows with the learner's ability and falls with the question's difficulty.
  await conn.execute(`create unlogged table bench_answers as
    select a, q, roll < 0.05 as blank, roll >= 0.05 and roll < 0.15 + 0.8 * ability - 0.5 * difficulty + 0.3 as correct,
           (q % ${OPTIONS} + 1 + (abs(hashint4(a * 7 + q)) % ${OPTIONS - 1})) % ${OPTIONS} as distractor
      from (select a, q, (abs(hashint4(a)) % 1000) / 1000.0 as ability, q / ${QUESTIONS}.0 as difficulty,
                   (abs(hashint4(a * ${QUESTIONS} + q)) % 1000) / 1000.0 as roll
              from generate_series(1, ${attempts}) a cross join generate_series(1, ${QUESTIONS}) q) g`)
  await conn.execute(`create unlogged table bench_raw as select a, count(*) filter (where correct)::int as raw from bench_answers group by a`)
  await conn.execute(`insert into exam_attempt_scores (attempt_id, exam_id, exam_type, finalised_at, items, raw_score, score, duration_seconds)
    select ('00000000-0000-4000-8000-' || lpad(to_hex(a), 12, '0'))::uuid, 1, 'final', now() - (a % 365) * interval '1 day', ${QUESTIONS}, raw,
           round(raw * 100.0 / ${QUESTIONS}, 2), 600 + a % 1200
      from bench_raw`)
  await conn.execute(`insert into exam_attempt_items (attempt_id, position, exam_id, exam_type, finalised_at, question_id, correct, chosen_bits, raw_score)
    select ('00000000-0000-4000-8000-' || lpad(to_hex(b.a), 12, '0'))::uuid, b.q - 1, 1, 'final', now() - (b.a % 365) * interval '1 day', b.q, b.correct,
           case when b.blank then 0 when b.correct then 1::bigint << (b.q % ${OPTIONS}) else 1::bigint << b.distractor end, r.raw
      from bench_answers b join bench_raw r on r.a = b.a`)
  await conn.execute("update exam_attempts set status = 'submitted', finalised_at = now()")
  await conn.execute('drop table bench_answers, bench_raw')
  await conn.execute('vacuum analyze')
  await conn.execute('checkpoint').catch(() => undefined)
  const seedSeconds = Math.round((performance.now() - seedStart) / 100) / 10
  const [{ rows }] = (await conn.execute('select count(*)::int as rows from exam_attempt_items')) as { rows: number }[]
  log(`seeded ${attempts} attempts, ${rows} item rows in ${seedSeconds}s`)

  const scanStart = performance.now()
  await conn.execute("select count(*), sum(correct::int), sum(raw_score) from exam_attempt_items where exam_id = 1 and exam_type = 'final'")
  const ceilingScanMs = Math.round(performance.now() - scanStart)
  log(`bare scan ${ceilingScanMs} ms`)

  const svc = createItemAnalysisService({ orm: db.orm } as LearningContext)
  let flagged = 0
  const timed = async () => {
    const t = performance.now()
    const result = await svc.analyse(1, { kind: 'final' })
    if (result.exam.attempts !== attempts) throw new Error(`the analysis counted ${result.exam.attempts} attempts, not ${attempts}`)
    flagged = result.questions.filter((q) => q.flags.length > 0).length
    return Math.round(performance.now() - t)
  }
  await timed()
  const runsMs = [await timed(), await timed(), await timed()]
  const analysisMs = [...runsMs].sort((a, b) => a - b)[1]!
  log(`analysis ${runsMs.join(', ')} ms`)
  await db.close()
  return {
    attempts,
    questions: QUESTIONS,
    itemRows: rows,
    seedSeconds,
    ceilingScanMs,
    runsMs,
    analysisMs,
    flagged,
    ratio: Number((analysisMs / Math.max(1, ceilingScanMs)).toFixed(1)),
    goals: { analysisMs: 2_000 },
  }
}

export const formatItemAnalysis = (r: ItemAnalysisBenchResult) =>
  [
    `item analysis of ${r.attempts.toLocaleString('en-US')} attempts of ${r.questions} questions (${r.itemRows.toLocaleString('en-US')} kept rows; seeded in ${r.seedSeconds} s)`,
    `  bare SQL scan of the kept rows: ${r.ceilingScanMs} ms`,
    `  analysis: ${r.analysisMs} ms (median of ${r.runsMs.join(', ')}; goal ≤ ${r.goals.analysisMs} ms), ${r.ratio}× the scan, ${r.flagged} questions flagged`,
  ].join('\n')

if (import.meta.main) {
  const result = await benchItemAnalysis()
  await writeBenchRecord('item-analysis', result)
  console.log(formatItemAnalysis(result))
}
