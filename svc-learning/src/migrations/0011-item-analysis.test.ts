import { describe, expect, it } from 'vitest'
import pg from 'pg'
import { openDatabase } from '@portal/server-kit'
import { createTestDatabase, silentLogger } from '@portal/server-kit/testing'
import { entities } from '../server.ts'
import { migrationsList } from './index.ts'

const open = (url: string, upTo?: string) =>
  openDatabase({
    service: 'learning',
    url,
    dataDir: '/tmp/unused',
    entities,
    migrations: upTo ? migrationsList.slice(0, migrationsList.findIndex((m) => m.name === upTo) + 1) : migrationsList,
    logger: silentLogger,
  })

const question = (id: number, type: 'multiple_choice' | 'multi_select', options: string[], correct: number | number[]) => ({
  id,
  question_type: type,
  question_text: `Q${id}`,
  options,
  correct_answer: correct,
  subject_category: null,
  category_weight: 1,
})

describe('0011: item analysis kept rows', () => {
  it('backfills the attempts graded before (answers mapped to pool indexes; none for attempts under way or of deleted exams)', async () => {
    const testDb = await createTestDatabase('learning_m11')
    try {
      const before = await open(testDb.url, '0010_option_shuffle')
      await before.close()
      const c = new pg.Client({ connectionString: testDb.url })
      await c.connect()
      const graded = crypto.randomUUID()
      const unshuffled = crypto.randomUUID()
      try {
        await c.query(`insert into exams (id, name, time_limit, pass_score, total_questions, exam_type, created_at, updated_at)
                       values (1, 'Kept', 10, 70, 2, 'final', now(), now())`)
        const questions = [question(10, 'multiple_choice', ['a', 'b', 'c'], 2), question(11, 'multi_select', ['x', 'y', 'z'], [0, 1])]
        const insert = (id: string, exam: number, n: number, status: string, orders: unknown, answers: unknown, result: unknown) =>
          c.query(
            `insert into exam_attempts (id, exam_id, user_id, attempt_number, exam_name, pass_score, questions, option_orders, answers, status,
                                        started_at, deadline, finalised_at, score, passed, result)
             values ($1, $2, $3, $4, 'Kept', 70, $5, $6, $7, $8, '2025-01-01T10:00:00Z', '2025-01-01T10:10:00Z',
                     case when $8 = 'in_progress' then null else '2025-01-01T10:04:00Z'::timestamptz end, $9, false, $10)`,
            [
              id,
              exam,
              crypto.randomUUID(),
              n,
              JSON.stringify(questions),
              JSON.stringify(orders),
              JSON.stringify(answers),
              status,
              result ? 50 : null,
              result ? JSON.stringify(result) : null,
            ],
          )
        const result = { score: 50, correct_answers: 1, question_results: [{ is_correct: true }, { is_correct: false }] }
        // Shown orders: question 10 as [c, a, b] (answer 0 = pool 2), question 11 as [z, y, x] (answer [0, 1] = pool [1, 2]).
        await insert(
          graded,
          1,
          1,
          'submitted',
          [
            [2, 0, 1],
            [2, 1, 0],
          ],
          [0, [0, 1]],
          result,
        )
        await insert(unshuffled, 1, 2, 'expired', null, [2, -1], result)
        await insert(crypto.randomUUID(), 1, 3, 'in_progress', null, [-1, -1], null)
        await insert(crypto.randomUUID(), 99, 1, 'submitted', null, [2, -1], result)
      } finally {
        await c.end()
      }

      const after = await open(testDb.url)
      try {
        const sql = (q: string) => after.orm.em.fork().getConnection().execute(q)
        expect(
          (
            await sql(
              "select attempt_id, position, question_id, correct, chosen_bits::int as bits, raw_score, exam_type from exam_attempt_items order by attempt_id = '" +
                graded +
                "' desc, position",
            )
          ).map((r: Record<string, unknown>) => [r.attempt_id, r.position, r.question_id, r.correct, r.bits, r.raw_score, r.exam_type]),
        ).toEqual([
          [graded, 0, 10, true, 0b100, 1, 'final'],
          [graded, 1, 11, false, 0b110, 1, 'final'],
          [unshuffled, 0, 10, true, 0b100, 1, 'final'],
          [unshuffled, 1, 11, false, 0, 1, 'final'],
        ])
        expect(await sql(`select attempt_id, items, raw_score, score, duration_seconds from exam_attempt_scores order by attempt_id = '${graded}' desc`)).toEqual([
          { attempt_id: graded, items: 2, raw_score: 1, score: 50, duration_seconds: 240 },
          { attempt_id: unshuffled, items: 2, raw_score: 1, score: 50, duration_seconds: null },
        ])
      } finally {
        await after.close()
      }
    } finally {
      await testDb.drop()
    }
  })
})
