import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../harness.test-support.ts'
import { allModulesComplete, allModulesCompleteSql } from './course-completion.ts'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(async () => {
  await h?.close()
})

describe('course complete when all modules are', () => {
  it('says the same in TypeScript and SQL', async () => {
    const cases = [
      [0, 0],
      [1, 0],
      [1, 1],
      [3, 2],
      [3, 3],
    ] as const
    for (const [total, done] of cases) {
      const [row] = await h.sql<{ ok: boolean }>(`select ${allModulesCompleteSql('?::int', '?::int')} as ok`, [total, done, total])
      expect([total, done, row!.ok]).toEqual([total, done, allModulesComplete(total, done)])
    }
    expect(cases.map(([t, d]) => allModulesComplete(t, d))).toEqual([false, false, true, false, true])
  })
})
