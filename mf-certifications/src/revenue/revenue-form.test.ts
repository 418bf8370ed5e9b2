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

  it('marks each required field left empty, with its own message (learner §5)', () => {
    expect(checkRevenueForm({ user_id: '', month: '', gross_revenue: ' ', pay_amount: '' })).toEqual({
      errors: { user_id: 'Select a technician', month: 'Enter a month', gross_revenue: 'Enter the gross revenue' },
      missing: true,
    })
    expect(checkRevenueForm(form({ month: '' }))).toEqual({ errors: { month: 'Enter a month' }, missing: true })
  })

  it('refuses negative, text and three-decimal amounts on the field that holds them', () => {
    const amount = 'Enter a number of 0 or more with at most two decimals'
    expect(checkRevenueForm(form({ gross_revenue: '-5' }))).toEqual({ errors: { gross_revenue: amount }, missing: false })
    expect(checkRevenueForm(form({ gross_revenue: 'abc', pay_amount: '1.234' }))).toEqual({ errors: { gross_revenue: amount, pay_amount: amount }, missing: false })
    expect(checkRevenueForm(form({ month: '2026-13' }))).toEqual({ errors: { month: 'Use a month in the form YYYY-MM' }, missing: false })
  })

  it('wants pay from January 2025 on and lets it be left out before', () => {
    expect(payRequired('2024-12')).toBe(false)
    expect(payRequired('2025-01')).toBe(true)
    expect(checkRevenueForm(form({ month: '2025-01', pay_amount: '' }))).toEqual({ errors: { pay_amount: 'Pay amount is required from January 2025 on' }, missing: false })
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
