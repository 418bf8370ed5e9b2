import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isExpired, noticeBand } from '@portal/contracts'
import { createHarness, type Harness } from '../harness.test-support.ts'
import { expiredSql, noticeBandSql } from './notice-band.ts'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(async () => {
  await h?.close()
})

describe('notice bands in SQL', () => {
  it('say the same as contracts’ isExpired and noticeBand, the expiration date itself in the 7-day band', async () => {
    const days = [45, 31, 30, 15, 14, 8, 7, 1, 0, -1, -3]
    for (const d of days) {
      const [row] = await h.sql<{ expired: boolean; band: number | null }>(
        `select ${expiredSql('x.d')} as expired, ${noticeBandSql('x.d')} as band from (select ?::int as d) x`,
        [d],
      )
      expect([d, row!.expired, row!.band]).toEqual([d, isExpired(d), noticeBand(d)])
    }
    expect(days.map(noticeBand)).toEqual([null, null, 30, 30, 14, 14, 7, 7, 7, 0, 0])
  })
})
