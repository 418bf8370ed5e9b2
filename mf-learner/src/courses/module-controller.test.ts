import type { CompleteModuleResponse, CompletionTrigger } from '@portal/contracts'
import { ApiError } from '@portal/ui-kit'
import { describe, expect, it } from 'vitest'
import { FakeClock } from './fake-clock.ts'
import { ModuleController, MODULE_TOASTS, REPORTED_FINISH_DELAY_MS, REPORTED_STATUS_DELAY_MS, type ModuleCalls } from './module-controller.ts'

const done: CompleteModuleResponse = {
  moduleId: 3,
  completed_at: '2026-11-22T10:00:00.000Z',
  newly_completed: true,
  course_completed: false,
  course_completed_at: null,
}

const setup = (
  over: {
    startedAt?: string | null
    completedAt?: string | null
    progress?: number
    complete?: ModuleCalls['complete']
    saveProgress?: ModuleCalls['saveProgress']
    clock?: FakeClock
  } = {},
) => {
  const saved: number[] = []
  const completeCalls: CompletionTrigger[] = []
  const exitCalls: CompletionTrigger[] = []
  const toasts: string[] = []
  const completed: CompletionTrigger[] = []
  const controller = new ModuleController({
    moduleId: 3,
    courseId: 9,
    progress: over.progress ?? 0,
    startedAt: over.startedAt === undefined ? null : over.startedAt,
    completedAt: over.completedAt ?? null,
    calls: {
      saveProgress: over.saveProgress ?? (async (_m, _c, p) => void saved.push(p)),
      complete:
        over.complete ??
        (async (_m, _c, trigger) => {
          completeCalls.push(trigger)
          return done
        }),
      completeOnExit: (_m, _c, trigger) => void exitCalls.push(trigger),
    },
    toast: { success: (m) => toasts.push(`success:${m}`), error: (m) => toasts.push(`error:${m}`), info: (m) => toasts.push(`info:${m}`) },
    onCompleted: (_r, t) => completed.push(t),
    clock: over.clock,
  })
  return { controller, saved, completeCalls, exitCalls, toasts, completed }
}

const settle = () => new Promise((r) => setTimeout(r, 0))

