import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '@portal/server-kit/testing'
import { storedFiles } from '../courses/course-test-forms.ts'
import { createHarness, type Harness } from '../test-harness.ts'
import { createGarbageCleaner, forgetGarbage, recordGarbage } from './garbage.ts'

let h: Harness

beforeAll(async () => {
  h = await createHarness()
})
afterAll(async () => {
  await h?.close()
})

const cleaner = () => createGarbageCleaner({ ...h.ctx, logger: silentLogger }, { minAgeMs: 10 * 60_000 })
const put = (key: string) => h.storage.put(key, Readable.from([Buffer.from('data')]))
const record = (key: string, isPrefix: boolean, at: Date) => h.orm.em.fork().transactional((tx) => recordGarbage(tx, [{ key, isPrefix }], at))

describe('the storage garbage cleaner', () => {
  it('removes what a crash between storage and database left behind, once it is old enough', async () => {
    await put('uploads/crashed/1.pdf')
    await put('uploads/crashed/2.zip')
    await put('uploads/in-flight/1.pdf')
    await put('modules/7/original.zip')
    const old = new Date(h.now().getTime() - 11 * 60_000)
    await record('uploads/crashed', true, old)
    await record('modules/7/original.zip', false, old)
    await record('uploads/in-flight', true, h.now())

    expect(await cleaner().sweep()).toBe(2)
    expect(await storedFiles(h)).toEqual(['uploads/in-flight/1.pdf'])
    expect((await h.sql('select key from storage_garbage')).map((r) => r.key)).toEqual(['uploads/in-flight'])
  })

  it('collects given rows at once, whatever their age', async () => {
    await put('modules/8/content/index.html')
    await record('modules/8', true, h.now())
    await cleaner().collect(['modules/8', 'not-recorded'])
    expect((await storedFiles(h)).filter((f) => f.startsWith('modules/8'))).toEqual([])
    expect(await h.sql("select key from storage_garbage where key = 'modules/8'")).toEqual([])
  })

  it('tells an upload committing late that the cleaner took its files', async () => {
    await record('uploads/late', true, new Date(h.now().getTime() - 60 * 60_000))
    await cleaner().sweep()
    expect(await h.orm.em.fork().transactional((tx) => forgetGarbage(tx, 'uploads/late'))).toBe(false)
    await record('uploads/on-time', true, h.now())
    expect(await h.orm.em.fork().transactional((tx) => forgetGarbage(tx, 'uploads/on-time'))).toBe(true)
  })

  it('sweeps at start and stops cleanly', async () => {
    await put('uploads/at-start/1.pdf')
    await record('uploads/at-start', true, new Date(h.now().getTime() - 20 * 60_000))
    const c = cleaner()
    c.start()
    await c.stop()
    expect((await storedFiles(h)).filter((f) => f.startsWith('uploads/at-start'))).toEqual([])
  })
})
