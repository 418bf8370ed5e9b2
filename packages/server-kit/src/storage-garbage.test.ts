import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase, type Database } from './db.ts'
import { StorageGarbageTable, createGarbageCleaner, forgetGarbage, recordGarbage } from './storage-garbage.ts'
import { createLocalStorage, type Storage } from './storage.ts'
import { createTestDatabase, silentLogger } from './testing.ts'

let testDb: { url: string; drop(): Promise<void> }
let db: Database
let root: string
let storage: Storage
const now = () => new Date()

beforeAll(async () => {
  testDb = await createTestDatabase('server_kit_garbage')
  db = await openDatabase({
    service: 'garbage-test',
    url: testDb.url,
    dataDir: '/tmp',
    entities: [],
    migrations: [{ name: '0001_storage_garbage', class: StorageGarbageTable }],
    logger: silentLogger,
  })
  root = await mkdtemp(join(tmpdir(), 'garbage-test-'))
  storage = createLocalStorage(root)
})
afterAll(async () => {
  await db?.close()
  await testDb?.drop()
  await rm(root, { recursive: true, force: true })
})

const cleaner = () => createGarbageCleaner({ orm: db.orm, storage, logger: silentLogger, now }, { minAgeMs: 10 * 60_000 })
const put = (key: string) => storage.put(key, Readable.from([Buffer.from('data')]))
const record = (key: string, isPrefix: boolean, at: Date) => db.orm.em.fork().transactional((tx) => recordGarbage(tx, [{ key, isPrefix }], at))
const sql = (q: string) => db.orm.em.fork().execute(q) as Promise<Record<string, unknown>[]>

describe('the storage garbage cleaner', () => {
  it('removes what a crash between storage and database left behind, once it is old enough', async () => {
    await put('uploads/crashed/1.pdf')
    await put('uploads/crashed/2.zip')
    await put('uploads/in-flight/1.pdf')
    await put('modules/7/original.zip')
    const old = new Date(now().getTime() - 11 * 60_000)
    await record('uploads/crashed', true, old)
    await record('modules/7/original.zip', false, old)
    await record('uploads/in-flight', true, now())

    expect(await cleaner().sweep()).toBe(2)
    expect(await storage.list()).toEqual(['uploads/in-flight/1.pdf'])
    expect((await sql('select key from storage_garbage')).map((r) => r.key)).toEqual(['uploads/in-flight'])
  })

  it('collects given rows at once, whatever their age', async () => {
    await put('modules/8/content/index.html')
    await record('modules/8', true, now())
    await cleaner().collect(['modules/8', 'not-recorded'])
    expect(await storage.list('modules/8')).toEqual([])
    expect(await sql("select key from storage_garbage where key = 'modules/8'")).toEqual([])
  })

  it('tells an upload committing late that the cleaner took its files', async () => {
    await record('uploads/late', true, new Date(now().getTime() - 60 * 60_000))
    await cleaner().sweep()
    expect(await db.orm.em.fork().transactional((tx) => forgetGarbage(tx, 'uploads/late'))).toBe(false)
    await record('uploads/on-time', true, now())
    expect(await db.orm.em.fork().transactional((tx) => forgetGarbage(tx, 'uploads/on-time'))).toBe(true)
  })

  it('sweeps at start and stops cleanly', async () => {
    await put('uploads/at-start/1.pdf')
    await record('uploads/at-start', true, new Date(now().getTime() - 20 * 60_000))
    const c = cleaner()
    c.start()
    await c.stop()
    expect(await storage.list('uploads/at-start')).toEqual([])
  })
})
