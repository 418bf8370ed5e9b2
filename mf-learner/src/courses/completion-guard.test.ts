import { describe, expect, it } from 'vitest'
import { CompletionGuard } from './completion-guard.ts'

describe('completion guard (once per module load)', () => {
  it('lets the first trigger through and drops the others while it is in flight', () => {
    const guard = new CompletionGuard()
    expect(guard.begin('scorm-status')).toBe(true)
    expect(guard.pending).toBe(true)
    expect(guard.begin('scorm-finish')).toBe(false)
    expect(guard.begin('manual')).toBe(false)
  })

  it('drops every trigger after the completion was recorded', () => {
    const guard = new CompletionGuard()
    guard.begin('content-message')
    guard.succeeded()
    expect(guard.done).toBe(true)
    for (const t of ['scorm-status', 'manual', 'tracker', 'module-close'] as const) expect(guard.begin(t)).toBe(false)
  })

  it('does not try a refused trigger again in the same load, but others may ask', () => {
    const guard = new CompletionGuard()
    guard.begin('frame-reload')
    guard.refusedBy('frame-reload')
    expect(guard.begin('frame-reload')).toBe(false)
    expect(guard.begin('completion-url')).toBe(true)
  })

  it('lets the learner press Mark as Complete again after a refusal', () => {
    const guard = new CompletionGuard()
    guard.begin('manual')
    guard.refusedBy('manual')
    expect(guard.begin('manual')).toBe(true)
  })

  it('lets the same trigger retry after a failed call', () => {
    const guard = new CompletionGuard()
    guard.begin('scorm-status')
    guard.failed()
    expect(guard.begin('scorm-status')).toBe(true)
  })

  it('starts fresh with every new load', () => {
    const first = new CompletionGuard()
    first.begin('manual')
    first.succeeded()
    expect(new CompletionGuard().begin('manual')).toBe(true)
  })
})
