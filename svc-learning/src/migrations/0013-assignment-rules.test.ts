import { describe, expect, it } from 'vitest'
import pg from 'pg'
import { Events } from '@portal/contracts'
import { openDatabase } from '@portal/server-kit'
import { createTestDatabase, silentLogger } from '@portal/server-kit/testing'
import { entities } from '../server.ts'
import { migrationsList } from './index.ts'

describe('0013: assignment rules', () => {
  it('announces every insert and change of a person’s row as learning.assignment.changed.v1, with a growing version, in the same transaction', async () => {
    const testDb = await createTestDatabase('learning_m13')
    const db = await openDatabase({ service: 'learning', url: testDb.url, dataDir: '/tmp/unused', entities, migrations: migrationsList, logger: silentLogger })
    const c = new pg.Client({ connectionString: testDb.url })
    await c.connect()
    try {
      const user = crypto.randomUUID()
      await c.query(`insert into courses (id, title, is_assigned_to_all, created_at, updated_at) values (7, 'Lockout/Tagout', false, now(), now())`)
      await c.query(`insert into assignment_rules (id, item_kind, item_id, audience, due, recurrence, due_soon_days, reminders, created_at, updated_at)
                     values (1, 'course', 7, '{"kind":"everyone"}', '{"kind":"relative","days":30,"from":"assignment"}',
                             '{"kind":"period","months":12,"window_days":30}', 7, '{}', now(), now())`)
      await c.query(`insert into assignment_people (rule_id, user_id, assigned_on, due_on, updated_at) values (1, $1, '2026-11-01', '2026-12-01', now())`, [user])
      await c.query(`update assignment_people set completed_on = '2026-12-03', next_due_on = '2027-12-03', next_opens_on = '2027-11-03' where rule_id = 1`)
      // A write that changes nothing announces nothing.
      await c.query(`update assignment_people set due_on = due_on where rule_id = 1`)
      // A change that fails with its transaction announces nothing either.
      await c.query('begin')
      await c.query(`update assignment_people set exempt_reason = 'On leave' where rule_id = 1`)
      await c.query('rollback')

      const { rows } = await c.query<{ payload: { type: string; data: unknown } }>("select payload from outbox where type = 'learning.assignment.changed.v1' order by seq")
      expect(rows).toHaveLength(2)
      const [first, second] = rows.map((r) => Events['learning.assignment.changed.v1'].parse(r.payload.data))
      expect(first).toMatchObject({ ruleId: 1, userId: user, itemKind: 'course', itemId: 7, itemTitle: 'Lockout/Tagout', dueOn: '2026-12-01', completedOn: null, version: 1 })
      expect(first?.recurring).toBe(true)
      expect(second).toMatchObject({ completedOn: '2026-12-03', nextDueOn: '2027-12-03', nextOpensOn: '2027-11-03', version: 2, exempt: false, removed: false })
    } finally {
      await c.end()
      await db.close()
      await testDb.drop()
    }
  })
})
