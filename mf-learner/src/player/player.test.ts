import type { ScormCommit, ScormOrganization } from '@portal/contracts'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { flushOnPageHide, preloadRuntime, startScormSession, startSequencedSession, type SequencingView } from '../runtime/index.ts'
import { captureCommits, hostWindow, item, launchOf } from '../test-support/index.ts'
import { Player, type ScoFrameHost } from './player.ts'
import type { PlayerEvent } from './protocol.ts'

/** The data model a commit carries (scorm-again's JSON: `cmi.core.*` in 1.2, `cmi.*` in 2004). */
const cmiOf = (body: ScormCommit) => body.runtimeData.cmi as Record<string, unknown> & { core: Record<string, unknown> }

/*
 * The content player on scorm-again's real runtime, with the SCO frame played by the test: what
 * the content calls on window.parent.API reaches the viewer as events, the viewer's commands open
 * and leave SCOs, and closing lets the SCO leave as on a page leave before the last commit.
 */

beforeAll(async () => {
  await preloadRuntime('1.2')
  await preloadRuntime('2004')
  vi.spyOn(console, 'debug').mockImplementation(() => {})
})
afterEach(() => {
  vi.unstubAllGlobals()
})

const runtime = { flushOnPageHide, startScormSession, startSequencedSession }
const tick = () => new Promise((r) => setTimeout(r, 0))

/** A SCO frame whose content runs `onUnload` when it is navigated away (as Golf does in beforeunload). */
function fakeFrame() {
  const log: string[] = []
  let onUnload: (() => void) | null = null
  const frame: ScoFrameHost & { log: string[]; content(unload: () => void): void } = {
    log,
    content(unload) {
      onUnload = unload
    },
    show(href, title) {
      onUnload = null
      log.push(`show ${href} "${title}"`)
    },
    async unload() {
      log.push('unload')
      const u = onUnload
      onUnload = null
      u?.()
    },
  }
  return frame
}

function start(launch = launchOf()) {
  const win = hostWindow()
  const frame = fakeFrame()
  const events: PlayerEvent[] = []
  const player = new Player({ win, frame, send: (e) => events.push(e), loadRuntime: async () => runtime })
  return { win, frame, events, player, launch, kinds: () => events.map((e) => e.t) }
}

/** A player with the 1.2 SCO 'playing' open and initialized; commits captured. */
async function opened() {
  const commits = captureCommits()
  const t = start()
  await t.player.handle({ t: 'init', launch: t.launch })
  await t.player.handle({ t: 'open', itemId: 'playing' })
  const api = t.win.API
  api.LMSInitialize('')
  /** As Golf does on a page leave: exit = suspend in beforeunload (never run when a frame is just removed), then LMSFinish. */
  const leavesLikeGolf = () =>
    t.frame.content(() => {
      api.LMSSetValue('cmi.core.exit', 'suspend')
      api.LMSFinish('')
    })
  return { ...t, commits, api, leavesLikeGolf }
}

