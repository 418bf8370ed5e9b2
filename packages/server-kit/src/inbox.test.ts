import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from './db.ts'
import { handleOnce } from './inbox.ts'
import { createTestDatabase, silentLogger } from './testing.ts'

let testDb: { url: string; drop(): Promise<void> }
let db: Database

beforeAll(async () => {
  testDb = await createTestDatabase('server_kit_inbox')
  db = await openDatabase({ service: 'inbox-test', url: testDb.url, dataDir: '/tmp', entities: [], migrations: [], logger: silentLogger })
  await db.orm.em.fork().execute('create table effects (event_id uuid not null)')
})
afterAll(async () => {
  await db?.close()
  await testDb?.drop()
})

const effectsOf = async (id: string) => ((await db.orm.em.fork().execute('select 1 from effects where event_id = ?', [id])) as unknown[]).length
const effect = (id: string) => async (em: import('@mikro-orm/postgresql').EntityManager) => {
  await em.execute('insert into effects (event_id) values (?)', [id])
}

describe('handleOnce', () => {
  it('runs fn once and answers false, without running fn, for the same event id', async () => {
    const id = crypto.randomUUID()
    let calls = 0
    const fn = async (em: Parameters<ReturnType<typeof effect>>[0]) => {
      calls++
      await effect(id)(em)
    }
    expect(await handleOnce(db.orm, 'consumer-a', { id }, fn)).toBe(true)
    expect(await handleOnce(db.orm, 'consumer-a', { id }, fn)).toBe(false)
    expect(calls).toBe(1)
    expect(await effectsOf(id)).toBe(1)
  })

  it('keeps consumers apart: another consumer handles the same event too', async () => {
    const id = crypto.randomUUID()
    expect(await handleOnce(db.orm, 'consumer-a', { id }, async () => undefined)).toBe(true)
    expect(await handleOnce(db.orm, 'consumer-b', { id }, async () => undefined)).toBe(true)
  })

  it('runs concurrent duplicates once', async () => {
    const id = crypto.randomUUID()
    let calls = 0
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        handleOnce(db.orm, 'consumer-c', { id }, async (em) => {
          calls++
          await new Promise((r) => setTimeout(r, 50))
          await effect(id)(em)
        }),
      ),
    )
    expect(results.filter(Boolean)).toHaveLength(1)
    expect(calls).toBe(1)
    expect(await effectsOf(id)).toBe(1)
  })

  it('rolls the inbox row back when fn throws, so a redelivery runs it again', async () => {
    const id = crypto.randomUUID()
    await expect(
      handleOnce(db.orm, 'consumer-d', { id }, async (em) => {
        await effect(id)(em)
        throw new Error('handler failed')
      }),
    ).rejects.toThrow('handler failed')
    expect(await effectsOf(id)).toBe(0)
    expect(await handleOnce(db.orm, 'consumer-d', { id }, effect(id))).toBe(true)
    expect(await effectsOf(id)).toBe(1)
  })
})
