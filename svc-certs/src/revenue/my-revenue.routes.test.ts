import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MyLeaderboardResponse, RevenueTrendResponse, todayIso } from '@portal/contracts'
import { createHarness, type Harness, type TestUser } from '../harness.test-support.ts'
import { addMonths } from './revenue.service.ts'

// A technician's own revenue on their profile (learner §1, issue 30 item 6): their 6-month trend and
// the company's leaderboard with their place, other people's amounts kept to managers and admins.

let h: Harness
let admin: TestUser
let ada: TestUser
let bob: TestUser
/** The board's month: in the past, so the trend's months (up to today) stay apart from it. */
const BOARD_MONTH = '2024-06'
/** The six ranked above Ada on the board, best first, in Seattle then Portland. */
const above: TestUser[] = []
/** Gross revenue on the board: Top 1 has 9000, Top 6 4000, Ada 2500, Bob 1000. */
const boardGross = (i: number) => 9000 - 1000 * i

beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true, branch: null, department: null })
  ada = await h.user({ name: 'Mine Ada', branch: 'Portland' })
  bob = await h.user({ name: 'Mine Bob', branch: 'Seattle' })
  for (let i = 0; i < 6; i++) above.push(await h.user({ name: `Top ${i + 1}`, branch: i < 3 ? 'Seattle' : 'Portland' }))
  const enter = async (user: TestUser, month: string, gross: number, pay: number) => {
    const res = await h.call('POST', '/revenue/manual-entry', { token: admin.token, body: { user_id: user.id, month, gross_revenue: gross, pay_amount: pay } })
    if (res.status !== 201) throw new Error(`revenue not recorded: ${JSON.stringify(res.body)}`)
  }
  for (const [i, u] of above.entries()) await enter(u, BOARD_MONTH, boardGross(i), 100)
  await enter(ada, BOARD_MONTH, 2500, 125)
  await enter(bob, BOARD_MONTH, 1000, 50)
})
afterAll(async () => {
  await h?.close()
})

const trendOf = async (user: TestUser) => {
  const res = await h.call('GET', '/revenue/me/trend', { token: user.token })
  expect(res.status).toBe(200)
  return RevenueTrendResponse.parse(res.body)
}
const boardOf = async (user: TestUser, query = `period=monthly&date=${BOARD_MONTH}`) => {
  const res = await h.call('GET', `/revenue/leaderboard/me?${query}`, { token: user.token })
  expect(res.status).toBe(200)
  return { board: MyLeaderboardResponse.parse(res.body), text: JSON.stringify(res.body) }
}

describe('GET /revenue/me/trend', () => {
  it('gives a technician their own last 6 months, oldest first, months without revenue as 0 and not recorded', async () => {
    const month = todayIso(h.now()).slice(0, 7)
    const enter = (user: TestUser, m: string, gross: number, pay: number) =>
      h.call('POST', '/revenue/manual-entry', { token: admin.token, body: { user_id: user.id, month: m, gross_revenue: gross, pay_amount: pay } })
    await enter(ada, month, 12000, 400)
    await enter(ada, addMonths(month, -2), 9000.5, 300)
    // Seven months back: outside the six.
    await enter(ada, addMonths(month, -6), 7777, 100)
    await enter(bob, month, 54321, 1000)
    await enter(bob, addMonths(month, -1), 43210, 1000)

    const trend = await trendOf(ada)
    expect(trend).toMatchObject({ from: addMonths(month, -5), to: month })
    expect(trend.months).toEqual([
      { month: addMonths(month, -5), recorded: false, gross_revenue: 0, pay_amount: null, rev_pay_ratio: null },
      { month: addMonths(month, -4), recorded: false, gross_revenue: 0, pay_amount: null, rev_pay_ratio: null },
      { month: addMonths(month, -3), recorded: false, gross_revenue: 0, pay_amount: null, rev_pay_ratio: null },
      { month: addMonths(month, -2), recorded: true, gross_revenue: 9000.5, pay_amount: 300, rev_pay_ratio: 30 },
      { month: addMonths(month, -1), recorded: false, gross_revenue: 0, pay_amount: null, rev_pay_ratio: null },
      { month, recorded: true, gross_revenue: 12000, pay_amount: 400, rev_pay_ratio: 30 },
    ])
    // Bob's months are his own: nothing of Ada's, and Ada's answer held nothing of his.
    const bobs = await trendOf(bob)
    expect(bobs.months.filter((m) => m.recorded).map((m) => m.gross_revenue)).toEqual([43210, 54321])
    expect(JSON.stringify(trend)).not.toContain('54321')
  })

  it('answers only a signed-in caller, and has no way to name someone else', async () => {
    expect(await h.call('GET', '/revenue/me/trend')).toMatchObject({ status: 401 })
    // Asking for another user's trend goes through the history, which refuses a technician.
    expect(await h.call('GET', `/revenue/user/${bob.id}`, { token: ada.token })).toMatchObject({ status: 403 })
    // An admin has no revenue of their own: six empty months.
    expect((await trendOf(admin)).months.every((m) => !m.recorded && m.gross_revenue === 0)).toBe(true)
  })
})

