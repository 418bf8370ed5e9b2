import { PROGRESS_TRACKER as T } from '@portal/contracts'
import { describe, expect, it } from 'vitest'
import type { PlayerEvent } from '../player/index.ts'
import { runtimeStatus as status } from '../test-support/index.ts'
import { applyPlayerEvent, type PlayerEventContext } from './player-events.ts'

/** Records what the viewer's progress rules were told. */
function context(over: Partial<Pick<PlayerEventContext, 'sequenced' | 'edited'>> = {}) {
  const calls: string[] = []
  let talks = false
  const ctx: PlayerEventContext = {
    controller: {
      contentTalks: () => {
        talks = true
        calls.push('content talks')
      },
      get contentDecides() {
        return talks
      },
      raise: (v) => void calls.push(`raise ${v}`),
      completeReported: (t) => void calls.push(`reported ${t}`),
      contentProgress: (v) => void calls.push(`progress ${v}`),
      complete: async (t) => {
        calls.push(`complete ${t}`)
        return true
      },
      interaction: () => void calls.push('interaction'),
      realActivity: () => void calls.push('activity'),
    },
    sequenced: over.sequenced ?? false,
    edited: over.edited ?? false,
    urls: { current: [] },
    loaded: () => void calls.push('loaded'),
    view: (v) => void calls.push(`view ${v.delivery}`),
    finished: (item, nav) => void calls.push(`finished ${item} ${nav?.kind ?? '-'}`),
    trackingIssue: () => void calls.push('tracking issue'),
  }
  const apply = (...events: PlayerEvent[]) => events.forEach((e) => applyPlayerEvent(e, ctx))
  return { ctx, calls, apply }
}

describe('the player’s events in the viewer (learner §4, §9)', () => {
  it('SCO start: loaded, and 5 % at Initialize', () => {
    const t = context()
    t.apply({ t: 'activity' }, { t: 'initialize' })
    expect(t.calls).toEqual(['loaded', 'loaded', 'content talks', `raise ${T.scormInitialized}`])
  })

  it('once the content talks to the runtime, neither a second frame load nor its messages complete it (issue 15)', () => {
    const t = context()
    t.apply(
      { t: 'initialize' },
      { t: 'frame-load', count: 2 },
      { t: 'content-message', data: { type: 'complete' } },
      { t: 'finish', itemId: 'a', status: status({ lessonStatus: 'incomplete' }), navRequest: null },
    )
    expect(t.calls).toEqual(['loaded', 'content talks', `raise ${T.scormInitialized}`, 'finished a -'])
  })

  it('a status of completed or passed, or a score of 100, asks for completion; a progress measure raises progress', () => {
    const t = context()
    t.apply(
      { t: 'status', status: status({ progressMeasure: 0.4 }) },
      { t: 'status', status: status({ lessonStatus: 'passed' }) },
      { t: 'status', status: status({ scoreRaw: 100 }) },
    )
    expect(t.calls).toEqual(['progress 40', 'reported scorm-status', 'reported scorm-score'])
  })

  it('in a sequenced package only the rollup completes: a SCO’s status raises progress only', () => {
    const t = context({ sequenced: true })
    t.apply({ t: 'status', status: status({ completionStatus: 'completed', progressMeasure: 0.5 }) }, { t: 'root-done', atFinish: false }, { t: 'root-done', atFinish: true })
    expect(t.calls).toEqual(['progress 50', 'reported scorm-status', 'reported scorm-finish'])
  })

  it('finish: completed asks for completion, else progress goes no further than the content’s measure; the viewer follows the navigation', () => {
    const t = context()
    t.apply(
      { t: 'finish', itemId: 'a', status: status({ lessonStatus: 'completed' }), navRequest: { kind: 'continue' } },
      { t: 'finish', itemId: 'b', status: status({ lessonStatus: 'incomplete', scoreRaw: 97 }), navRequest: null },
      { t: 'finish', itemId: 'c', status: status({ completionStatus: 'incomplete', progressMeasure: 0.25 }), navRequest: null },
    )
    expect(t.calls).toEqual(['reported scorm-finish', 'finished a continue', 'finished b -', 'progress 25', 'finished c -'])
  })

  it('a second load of the SCO frame completes an unedited package only', () => {
    const t = context()
    t.apply({ t: 'frame-load', count: 1 }, { t: 'frame-load', count: 2 })
    expect(t.calls).toEqual(['complete frame-reload'])
    const edited = context({ edited: true })
    edited.apply({ t: 'frame-load', count: 2 })
    expect(edited.calls).toEqual([])
  })

  it('interactions, URLs and content messages feed the tracker', () => {
    const t = context()
    t.apply(
      { t: 'interaction' },
      { t: 'urls', urls: ['http://c/api/content/tok/slide7.html'] },
      { t: 'content-message', data: 'scorm-module-completed' },
      { t: 'content-message', data: { progress: 30 } },
      { t: 'content-message', data: 'real-user-activity' },
      { t: 'content-message', data: { anything: 'else' } },
      { t: 'commit-error' },
    )
    expect(t.calls).toEqual(['interaction', 'complete content-message', 'progress 30', 'activity', 'tracking issue'])
    expect(t.ctx.urls.current).toEqual(['http://c/api/content/tok/slide7.html'])
  })
})
