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

describe('0010: options shuffled per attempt', () => {
  it('leaves existing exams in their order, except the demo exams, and attempts under way without a permutation', async () => {
    const testDb = await createTestDatabase('learning_m10')
    try {
      const before = await open(testDb.url, '0009_scorm_editor')
      await before.close()
      const c = new pg.Client({ connectionString: testDb.url })
      await c.connect()
      try {
        for (const [id, name] of [
          [1, 'Electrical Safety Basics'],
          [2, 'Lockout/Tagout Certification'],
          [3, 'Our own exam'],
        ] as const) {
          await c.query(
            `insert into exams (id, name, time_limit, pass_score, total_questions, exam_type, created_at, updated_at)
             values ($1::int, $2, 10, 70, 1, 'practice', now(), now())`,
            [id, name],
          )
          await c.query(
            `insert into exam_questions (exam_id, position, question_type, question_text, options, correct_answer)
             values ($1::int, 0, 'multiple_choice', 'Q', '["a", "b", "All of the above"]', '2')`,
            [id],
          )
        }
        await c.query(
          `insert into exam_attempts (id, exam_id, user_id, attempt_number, exam_name, pass_score, questions, answers, status, started_at, deadline)
           values ($1, 3, $2, 1, 'Our own exam', 70, '[]', '[]', 'in_progress', now(), now() + interval '10 minutes')`,
          [crypto.randomUUID(), crypto.randomUUID()],
        )
      } finally {
        await c.end()
      }

      const after = await open(testDb.url)
      try {
        const sql = (q: string) => after.orm.em.fork().getConnection().execute(q)
        expect(await sql('select id, shuffle_options from exams order by id')).toEqual([
          { id: 1, shuffle_options: true },
          { id: 2, shuffle_options: true },
          { id: 3, shuffle_options: false },
        ])
        expect(await sql('select distinct keep_option_order from exam_questions')).toEqual([{ keep_option_order: false }])
        expect(await sql('select option_orders from exam_attempts')).toEqual([{ option_orders: null }])
      } finally {
        await after.close()
      }
    } finally {
      await testDb.drop()
    }
  })
})