describe('module controller', () => {
  it('sends progress 1 when a module is opened for the first time', async () => {
    const { controller, saved } = setup()
    controller.open(false)
    await settle()
    expect(saved).toEqual([1])
    controller.close()
  })

  it('does not send 1 for a module already started', async () => {
    const { controller, saved } = setup({ startedAt: '2026-11-01T00:00:00Z', progress: 10 })
    controller.open(false)
    await settle()
    expect(saved).toEqual([])
    controller.close()
  })

  it('sends rising progress only, at most 99, one request at a time with the latest value', async () => {
    const { controller, saved } = setup({ startedAt: '2026-11-01T00:00:00Z' })
    controller.raise(5)
    controller.raise(50)
    controller.raise(30)
    controller.raise(120)
    await settle()
    await settle()
    expect(saved).toEqual([5, 99])
  })

  it('shows "Failed to save progress" once when saving fails', async () => {
    const { controller, toasts } = setup({ startedAt: 'x', saveProgress: async () => Promise.reject(new ApiError(500, 'internal', 'x', null)) })
    controller.raise(5)
    await settle()
    controller.raise(50)
    await settle()
    expect(toasts).toEqual([`error:${MODULE_TOASTS.saveFailed}`])
  })

  it('records completion once per load, whatever asks', async () => {
    const { controller, completeCalls, completed } = setup()
    const first = controller.complete('scorm-status')
    const second = controller.complete('scorm-finish')
    expect(await first).toBe(true)
    expect(await second).toBe(false)
    expect(await controller.complete('manual')).toBe(false)
    expect(completeCalls).toEqual(['scorm-status'])
    expect(completed).toEqual(['scorm-status'])
    expect(controller.completed).toBe(true)
    expect(controller.tracker.progress).toBe(100)
  })

  it('asks nothing for a module that was already completed', async () => {
    const { controller, completeCalls, saved } = setup({ completedAt: '2026-11-01T00:00:00Z', progress: 100 })
    controller.open(false)
    expect(await controller.complete('manual')).toBe(false)
    await settle()
    expect(completeCalls).toEqual([])
    expect(saved).toEqual([])
  })

  it('shows the server message of a refused manual completion and lets the learner try again', async () => {
    let calls = 0
    const { controller, toasts } = setup({
      complete: async () => {
        calls += 1
        throw new ApiError(422, 'engagement_too_short', 'x', null, 'Please spend more time engaging with the course content before marking as complete.')
      },
    })
    expect(await controller.complete('manual')).toBe(false)
    expect(await controller.complete('manual')).toBe(false)
    expect(calls).toBe(2)
    expect(toasts).toEqual([
      'error:Please spend more time engaging with the course content before marking as complete.',
      'error:Please spend more time engaging with the course content before marking as complete.',
    ])
    expect(controller.completed).toBe(false)
  })

  it('says a refusal of an automatic trigger once and does not retry that trigger', async () => {
    let calls = 0
    const { controller, toasts } = setup({
      complete: async () => {
        calls += 1
        throw new ApiError(422, 'engagement_too_short', 'x', null, 'Please spend more time reviewing the course content before marking as complete.')
      },
    })
    await controller.complete('frame-reload')
    await controller.complete('frame-reload')
    await controller.complete('completion-url')
    expect(calls).toBe(2)
    expect(toasts).toEqual(['info:Please spend more time reviewing the course content before marking as complete.'])
  })

  it('shows "Error recording course completion" when the call fails, and may retry', async () => {
    let fail = true
    const { controller, toasts } = setup({
      complete: async () => {
        if (fail) throw new ApiError(0, 'network_error', 'Network error', null)
        return done
      },
    })
    expect(await controller.complete('scorm-status')).toBe(false)
    expect(toasts).toEqual([`error:${MODULE_TOASTS.completeFailed}`])
    fail = false
    expect(await controller.complete('scorm-status')).toBe(true)
  })

  it('completes with a keepalive request when the page goes away above 70 percent', () => {
    const { controller, exitCalls, completeCalls } = setup({ startedAt: 'x', progress: 80 })
    controller.pageExit()
    expect(exitCalls).toEqual(['module-close'])
    expect(completeCalls).toEqual([])
  })

  it('completes with module-close when closed in the viewer above 70 percent, and stops tracking', async () => {
    const { controller, completeCalls } = setup({ startedAt: 'x', progress: 75 })
    controller.close()
    await settle()
    expect(completeCalls).toEqual(['module-close'])
    const low = setup({ startedAt: 'x', progress: 60 })
    low.controller.close()
    await settle()
    expect(low.completeCalls).toEqual([])
  })

  it('asks for a completion the SCORM content reported once its commit had time to arrive', async () => {
    const clock = new FakeClock()
    const { controller, completeCalls } = setup({ clock })
    controller.completeReported('scorm-status')
    controller.completeReported('scorm-score')
    clock.advance(REPORTED_STATUS_DELAY_MS - 1)
    expect(completeCalls).toEqual([])
    clock.advance(1)
    await settle()
    expect(completeCalls).toEqual(['scorm-status'])
    expect(controller.completed).toBe(true)
  })

  it('asks sooner after Finish, whose final commit is already out', async () => {
    const clock = new FakeClock()
    const { controller, completeCalls } = setup({ clock })
    controller.completeReported('scorm-status')
    controller.completeReported('scorm-finish')
    clock.advance(REPORTED_FINISH_DELAY_MS)
    await settle()
    expect(completeCalls).toEqual(['scorm-finish'])
  })

  it('tries a refused reported completion once more, quietly the first time', async () => {
    const clock = new FakeClock()
    const answers: ('refuse' | 'ok')[] = ['refuse', 'ok']
    const { controller, toasts, completed } = setup({
      clock,
      complete: async () => {
        if (answers.shift() === 'refuse')
          throw new ApiError(422, 'engagement_too_short', 'x', null, 'Please spend more time reviewing the course content before marking as complete.')
        return done
      },
    })
    controller.completeReported('scorm-status')
    clock.advance(REPORTED_STATUS_DELAY_MS)
    await settle()
    expect(toasts).toEqual([])
    clock.advance(REPORTED_STATUS_DELAY_MS)
    await settle()
    expect(completed).toEqual(['scorm-status'])
  })

  it('shows the refusal when the second try is refused too', async () => {
    const clock = new FakeClock()
    const { controller, toasts } = setup({
      clock,
      complete: async () => {
        throw new ApiError(422, 'engagement_too_short', 'x', null, 'Please spend more time reviewing the course content before marking as complete.')
      },
    })
    controller.completeReported('scorm-status')
    clock.advance(REPORTED_STATUS_DELAY_MS)
    await settle()
    clock.advance(REPORTED_STATUS_DELAY_MS)
    await settle()
    expect(toasts).toEqual(['info:Please spend more time reviewing the course content before marking as complete.'])
  })

  it('asks for a waiting reported completion at once when the module is closed', async () => {
    const clock = new FakeClock()
    const { controller, completeCalls } = setup({ clock })
    controller.completeReported('scorm-status')
    controller.close()
    await settle()
    expect(completeCalls).toEqual(['scorm-status'])
    clock.advance(REPORTED_STATUS_DELAY_MS * 3)
    await settle()
    expect(completeCalls).toEqual(['scorm-status'])
  })
})