describe('content player, packages without sequencing', () => {
  it('opens the SCO the viewer asks for with its API on the player’s window, and reports what the content does', async () => {
    captureCommits()
    const t = start()
    await t.player.handle({ t: 'init', launch: t.launch })
    expect(t.kinds()).toEqual(['ready'])
    await t.player.handle({ t: 'open', itemId: 'playing' })
    expect(t.frame.log).toEqual(['unload', 'show /api/content/tok/p.html "playing"'])
    const api = t.win.API
    expect(api.LMSInitialize('')).toBe('true')
    expect(api.LMSSetValue('cmi.core.lesson_location', '3')).toBe('true')
    expect(api.LMSSetValue('cmi.core.score.raw', '70')).toBe('true')
    await tick()
    // one activity per SCO, one status for a run of Sets (the latest)
    expect(t.kinds()).toEqual(['ready', 'activity', 'initialize', 'status'])
    expect(t.events.at(-1)).toMatchObject({ t: 'status', status: { lessonStatus: 'not attempted', scoreRaw: 70 } })
    api.LMSSetValue('cmi.core.exit', 'suspend')
    expect(api.LMSFinish('')).toBe('true')
    expect(t.events.at(-1)).toMatchObject({ t: 'finish', itemId: 'playing', navRequest: { kind: 'suspendAll' } })
  })

  it('lets the open SCO unload before the next one’s session starts', async () => {
    const t = await opened()
    const c = t.commits
    t.leavesLikeGolf()
    await t.player.handle({ t: 'open', itemId: 'etiquette' })
    expect(t.frame.log.slice(-2)).toEqual(['unload', 'show /api/content/tok/e.html "etiquette"'])
    expect(t.win.API).not.toBe(t.api)
    await c.settle()
    expect(c.sent.at(-1)).toMatchObject({ via: 'beacon', body: { itemId: 'playing', terminated: true } })
    expect(cmiOf(c.sent.at(-1)!.body).core.exit).toBe('suspend')
  })

  it('closes as a page leave does: the content’s unload handler runs, its last commit goes out, then it answers', async () => {
    const t = await opened()
    const c = t.commits
    t.api.LMSSetValue('cmi.core.lesson_location', '7')
    t.leavesLikeGolf()
    await t.player.handle({ t: 'close' })
    expect(t.kinds().at(-1)).toBe('closed')
    await c.settle()
    const last = c.sent.at(-1)!
    expect(last).toMatchObject({ via: 'beacon', body: { itemId: 'playing', terminated: true } })
    expect(cmiOf(last.body).core).toMatchObject({ lesson_location: '7', exit: 'suspend' })
    // closed: later commands do nothing
    await t.player.handle({ t: 'open', itemId: 'etiquette' })
    expect(t.frame.log.at(-1)).toBe('unload')
  })

  it('closes a SCO that never finishes with a final commit of its own', async () => {
    const t = await opened()
    const c = t.commits
    t.api.LMSSetValue('cmi.suspend_data', 'kept')
    await t.player.handle({ t: 'close' })
    await c.settle()
    expect(c.sent.at(-1)).toMatchObject({ via: 'beacon', body: { terminated: true, runtimeData: { cmi: { suspend_data: 'kept' } } } })
    expect(t.win.API).toBeUndefined()
  })

  it('says so when its runtime cannot be loaded', async () => {
    const win = hostWindow()
    const events: PlayerEvent[] = []
    const player = new Player({ win, frame: fakeFrame(), send: (e) => events.push(e), loadRuntime: () => Promise.reject(new Error('chunk failed')) })
    await player.handle({ t: 'init', launch: launchOf() })
    expect(events).toEqual([{ t: 'failed', message: 'Failed to initialize SCORM' }])
  })
})

describe('content player, sequenced packages', () => {
  const organization: ScormOrganization = {
    identifier: 'golf',
    declaresSequencing: true,
    objectivesGlobalToSystem: false,
    sequencing: { controlMode: { choice: true, flow: true } },
  }
  const sequenced = () =>
    launchOf({
      version: '2004',
      items: [item('playing', '/api/content/tok/p.html', [], { title: 'Playing' }), item('etiquette', '/api/content/tok/e.html', [], { title: 'Etiquette' })],
      sequencing: { organization, state: null },
    })
  const views = (events: PlayerEvent[]) => events.flatMap((e) => (e.t === 'view' ? [e.view] : [])) as SequencingView[]

  it('shows what the engine delivers and carries out the viewer’s navigation once the SCO has unloaded', async () => {
    captureCommits()
    const t = start(sequenced())
    await t.player.handle({ t: 'init', launch: t.launch })
    await tick()
    expect(t.frame.log).toEqual(['show /api/content/tok/p.html "Playing"'])
    expect(views(t.events).at(-1)).toMatchObject({ current: 'playing', delivery: 1 })
    const api = t.win.API_1484_11
    expect(api.Initialize('')).toBe('true')
    t.frame.content(() => api.Terminate(''))
    await t.player.handle({ t: 'navigate', request: { kind: 'choice', target: 'etiquette' } })
    await tick()
    await tick()
    expect(t.frame.log).toEqual(['show /api/content/tok/p.html "Playing"', 'unload', 'show /api/content/tok/e.html "Etiquette"'])
    expect(views(t.events).at(-1)).toMatchObject({ current: 'etiquette', delivery: 2, unloading: false })
  })

  it('suspends the open SCO when the viewer closes, with the engine state in the last commit', async () => {
    const c = captureCommits()
    const t = start(sequenced())
    await t.player.handle({ t: 'init', launch: t.launch })
    await tick()
    const api = t.win.API_1484_11
    api.Initialize('')
    api.SetValue('cmi.location', '2')
    t.frame.content(() => api.Terminate(''))
    await t.player.handle({ t: 'close' })
    expect(t.kinds().at(-1)).toBe('closed')
    await c.settle()
    const last = c.sent.at(-1)!
    expect(last.body).toMatchObject({ itemId: 'playing', terminated: true })
    expect(cmiOf(last.body).location).toBe('2')
    expect(last.body.sequencing?.state).toBeTruthy()
    expect(JSON.stringify(last.body.sequencing?.state)).toContain('suspend')
  })
})
