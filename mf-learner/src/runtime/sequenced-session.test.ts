import { objectiveMapTo, type ScormItem, type ScormOrganization, type ScormSequencing, type SequencingState } from '@portal/contracts'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { preloadRuntime, startSequencedSession, type SequencingView } from './index.ts'
import { captureCommits, hostWindow, item, launchOf, type ScoApi2004 } from '../test-support/index.ts'

/*
 * A visit of a sequenced package on scorm-again's real engine: the forced-sequential pattern of the
 * Golf samples (each lesson disabled until the one before is satisfied, read through global
 * objectives), driven as content and viewer drive it.
 */

beforeAll(async () => {
  await preloadRuntime('2004')
  // The engine notes deliveries and restores with console.debug whatever its log level.
  vi.spyOn(console, 'debug').mockImplementation(() => {})
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const own = (id: string): ScormSequencing => ({
  deliveryControls: { completionSetByContent: true, objectiveSetByContent: true },
  objectives: {
    primary: { objectiveID: id, satisfiedByMeasure: false, mapInfo: [objectiveMapTo(`g.${id}`, { readSatisfiedStatus: true, writeSatisfiedStatus: true })] },
    objectives: [],
  },
})
const gated = (id: string, after: string): ScormSequencing => ({
  ...own(id),
  sequencingRules: {
    preConditionRules: [
      {
        conditionCombination: 'any',
        conditions: [
          { condition: 'satisfied', operator: 'not', referencedObjective: 'before' },
          { condition: 'objectiveStatusKnown', operator: 'not', referencedObjective: 'before' },
        ],
        action: 'disabled',
      },
    ],
  },
  objectives: {
    ...own(id).objectives!,
    objectives: [{ objectiveID: 'before', satisfiedByMeasure: false, mapInfo: [objectiveMapTo(`g.${after}`, { readSatisfiedStatus: true })] }],
  },
})
const href = (id: string) => `/api/content/tok/${id}.html`
const golf: ScormItem[] = [
  item('playing', href('playing'), [], { title: 'Playing the Game', sequencing: own('playing') }),
  item('etiquette', href('etiquette'), [], { title: 'Etiquette', sequencing: gated('etiquette', 'playing') }),
  item('handicapping', href('handicapping'), [], { title: 'Handicapping', sequencing: gated('handicapping', 'etiquette') }),
]
const organization: ScormOrganization = { identifier: 'golf', declaresSequencing: true, objectivesGlobalToSystem: false, sequencing: { controlMode: { choice: true, flow: true } } }

function visit(over: { items?: ScormItem[]; organization?: ScormOrganization; state?: SequencingState | null; startItem?: string } = {}) {
  const host = hostWindow()
  const views: SequencingView[] = []
  let rootDone = 0
  const launch = launchOf({
    version: '2004',
    items: over.items ?? golf,
    startItem: over.startItem ?? 'playing',
    sequencing: { organization: over.organization ?? organization, state: over.state ?? null },
  })
  const seq = startSequencedSession({ launch, host, logLevel: 5, events: { onView: (v) => views.push(v), onRootDone: () => rootDone++ } })
  seq.start()
  return {
    host,
    seq,
    launch,
    /** The API object the open SCO finds on its parent window. */
    api: () => host.API_1484_11,
    /** The view once the engine's events of this turn are in. */
    view: async () => {
      await Promise.resolve()
      return views.at(-1)!
    },
    rootDone: () => rootDone,
  }
}

const DONE = (api: ScoApi2004) => {
  expect(api.SetValue('cmi.completion_status', 'completed')).toBe('true')
  expect(api.SetValue('cmi.success_status', 'passed')).toBe('true')
}

describe('a sequenced visit', () => {
  it('starts on the first lesson with the next ones disabled, saying why, and Continue waiting for this one', async () => {
    captureCommits()
    const v = visit()
    let view = await v.view()
    expect(view).toMatchObject({ current: 'playing', href: href('playing'), delivery: 1, idle: null, unloading: false })
    expect(view.access).toEqual({
      playing: { kind: 'open' },
      etiquette: { kind: 'disabled', reason: 'Available after “Playing the Game”.' },
      handicapping: { kind: 'disabled', reason: 'Available after “Etiquette”.' },
    })
    const api = v.api()
    expect(api.Initialize('')).toBe('true')
    // The SCO asks the engine too.
    expect(api.GetValue('adl.nav.request_valid.choice.{target=etiquette}')).toBe('false')
    view = await v.view()
    expect(view.continue).toEqual({ shown: true, enabled: false, reason: 'Finish this lesson to continue.' })
    expect(view.previous).toMatchObject({ shown: true, enabled: false })
    DONE(api)
    view = await v.view()
    expect(view.continue).toEqual({ shown: true, enabled: true, reason: null })
    // Tree and flow agree after the rollup (issue 17 item 8): the next lesson is offered, as a continue.
    expect(view.access).toEqual({
      playing: { kind: 'open' },
      etiquette: { kind: 'available', via: 'continue' },
      handicapping: { kind: 'disabled', reason: 'Available after “Etiquette”.' },
    })
  })

  it('follows the content’s continue to the next lesson, whose lock is lifted, and sends the engine state with the last commit', async () => {
    const c = captureCommits()
    const v = visit()
    const first = v.api()
    first.Initialize('')
    DONE(first)
    first.SetValue('cmi.exit', 'suspend')
    first.SetValue('adl.nav.request', 'continue')
    expect(first.Terminate('')).toBe('true')
    const view = await v.view()
    expect(view).toMatchObject({ current: 'etiquette', href: href('etiquette'), delivery: 2 })
    expect(view.access).toMatchObject({ playing: { kind: 'available' }, etiquette: { kind: 'open' }, handicapping: { kind: 'disabled' } })
    // The next SCO finds a fresh API object; the one the first SCO kept answers nothing any more.
    const second = v.api()
    expect(second).not.toBe(first)
    expect(first.GetValue('cmi.location')).toBe('')
    expect(second.Initialize('')).toBe('true')
    expect(second.GetValue('cmi.completion_status')).toBe('unknown')
    await c.settle()
    const last = c.sent.find((s) => s.body.itemId === 'playing' && s.body.terminated)!
    // One lesson of three done: the course is not.
    expect(last.body.sequencing?.root.completionStatus).not.toBe('completed')
    // Sent after the navigation: the state already has the next lesson as the current one.
    expect((last.body.sequencing?.state as { currentActivityId?: string }).currentActivityId).toBe('etiquette')
  })

  it('carries out the lesson tree’s choice at the open SCO’s Terminate (on unload), or ends a SCO that does not terminate itself', async () => {
    captureCommits()
    const v = visit()
    v.api().Initialize('')
    DONE(v.api())
    v.seq.navigate({ kind: 'continue' })
    expect(await v.view()).toMatchObject({ unloading: true, current: null, continue: { enabled: false } })
    // The frame is removed: the content terminates in its unload handler.
    v.api().Terminate('')
    expect(await v.view()).toMatchObject({ unloading: false, current: 'etiquette' })
    v.seq.contentUnloaded()
    expect((await v.view()).current).toBe('etiquette')

    // Back to Playing from the tree; this time the content never terminates: the viewer does it.
    v.api().Initialize('')
    v.seq.navigate({ kind: 'choice', target: 'playing' })
    expect((await v.view()).unloading).toBe(true)
    v.seq.contentUnloaded()
    expect(await v.view()).toMatchObject({ unloading: false, current: 'playing', delivery: 3 })
    // A SCO that never initialized is left at once.
    v.seq.navigate({ kind: 'continue' })
    expect((await v.view()).current).toBe('etiquette')
  })

  it('suspends an open SCO when the page is left, and the next visit resumes it with the lesson still unlocked', async () => {
    const c = captureCommits()
    const v = visit()
    v.api().Initialize('')
    DONE(v.api())
    v.api().SetValue('adl.nav.request', 'continue')
    v.api().Terminate('')
    const etiquette = v.api()
    etiquette.Initialize('')
    etiquette.SetValue('cmi.location', '1')
    etiquette.SetValue('cmi.exit', 'suspend')
    // The page goes: the viewer asks for suspend all, then the content's unload handler terminates.
    v.host.dispatchEvent(new Event('beforeunload'))
    etiquette.Terminate('')
    expect(await v.view()).toMatchObject({ current: null, idle: 'suspended' })
    await c.settle()
    const state = c.sent.filter((s) => s.body.sequencing).at(-1)!.body.sequencing!.state

    const next = visit({ state })
    expect(await next.view()).toMatchObject({ current: 'etiquette' })
    expect((await next.view()).access).toMatchObject({ playing: { kind: 'available' }, etiquette: { kind: 'open' }, handicapping: { kind: 'disabled' } })
    v.seq.destroy()
  })

  it('a suspend all keeps the SCO’s attempt (stored with an exit of suspend) when the content left cmi.exit empty', async () => {
    const c = captureCommits()
    const v = visit()
    const playing = v.api()
    playing.Initialize('')
    playing.SetValue('cmi.location', '7')
    v.host.dispatchEvent(new Event('beforeunload'))
    playing.Terminate('')
    await c.settle()
    expect(c.sent.filter((s) => s.body.terminated).at(-1)!.body).toMatchObject({ itemId: 'playing', runtimeData: { cmi: { location: '7', exit: 'suspend' } } })
    v.seq.destroy()
  })

  it('reports the root rollup once when the course is done, and sends changed engine state with ordinary commits only', async () => {
    vi.useFakeTimers()
    const c = captureCommits()
    const single: ScormItem[] = [item('only', href('only'), [], { sequencing: own('only') })]
    const v = visit({ items: single, startItem: 'only' })
    const api = v.api()
    api.Initialize('')
    api.SetValue('cmi.location', 'p1')
    await vi.advanceTimersByTimeAsync(6_000)
    // The first commit carries the state (the visit's start changed it), the next only when it changed again.
    expect(c.sent.at(-1)!.body).toMatchObject({ itemId: 'only', terminated: false, sequencing: { root: { completionStatus: 'unknown' } } })
    api.SetValue('cmi.location', 'p2')
    await vi.advanceTimersByTimeAsync(6_000)
    expect(c.sent.at(-1)!.body).toMatchObject({ itemId: 'only', terminated: false })
    expect(c.sent.at(-1)!.body.sequencing).toBeUndefined()
    DONE(api)
    expect(v.rootDone()).toBe(1)
    await vi.advanceTimersByTimeAsync(6_000)
    expect(c.sent.at(-1)!.body.sequencing?.root).toEqual({ completionStatus: 'completed', successStatus: 'passed' })
    api.SetValue('cmi.score.raw', '90')
    expect(v.rootDone()).toBe(1)
    // A single SCO shows no Previous/Continue of the viewer's.
    expect((await v.view()).continue.shown).toBe(false)
  })

  it('hides lessons hidden from choice or invisible, and the buttons the package hides', async () => {
    captureCommits()
    const hiddenUntilAttempted: ScormSequencing = {
      sequencingRules: { preConditionRules: [{ conditionCombination: 'all', conditions: [{ condition: 'attempted', operator: 'not' }], action: 'hiddenFromChoice' }] },
    }
    const v = visit({
      items: [
        item('intro', href('intro'), [], { hide_lms_ui: ['continue'] }),
        item('secret', href('secret'), [], { isvisible: false }),
        item('quiz', href('quiz'), [], { sequencing: hiddenUntilAttempted }),
      ],
      startItem: 'intro',
    })
    const view = await v.view()
    expect(view.access).toEqual({ intro: { kind: 'open' }, secret: { kind: 'hidden' }, quiz: { kind: 'hidden' } })
    expect(view.continue.shown).toBe(false)
    expect(view.previous.shown).toBe(true)
  })

  it('opens a package without flow on the SCO last used and offers every lesson by choice, with no Previous/Continue', async () => {
    captureCommits()
    const plain = [item('a', href('a')), item('b', href('b')), item('c', href('c'))]
    const v = visit({ items: plain, organization: { identifier: 'organization', declaresSequencing: false, objectivesGlobalToSystem: true }, startItem: 'b' })
    const view = await v.view()
    expect(view.current).toBe('b')
    expect(view.access).toEqual({ a: { kind: 'available' }, b: { kind: 'open' }, c: { kind: 'available' } })
    expect([view.previous.shown, view.continue.shown]).toEqual([false, false])
    // The content's continue is not allowed without flow: the SCO ends and the learner chooses.
    v.api().Initialize('')
    v.api().SetValue('adl.nav.request', 'continue')
    v.api().Terminate('')
    expect(await v.view()).toMatchObject({ current: null, idle: 'exited' })
    v.seq.navigate({ kind: 'choice', target: 'c' })
    expect((await v.view()).current).toBe('c')
  })

  it('ends on exit all; resuming starts the course again', async () => {
    captureCommits()
    const v = visit()
    v.api().Initialize('')
    v.api().SetValue('adl.nav.request', 'exitAll')
    v.api().Terminate('')
    const view = await v.view()
    expect(view).toMatchObject({ current: null, idle: 'ended' })
    expect(view.access.etiquette).toEqual({ kind: 'disabled', reason: 'Resume the lesson first.' })
    v.seq.resume()
    expect(await v.view()).toMatchObject({ current: 'playing', idle: null })
  })
})