describe('GET /revenue/leaderboard/me', () => {
  it('shows a technician the top 5 by rank and name without their amounts, and their own place and figures', async () => {
    const { board, text } = await boardOf(ada)
    expect(board).toMatchObject({ period: 'monthly', from: BOARD_MONTH, to: BOARD_MONTH, ranked: 8, amounts_withheld: true })
    expect(board.rows).toEqual([1, 2, 3, 4, 5].map((rank) => ({ rank, name: `Top ${rank}`, is_you: false, gross_revenue: null, rev_pay_ratio: null })))
    expect(board.you).toEqual({ rank: 7, gross_revenue: 2500, pay_amount: 125, rev_pay_ratio: 20 })
    // Nothing of anyone else leaves the service: neither their amounts nor their ids.
    for (const [i, u] of above.entries()) {
      expect(text).not.toContain(u.id)
      expect(text).not.toContain(String(boardGross(i)))
    }
    expect(text).not.toContain(bob.id)
  })

  it('shows a technician in the top 5 their own amounts in their row, and still no one else’s', async () => {
    const { board, text } = await boardOf(above[1]!)
    expect(board.rows.map((r) => [r.rank, r.name, r.is_you, r.gross_revenue, r.rev_pay_ratio])).toEqual([
      [1, 'Top 1', false, null, null],
      [2, 'Top 2', true, 8000, 80],
      [3, 'Top 3', false, null, null],
      [4, 'Top 4', false, null, null],
      [5, 'Top 5', false, null, null],
    ])
    expect(board.you).toEqual({ rank: 2, gross_revenue: 8000, pay_amount: 100, rev_pay_ratio: 80 })
    expect(text).not.toContain('9000')
    expect(text).not.toContain(above[0]!.id)
  })

  it('says so when the caller has no revenue in the period', async () => {
    const { board } = await boardOf(ada, 'period=monthly&date=2024-07-15')
    expect(board).toEqual({ period: 'monthly', from: '2024-07', to: '2024-07', ranked: 0, rows: [], you: null, amounts_withheld: false })
    const year = (await boardOf(ada, 'period=yearly&date=2024-06')).board
    expect(year).toMatchObject({ from: '2024-01', to: '2024-12', ranked: 8, you: { rank: 7, gross_revenue: 2500 } })
  })

  it('shows a manager the amounts of their scope only, and an admin every amount', async () => {
    const seattle = await h.user({ name: 'Sea Manager', branch: 'Seattle', manager: { branches: ['Seattle'], departments: [] } })
    const managed = (await boardOf(seattle)).board
    expect(managed.rows.map((r) => [r.name, r.gross_revenue, r.rev_pay_ratio])).toEqual([
      ['Top 1', 9000, 90],
      ['Top 2', 8000, 80],
      ['Top 3', 7000, 70],
      ['Top 4', null, null],
      ['Top 5', null, null],
    ])
    expect(managed).toMatchObject({ amounts_withheld: true, you: null })
    const all = (await boardOf(admin)).board
    expect(all.rows.map((r) => [r.rank, r.name, r.gross_revenue])).toEqual([1, 2, 3, 4, 5].map((rank) => [rank, `Top ${rank}`, boardGross(rank - 1)]))
    expect(all).toMatchObject({ amounts_withheld: false, you: null, ranked: 8 })
  })

  it('refuses an unknown period and a caller without a token', async () => {
    expect(await h.call('GET', '/revenue/leaderboard/me?period=weekly', { token: ada.token })).toMatchObject({ status: 400 })
    expect(await h.call('GET', '/revenue/leaderboard/me')).toMatchObject({ status: 401 })
  })
})
