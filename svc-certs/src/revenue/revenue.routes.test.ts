import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LeaderboardResponse, ManualRevenueResponse, RecentEntriesResponse, RevenueRecord, RevenueHistoryResponse, TechnicianProfile, todayIso } from '@portal/contracts'
import { createHarness, type Harness, type TestUser } from '../harness.test-support.ts'
import { addMonths, periodMonths } from './revenue.service.ts'

let h: Harness
let admin: TestUser
let ada: TestUser
let bob: TestUser
beforeAll(async () => {
  h = await createHarness()
  admin = await h.user({ admin: true, branch: null, department: null })
  ada = await h.user({ name: 'Rev Ada', branch: 'Portland' })
  bob = await h.user({ name: 'Rev Bob', branch: 'Seattle', department: 'Testing' })
})
afterAll(async () => {
  await h?.close()
})

const enter = (body: Record<string, unknown>, token = admin.token) => h.call('POST', '/revenue/manual-entry', { token, body })
const records = () =>
  h.sql<{ user_id: string; month: string; gross_revenue: string; pay_amount: string | null }>('select user_id, month, gross_revenue, pay_amount from revenue_records order by id')

describe('POST /revenue/manual-entry', () => {
  it('records a month (201); a second entry for that month is a 409 that changes nothing, unless it says replace: then it updates the one record and says so (200)', async () => {
    const first = await enter({ user_id: ada.id, month: '2025-03', gross_revenue: 10000.5, pay_amount: 320 })
    expect(first.status).toBe(201)
    const saved = ManualRevenueResponse.parse(first.body)
    expect(saved).toMatchObject({
      message: 'Revenue data saved successfully!',
      updated: false,
      record: { user_id: ada.id, month: '2025-03', gross_revenue: 10000.5, pay_amount: 320, rev_pay_ratio: 31.25 },
    })
    expect(saved.record.user).toEqual({ id: ada.id, name: 'Rev Ada', branch: 'Portland', department: 'Service' })
    const before = await records()
    const duplicate = await enter({ user_id: ada.id, month: '2025-03', gross_revenue: 11000, pay_amount: 400 })
    expect(duplicate).toMatchObject({
      status: 409,
      body: { code: 'revenue_month_recorded', message: 'Rev Ada already has revenue recorded for 2025-03; send it again with replace: true to update it' },
    })
    // The record already there comes with the refusal, so a form can show what replacing would overwrite.
    expect(RevenueRecord.parse((duplicate.body as { details: unknown[] }).details[0])).toEqual(saved.record)
    expect(await enter({ user_id: ada.id, month: '2025-03', gross_revenue: 11000, pay_amount: 400, replace: false })).toMatchObject({ status: 409 })
    expect(await enter({ user_id: ada.id, month: '2025-03', gross_revenue: 11000, pay_amount: 400, replace: 'yes' })).toMatchObject({
      status: 400,
      body: { message: 'replace must be true or false' },
    })
    expect(await records()).toEqual(before)
    const again = await enter({ user_id: ada.id, month: '2025-03', gross_revenue: 11000, pay_amount: 400, replace: true })
    expect(again).toMatchObject({
      status: 200,
      body: { message: 'Revenue data for this month was updated', updated: true, record: { id: saved.record.id, gross_revenue: 11000, rev_pay_ratio: 27.5 } },
    })
    expect((await records()).filter((r) => r.user_id === ada.id && r.month === '2025-03')).toHaveLength(1)
    // replace on a month not yet recorded simply records it.
    expect(await enter({ user_id: bob.id, month: '2023-06', gross_revenue: 1, replace: true })).toMatchObject({ status: 201, body: { updated: false } })
    // Two entries for one month at once leave one record: one is recorded, the other refused.
    const both = await Promise.all([
      enter({ user_id: bob.id, month: '2025-04', gross_revenue: 1, pay_amount: 1 }),
      enter({ user_id: bob.id, month: '2025-04', gross_revenue: 2, pay_amount: 1 }),
    ])
    expect(both.map((r) => r.status).sort()).toEqual([201, 409])
    expect((await records()).filter((r) => r.user_id === bob.id && r.month === '2025-04')).toHaveLength(1)
    const replaced = await Promise.all([1, 2].map((gross) => enter({ user_id: bob.id, month: '2025-04', gross_revenue: gross, pay_amount: 1, replace: true })))
    expect(replaced.map((r) => r.status)).toEqual([200, 200])
    expect((await records()).filter((r) => r.user_id === bob.id && r.month === '2025-04')).toHaveLength(1)
  })

  it('takes no pay before 2025-01 and requires it from then on', async () => {
    expect(await enter({ user_id: ada.id, month: '2024-12', gross_revenue: 5000 })).toMatchObject({ status: 201, body: { record: { pay_amount: null, rev_pay_ratio: null } } })
    expect(await enter({ user_id: ada.id, month: '2025-01', gross_revenue: 5000 })).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', message: 'Pay amount is required from January 2025 on' },
    })
  })

  it.each([
    ['a negative amount', { month: '2025-05', gross_revenue: -1, pay_amount: 10 }, 'Amounts cannot be negative'],
    ['a negative pay', { month: '2025-05', gross_revenue: 10, pay_amount: -0.01 }, 'Amounts cannot be negative'],
    ['text for an amount', { month: '2025-05', gross_revenue: '12k', pay_amount: 10 }, 'Amounts must be numbers'],
    ['no month', { gross_revenue: 10, pay_amount: 10 }, 'Please fill in all required fields'],
    ['no gross revenue', { month: '2025-05', pay_amount: 10 }, 'Please fill in all required fields'],
    ['a month out of range', { month: '2025-13', gross_revenue: 10, pay_amount: 10 }, 'Use a month in the form YYYY-MM'],
    ['three decimals', { month: '2025-05', gross_revenue: 10.001, pay_amount: 10 }, 'Use at most two decimals'],
  ])('refuses %s with a clear 400 and changes nothing', async (_what, body, message) => {
    const before = await records()
    expect(await enter({ user_id: ada.id, ...body })).toMatchObject({ status: 400, body: { code: 'validation_failed', message } })
    // A bad second entry for a month already recorded leaves that record as it was.
    if ('month' in body && body.month !== '2025-13') expect(await enter({ user_id: ada.id, ...body, month: '2025-03' })).toMatchObject({ status: 400 })
    expect(await records()).toEqual(before)
  })

  it('records revenue for technicians only, known ones, and only when an admin enters it', async () => {
    const before = await records()
    expect(await enter({ user_id: admin.id, month: '2025-05', gross_revenue: 1, pay_amount: 1 })).toMatchObject({
      status: 400,
      body: { message: 'Revenue is recorded for technicians only' },
    })
    expect(await enter({ user_id: crypto.randomUUID(), month: '2025-05', gross_revenue: 1, pay_amount: 1 })).toMatchObject({ status: 404, body: { code: 'user_not_found' } })
    expect(await enter({ user_id: ada.id, month: '2025-05', gross_revenue: 1, pay_amount: 1 }, ada.token)).toMatchObject({ status: 403 })
    expect(await h.call('POST', '/revenue/manual-entry', { token: admin.token, raw: 'month=2025-05', headers: { 'content-type': 'text/plain' } })).toMatchObject({ status: 415 })
    expect(await records()).toEqual(before)
  })
})

