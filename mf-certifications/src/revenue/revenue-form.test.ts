import { ApiError } from '@portal/ui-kit'
import { describe, expect, it } from 'vitest'
import { revenueRecord, USER_ID } from '../test/index.ts'
import { checkRevenueForm, liveRatio, payRequired, recordedMonth } from './revenue-form.ts'

const form = (over = {}) => ({ user_id: USER_ID, month: '2026-10', gross_revenue: '12000', pay_amount: '400', ...over })

describe('revenue entry form', () => {
  it('shows the ratio live only when revenue and pay are both above 0', () => {
    expect(liveRatio(form())).toBe(30)
    expect(liveRatio(form({ pay_amount: '' }))).toBeNull()
    expect(liveRatio(form({ pay_amount: '0' }))).toBeNull()
    expect(liveRatio(form({ gross_revenue: '0' }))).toBeNull()
  })

  it('needs technician, month and gross revenue (learner §5)', () => {
    for (const missing of [{ user_id: '' }, { month: '' }, { gross_revenue: ' ' }]) expect(checkRevenueForm(form(missing))).toEqual({ error: 'Please fill in all required fields' })
  })

  it('refuses negative, text and three-decimal amounts', () => {
    for (const bad of [{ gross_revenue: '-5' }, { gross_revenue: 'abc' }, { pay_amount: '1.234' }])
      expect(checkRevenueForm(form(bad))).toEqual({ error: 'Amounts are numbers of 0 or more with at most two decimals' })
  })

  it('wants pay from January 2025 on and lets it be left out before', () => {
    expect(payRequired('2024-12')).toBe(false)
    expect(payRequired('2025-01')).toBe(true)
    expect(checkRevenueForm(form({ month: '2025-01', pay_amount: '' }))).toEqual({ error: 'Pay amount is required from January 2025 on' })
    expect(checkRevenueForm(form({ month: '2024-12', pay_amount: '' }))).toEqual({
      body: { user_id: USER_ID, month: '2024-12', gross_revenue: 12000, pay_amount: null },
    })
    expect(checkRevenueForm(form())).toEqual({ body: { user_id: USER_ID, month: '2026-10', gross_revenue: 12000, pay_amount: 400 } })
  })

  it('knows a refusal for a month already recorded, with the record to show before replacing it', () => {
    const recorded = revenueRecord('2026-10', 12000, 400)
    const refusal = (status: number, code: string, details: unknown) => new ApiError(status, code, 'refused', { message: 'refused', code, details }, 'refused')
    expect(recordedMonth(refusal(409, 'revenue_month_recorded', [recorded]))).toEqual(recorded)
    expect(recordedMonth(refusal(409, 'conflict', [recorded]))).toBeNull()
    expect(recordedMonth(refusal(400, 'revenue_month_recorded', [recorded]))).toBeNull()
    expect(recordedMonth(refusal(409, 'revenue_month_recorded', [{ month: 'October' }]))).toBeNull()
    expect(recordedMonth(new Error('network'))).toBeNull()
  })
})
