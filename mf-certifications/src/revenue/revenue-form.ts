import { RevenueRecord, TEAM, TEAM_MESSAGES, type ManualRevenueBody } from '@portal/contracts'
import { ApiError } from '@portal/ui-kit'

/** The entry form as typed. */
export interface RevenueForm {
  user_id: string
  month: string
  gross_revenue: string
  pay_amount: string
}

export const EMPTY_FORM: RevenueForm = { user_id: '', month: '', gross_revenue: '', pay_amount: '' }

const AMOUNT = /^\d+(\.\d{1,2})?$/

/** The live ratio (learner §5): gross / pay when both are above 0, else null. */
export function liveRatio(form: Pick<RevenueForm, 'gross_revenue' | 'pay_amount'>): number | null {
  const gross = Number(form.gross_revenue)
  const pay = Number(form.pay_amount)
  if (form.gross_revenue.trim() === '' || form.pay_amount.trim() === '' || !(gross > 0) || !(pay > 0)) return null
  return gross / pay
}

/** Whether the month needs a pay amount (from January 2025 on). */
export const payRequired = (month: string): boolean => month !== '' && month >= TEAM.payRequiredFrom

/** What is wrong with each field, by the field's key (learner §5). */
export type RevenueFormErrors = Partial<Record<keyof RevenueForm, string>>

/** The message of each required field left empty; with any of them the form also shows learner §5's 'Please fill in all required fields'. */
export const MISSING = {
  user_id: 'Select a technician',
  month: 'Enter a month',
  gross_revenue: 'Enter the gross revenue',
} as const

const AMOUNT_ERROR = 'Enter a number of 0 or more with at most two decimals'

/**
 * The body of POST /revenue/manual-entry, or what is wrong with each field (in the form's order):
 * technician, month and gross revenue required (learner §5), amounts of 0 or more with at most two
 * decimals, pay from 2025-01. `missing` says a required field was left empty.
 */
export function checkRevenueForm(form: RevenueForm): { body: ManualRevenueBody } | { errors: RevenueFormErrors; missing: boolean } {
  const gross = form.gross_revenue.trim()
  const pay = form.pay_amount.trim()
  const errors: RevenueFormErrors = {}
  if (!form.user_id) errors.user_id = MISSING.user_id
  if (!form.month) errors.month = MISSING.month
  else if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(form.month)) errors.month = 'Use a month in the form YYYY-MM'
  if (gross === '') errors.gross_revenue = MISSING.gross_revenue
  else if (!AMOUNT.test(gross)) errors.gross_revenue = AMOUNT_ERROR
  if (pay !== '' && !AMOUNT.test(pay)) errors.pay_amount = AMOUNT_ERROR
  else if (pay === '' && !errors.month && payRequired(form.month)) errors.pay_amount = TEAM_MESSAGES.payRequired
  if (Object.keys(errors).length > 0) return { errors, missing: !form.user_id || !form.month || gross === '' }
  return { body: { user_id: form.user_id, month: form.month, gross_revenue: Number(gross), pay_amount: pay === '' ? null : Number(pay) } }
}

/**
 * The record a save was refused for: the month is recorded already for that technician (409
 * `revenue_month_recorded`, the record in `details`), so the form asks before replacing it.
 */
export function recordedMonth(error: unknown): RevenueRecord | null {
  if (!(error instanceof ApiError) || error.status !== 409 || error.code !== 'revenue_month_recorded') return null
  const details = (error.body as { details?: unknown[] } | null)?.details
  const parsed = RevenueRecord.safeParse(details?.[0])
  return parsed.success ? parsed.data : null
}

/** How long the success message stays (learner §8: it clears after 3 s). */
export const SUCCESS_MS = 3000