describe('reading revenue', () => {
  it('lists recent entries newest first, limited', async () => {
    const res = await h.call('GET', '/revenue/recent-entries?limit=2', { token: admin.token })
    expect(res.status).toBe(200)
    const { entries } = RecentEntriesResponse.parse(res.body)
    expect(entries).toHaveLength(2)
    expect(Date.parse(entries[0]!.updated_at)).toBeGreaterThanOrEqual(Date.parse(entries[1]!.updated_at))
    expect((await h.call('GET', '/revenue/recent-entries?limit=0', { token: admin.token })).status).toBe(400)
  })

  it('shows a technician their own history with ratios, newest first', async () => {
    const res = await h.call('GET', `/revenue/user/${ada.id}`, { token: ada.token })
    const { revenue_history } = RevenueHistoryResponse.parse(res.body)
    expect(revenue_history.map((r) => [r.month, r.rev_pay_ratio])).toEqual([
      ['2025-03', 27.5],
      ['2024-12', null],
    ])
    expect((await h.call('GET', `/revenue/user/${bob.id}`, { token: ada.token })).status).toBe(403)
  })

  it('ranks the top 5 of a month, quarter and year', async () => {
    const names: TestUser[] = []
    for (let i = 0; i < 6; i++) names.push(await h.user({ name: `Board ${i}`, branch: 'Anchorage', department: 'Construction' }))
    for (const [i, u] of names.entries()) await enter({ user_id: u.id, month: '2026-02', gross_revenue: 1000 * (i + 1), pay_amount: 100 })
    await enter({ user_id: names[0]!.id, month: '2026-03', gross_revenue: 50000, pay_amount: 1000 })
    const monthly = LeaderboardResponse.parse((await h.call('GET', '/revenue/leaderboard?period=monthly&date=2026-02-14', { token: admin.token })).body)
    expect(monthly).toMatchObject({ period: 'monthly', from: '2026-02', to: '2026-02' })
    expect(monthly.rows.map((r) => [r.rank, r.name, r.gross_revenue, r.rev_pay_ratio])).toEqual([
      [1, 'Board 5', 6000, 60],
      [2, 'Board 4', 5000, 50],
      [3, 'Board 3', 4000, 40],
      [4, 'Board 2', 3000, 30],
      [5, 'Board 1', 2000, 20],
    ])
    const quarterly = LeaderboardResponse.parse((await h.call('GET', '/revenue/leaderboard?period=quarterly&date=2026-02', { token: admin.token })).body)
    expect(quarterly).toMatchObject({ from: '2026-01', to: '2026-03', rows: [{ name: 'Board 0', gross_revenue: 51000 }, {}, {}, {}, {}] })
    const yearly = LeaderboardResponse.parse((await h.call('GET', '/revenue/leaderboard?period=yearly&date=2026-07-01', { token: admin.token })).body)
    expect(yearly).toMatchObject({ from: '2026-01', to: '2026-12' })
    expect((await h.call('GET', '/revenue/leaderboard?period=weekly', { token: admin.token })).status).toBe(400)
    expect((await h.call('GET', '/revenue/leaderboard', { token: ada.token })).status).toBe(403)
  })

  it('fills the profile’s revenue cards and the tier pay rate', async () => {
    const month = todayIso(h.now()).slice(0, 7)
    await enter({ user_id: bob.id, month, gross_revenue: 7000, pay_amount: 200 })
    await enter({ user_id: bob.id, month: `${month.slice(0, 4)}-01` === month ? addMonths(month, 1) : `${month.slice(0, 4)}-01`, gross_revenue: 3000, pay_amount: 100 })
    await h.sql('insert into technicians (user_id, current_tier, updated_at) values (?, 2, now())', [bob.id])
    const p = TechnicianProfile.parse((await h.call('GET', `/technician/profile/${bob.id}`, { token: bob.token })).body)
    expect(p.revenue_data).toEqual({
      month,
      monthly_revenue: 7000,
      monthly_pay: 200,
      rev_pay_ratio: 35,
      yearly_revenue_ytd: month.endsWith('-01') ? 7000 : 10000,
      tier_pay_rate: 30,
    })
  })
})

describe('periods', () => {
  it('finds the months of a period and moves months across years', () => {
    expect(periodMonths('quarterly', '2025-11')).toEqual({ from: '2025-10', to: '2025-12' })
    expect(periodMonths('yearly', '2025-11')).toEqual({ from: '2025-01', to: '2025-12' })
    expect(addMonths('2025-02', -5)).toBe('2024-09')
    expect(addMonths('2025-12', 1)).toBe('2026-01')
  })
})
