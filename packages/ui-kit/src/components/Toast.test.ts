import { describe, expect, it } from 'vitest'
import { MAX_TOASTS, TOAST_DURATION_MS, toastsReducer, type ToastItem } from './Toast.tsx'

const toast = (id: number, message = `m${id}`, tone: ToastItem['tone'] = 'info'): ToastItem => ({ id, tone, message })

describe('toasts', () => {
  it('adds a toast at the end', () => {
    expect(toastsReducer([toast(1)], { type: 'show', toast: toast(2) })).toEqual([toast(1), toast(2)])
  })

  it('removes a dismissed toast and leaves the others', () => {
    expect(toastsReducer([toast(1), toast(2)], { type: 'dismiss', id: 1 })).toEqual([toast(2)])
  })

  it('does not stack a second copy of a message already shown', () => {
    const state = toastsReducer([toast(1, 'Failed to save progress', 'error'), toast(2)], {
      type: 'show',
      toast: toast(3, 'Failed to save progress', 'error'),
    })
    expect(state).toEqual([toast(2), toast(3, 'Failed to save progress', 'error')])
  })

  it('keeps the same text with another tone as a separate toast', () => {
    const state = toastsReducer([toast(1, 'Same', 'error')], { type: 'show', toast: toast(2, 'Same', 'success') })
    expect(state).toHaveLength(2)
  })

  it('drops the oldest toast beyond the limit', () => {
    let state: ToastItem[] = []
    for (let i = 1; i <= MAX_TOASTS + 2; i++) state = toastsReducer(state, { type: 'show', toast: toast(i) })
    expect(state.map((t) => t.id)).toEqual([3, 4, 5, 6])
  })

  it('lets errors stay longer than other toasts', () => {
    expect(TOAST_DURATION_MS.error).toBeGreaterThan(TOAST_DURATION_MS.success)
    expect(TOAST_DURATION_MS.error).toBeGreaterThan(TOAST_DURATION_MS.info)
  })
})
