import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from './harness.test-support.ts'
import { sqlWithParams } from './sql.ts'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
  await h.sql('create table sql_test (id int primary key, doc jsonb not null)')
})
afterAll(async () => {
  await h?.close()
})

describe('sqlWithParams', () => {
  it('sends values as parameters: quotes, backslashes and large JSON arrive as they were', async () => {
    const doc = { text: `it's a "test" \\ with $1 and ? marks`, big: 'x'.repeat(50_000) }
    await sqlWithParams(h.orm.em.fork(), 'insert into sql_test (id, doc) values ($1, $2::jsonb)', [1, JSON.stringify(doc)])
    const [row] = await sqlWithParams<{ doc: typeof doc }>(h.orm.em.fork(), 'select doc from sql_test where id = $1', [1])
    expect(row!.doc).toEqual(doc)
  })

  it('runs in the caller’s transaction: rolled back with it, seen by it before commit', async () => {
    await expect(
      h.orm.em.fork().transactional(async (tx) => {
        await sqlWithParams(tx, 'insert into sql_test (id, doc) values ($1, $2::jsonb)', [2, '{}'])
        expect(await tx.execute('select id from sql_test where id = 2')).toEqual([{ id: 2 }])
        throw new Error('roll back')
      }),
    ).rejects.toThrow('roll back')
    expect(await h.sql('select id from sql_test where id = 2')).toEqual([])
  })
})
