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

describe('0004: SCO state from the cmi tree alone', () => {
  it('moves what only the dropped columns held into the tree', async () => {
    const testDb = await createTestDatabase('learning_m4')
    try {
      const before = await open(testDb.url, '0002_course_tables')
      await before.close()
      const c = new pg.Client({ connectionString: testDb.url })
      await c.connect()
      try {
        await c.query(`insert into courses (id, title, created_at, updated_at) values (1, 'C', now(), now())`)
        for (const [id, version] of [
          [1, '1.2'],
          [2, '2004'],
        ] as const)
          await c.query(
            `insert into course_modules (id, course_id, title, position, original_name, content_type, size, storage_key, is_scorm, scorm_version, processing_status, created_at, updated_at)
             values ($1::int, 1, 'M', $1::int, 'm.zip', 'application/zip', 1, 'k' || $1::text, true, $2, 'ready', now(), now())`,
            [id, version],
          )
        const user = crypto.randomUUID()
        const insert = (module: number, item: string, cmi: unknown, cols: { status: string; suspend: string; interactions: unknown[] }) =>
          c.query(
            `insert into scorm_states (user_id, module_id, item_id, launch_at, seq, cmi, lesson_status, score, location, suspend_data, total_time, interactions, updated_at)
             values ($1, $2, $3, 1, 1, $4, $5, 70, 'p9', $6, '0000:02:00', $7, now())`,
            [user, module, item, JSON.stringify(cmi), cols.status, cols.suspend, JSON.stringify(cols.interactions)],
          )
        await insert(1, 'saved-only', {}, { status: 'passed', suspend: 'kept', interactions: [{ id: 'q1', result: 'correct' }] })
        await insert(2, 'saved-only', {}, { status: 'failed', suspend: 'kept-2004', interactions: [] })
        await insert(1, 'committed', { cmi: { core: { lesson_status: 'incomplete' }, suspend_data: 'old' } }, { status: 'incomplete', suspend: 'newer', interactions: [] })
        await insert(1, 'same', { cmi: { core: { lesson_status: 'incomplete' }, suspend_data: 'same' } }, { status: 'incomplete', suspend: 'same', interactions: [] })
      } finally {
        await c.end()
      }

      const after = await open(testDb.url)
      try {
        const rows = (await after.orm.em.fork().getConnection().execute('select module_id, item_id, cmi from scorm_states order by module_id, item_id')) as {
          module_id: number
          item_id: string
          cmi: { cmi: Record<string, unknown> }
        }[]
        const tree = (module: number, item: string) => rows.find((r) => r.module_id === module && r.item_id === item)!.cmi.cmi
        expect(tree(1, 'saved-only')).toEqual({
          core: { lesson_status: 'passed', lesson_location: 'p9', score: { raw: '70' }, total_time: '0000:02:00', session_time: '0000:00:00' },
          suspend_data: 'kept',
          interactions: [{ id: 'q1', result: 'correct' }],
        })
        expect(tree(2, 'saved-only')).toMatchObject({ success_status: 'failed', completion_status: 'unknown', location: 'p9', suspend_data: 'kept-2004', score: { raw: '70' } })
        expect(tree(1, 'committed').suspend_data).toBe('newer')
        expect(tree(1, 'same')).toEqual({ core: { lesson_status: 'incomplete' }, suspend_data: 'same' })
        const columns = (await after.orm.em
          .fork()
          .getConnection()
          .execute(`select column_name from information_schema.columns where table_name = 'scorm_states' and column_name in ('suspend_data', 'interactions')`)) as unknown[]
        expect(columns).toEqual([])
      } finally {
        await after.close()
      }
    } finally {
      await testDb.drop()
    }
  })
})
