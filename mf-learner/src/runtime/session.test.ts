import { applyMergePatch, ScormCommit } from '@portal/contracts'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { flushOnPageHide, preloadRuntime, startScormSession as startSession, type NavRequest, type ScormSession } from './index.ts'
import { EARLY_COMMIT_CHARS, EARLY_COMMIT_MS } from './session.ts'
import { captureCommits, hostWindow, item, launchOf, type ScoApi12, type ScoApi2004 } from '../test-support/index.ts'

beforeAll(async () => {
  await preloadRuntime('1.2')
  await preloadRuntime('2004')
})

// Every session a test starts ends with it: a session left running keeps its commit timers (the
// 5 s autocommit, the early commit of large values), which on a slow machine fired into the next
// test's captured commits.
const live: ScormSession[] = []
const startScormSession = (...args: Parameters<typeof startSession>): ScormSession => {
  const session = startSession(...args)
  live.push(session)
  return session
}

afterEach(() => {
  for (const session of live.splice(0)) session.destroy()
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const golf2004Items = [
  item('golf', null, [
    item('playing_item', '/api/content/tok/shared/launchpage.html?content=playing', [], {
      data_maps: [{ targetID: 'com.scorm.golfsamples.notesStorage', readSharedData: true, writeSharedData: true }],
    }),
    item('etiquette_item', '/api/content/tok/shared/launchpage.html?content=etiquette'),
    item('assessment_item', '/api/content/tok/shared/launchpage.html?content=assessment', [], {
      completion_threshold: 0.8,
      scaled_passing_score: 0.7,
    }),
  ]),
]

function start12(over: Parameters<typeof launchOf>[0] = {}, itemId = 'playing', events = {}) {
  const host = hostWindow()
  const session = startScormSession({ launch: launchOf(over), itemId, host, events, logLevel: 5 })
  return { host, session, api: host.API }
}

function start2004(over: Parameters<typeof launchOf>[0] = {}, itemId = 'playing_item', events = {}) {
  const host = hostWindow()
  const launch = launchOf({ version: '2004', edition: '2004 4th Edition', items: golf2004Items, startItem: itemId, ...over })
  const session = startScormSession({ launch, itemId, host, events, logLevel: 5 })
  return { host, session, api: host.API_1484_11 }
}

describe('SCORM 1.2 session', () => {
  it('installs window.API synchronously and loads the stored state before LMSInitialize (entry resume)', async () => {
    const c = captureCommits()
    const { api, session } = start12({
      items: [item('playing', '/p.html', [], { launch_data: 'chapter=2', mastery_score: 80, max_time_allowed: '00:30:00', time_limit_action: 'exit,message' })],
      state: {
        playing: {
          cmi: {
            cmi: {
              suspend_data: 'page=4',
              core: {
                lesson_location: 'p4',
                lesson_status: 'incomplete',
                total_time: '0001:00:00',
                session_time: '00:10:00',
                exit: 'suspend',
                entry: 'ab-initio',
                score: { raw: '55', min: '0', max: '100' },
              },
            },
          },
          entry: 'resume',
          updated_at: '2026-01-01T00:00:00.000Z',
        },
      },
    })
    expect(typeof api.LMSInitialize).toBe('function')
    expect(session.initialized).toBe(false)
    expect(api.LMSInitialize('')).toBe('true')
    expect(session.initialized).toBe(true)
    expect(api.LMSGetValue('cmi.core.entry')).toBe('resume')
    expect(api.LMSGetValue('cmi.core.lesson_location')).toBe('p4')
    expect(api.LMSGetValue('cmi.core.lesson_status')).toBe('incomplete')
    expect(api.LMSGetValue('cmi.suspend_data')).toBe('page=4')
    expect(api.LMSGetValue('cmi.core.total_time')).toBe('0001:00:00')
    expect(api.LMSGetValue('cmi.core.student_id')).toBe('u-42')
    expect(api.LMSGetValue('cmi.core.student_name')).toBe('Doe, Jane')
    expect(api.LMSGetValue('cmi.core.credit')).toBe('credit')
    expect(api.LMSGetValue('cmi.core.lesson_mode')).toBe('normal')
    expect(api.LMSGetValue('cmi.launch_data')).toBe('chapter=2')
    expect(api.LMSGetValue('cmi.student_data.mastery_score')).toBe('80')
    expect(api.LMSGetValue('cmi.student_data.max_time_allowed')).toBe('0000:30:00')
    expect(api.LMSGetValue('cmi.student_data.time_limit_action')).toBe('exit,message')
    expect(session.status()).toMatchObject({ lessonStatus: 'incomplete', scoreRaw: 55 })
    session.flush()
    await c.settle()
    // the previous session's time and exit do not carry over
    expect(c.sent[0].body.runtimeData).toMatchObject({ cmi: { core: { session_time: '00:00:00', exit: '', total_time: '01:00:00' } } })
  })

  it('starts ab-initio when nothing is stored, with an empty entry after a normal exit', () => {
    captureCommits()
    const { api } = start12()
    api.LMSInitialize('')
    expect(api.LMSGetValue('cmi.core.entry')).toBe('ab-initio')
    expect(api.LMSGetValue('cmi.core.lesson_status')).toBe('not attempted')
    const after = start12({ state: { playing: { cmi: { cmi: { core: { lesson_status: 'completed' } } }, entry: '', updated_at: '' } } }).api
    after.LMSInitialize('')
    expect(after.LMSGetValue('cmi.core.entry')).toBe('')
    expect(after.LMSGetValue('cmi.core.lesson_status')).toBe('completed')
    const v2004 = start2004({ state: { playing_item: { cmi: { cmi: { completion_status: 'completed' } }, entry: '', updated_at: '' } } }).api
    v2004.Initialize('')
    expect(v2004.GetValue('cmi.entry')).toBe('')
    const fresh2004 = start2004().api
    fresh2004.Initialize('')
    expect(fresh2004.GetValue('cmi.entry')).toBe('ab-initio')
  })

  it('accumulates total_time across sessions without counting a session twice', async () => {
    const c = captureCommits()
    const first = start12({ state: { playing: { cmi: { cmi: { core: { total_time: '01:00:00' } } }, entry: 'resume', updated_at: '' } } })
    first.api.LMSInitialize('')
    first.api.LMSSetValue('cmi.core.session_time', '00:05:00')
    first.api.LMSSetValue('cmi.core.exit', 'suspend')
    first.api.LMSFinish('')
    await c.settle()
    const final = c.sent.at(-1)!.body
    expect(final.totalTimeSeconds).toBe(3900)
    expect(final.runtimeData).toMatchObject({ cmi: { core: { total_time: '01:05:00', session_time: '00:05:00' } } })

    // the server stores that runtimeData; the next session resumes from it
    const second = start12({ state: { playing: { cmi: final.runtimeData, entry: 'resume', updated_at: '' } } })
    second.api.LMSInitialize('')
    expect(second.api.LMSGetValue('cmi.core.total_time')).toBe('0001:05:00')
    second.api.LMSSetValue('cmi.core.session_time', '00:01:00')
    second.api.LMSFinish('')
    await c.settle()
    expect(c.sent.at(-1)!.body.totalTimeSeconds).toBe(3960)
  })

  it('resumes objectives, interactions, comments and preferences from a stored 1.2 commit', async () => {
    const c = captureCommits()
    const first = start12()
    first.api.LMSInitialize('')
    for (const [el, v] of [
      ['cmi.objectives.0.id', 'obj1'],
      ['cmi.objectives.0.status', 'passed'],
      ['cmi.objectives.0.score.raw', '75'],
      ['cmi.interactions.0.id', 'q1'],
      ['cmi.interactions.0.type', 'choice'],
      ['cmi.interactions.0.student_response', 'a'],
      ['cmi.interactions.0.result', 'correct'],
      ['cmi.interactions.0.objectives.0.id', 'obj1'],
      ['cmi.interactions.0.correct_responses.0.pattern', 'a'],
      ['cmi.comments', 'good'],
      ['cmi.student_preference.language', 'en'],
      ['cmi.student_preference.speed', '10'],
      ['cmi.core.score.raw', '75'],
      ['cmi.core.exit', 'suspend'],
    ])
      expect(first.api.LMSSetValue(el, v), el).toBe('true')
    first.api.LMSFinish('')
    await c.settle()
    const second = start12({ state: { playing: { cmi: c.sent.at(-1)!.body.runtimeData, entry: 'resume', updated_at: '' } } })
    second.api.LMSInitialize('')
    expect(second.api.LMSGetValue('cmi.objectives._count')).toBe('1')
    expect(second.api.LMSGetValue('cmi.objectives.0.status')).toBe('passed')
    expect(second.api.LMSGetValue('cmi.objectives.0.score.raw')).toBe('75')
    expect(second.api.LMSGetValue('cmi.interactions._count')).toBe('1')
    expect(second.api.LMSGetValue('cmi.interactions.0.objectives._count')).toBe('1')
    expect(second.api.LMSGetValue('cmi.comments')).toBe('good')
    expect(second.api.LMSGetValue('cmi.student_preference.language')).toBe('en')
    expect(second.api.LMSGetValue('cmi.student_preference.speed')).toBe('10')
    expect(second.api.LMSGetValue('cmi.core.score.raw')).toBe('75')
    expect(second.api.LMSGetLastError()).toBe('0')
  })

  it('accepts suspend_data of 64,000 characters and rejects 64,001 (405)', () => {
    captureCommits()
    const { api } = start12()
    api.LMSInitialize('')
    expect(api.LMSSetValue('cmi.suspend_data', 'x'.repeat(64_000))).toBe('true')
    expect(api.LMSGetValue('cmi.suspend_data')).toHaveLength(64_000)
    expect(api.LMSSetValue('cmi.suspend_data', 'x'.repeat(64_001))).toBe('false')
    expect(api.LMSGetLastError()).toBe('405')
  })

  it('answers the spec error codes through the wrapper', () => {
    captureCommits()
    const { api } = start12()
    expect(api.LMSSetValue('cmi.core.lesson_location', 'a')).toBe('false')
    expect(api.LMSGetLastError()).toBe('301')
    api.LMSInitialize('')
    expect(api.LMSSetValue('cmi.core.student_id', 'x')).toBe('false')
    expect(api.LMSGetLastError()).toBe('403')
    expect(api.LMSGetErrorString('403')).toBe('Element is read only')
    expect(api.LMSGetValue('cmi.core.exit')).toBe('')
    expect(api.LMSGetLastError()).toBe('404')
    expect(api.LMSSetValue('cmi.core.lesson_status', 'bogus')).toBe('false')
    expect(api.LMSGetLastError()).toBe('405')
    expect(api.LMSGetValue('cmi.core._count')).toBe('')
    expect(api.LMSGetLastError()).toBe('203')
    // a successful call clears the last error
    expect(api.LMSSetValue('cmi.core.lesson_status', 'incomplete')).toBe('true')
    expect(api.LMSGetLastError()).toBe('0')
    expect(api.LMSInitialize('')).toBe('false')
    expect(api.LMSGetLastError()).toBe('101')
  })

  it('autocommits 5 seconds after a change with a ScormCommit JSON body', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const c = captureCommits()
    const { api } = start12({}, 'playing')
    api.LMSInitialize('')
    api.LMSSetValue('cmi.core.lesson_location', 'page-2')
    api.LMSSetValue('cmi.core.score.raw', '40')
    await vi.advanceTimersByTimeAsync(4_900)
    expect(c.fetchStub).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(200)
    expect(c.fetchStub).toHaveBeenCalledTimes(1)
    const [commit] = c.sent
    expect(commit.via).toBe('fetch')
    expect(commit.url).toBe('/api/scorm/commit/tok')
    expect(commit.contentType).toBe('application/json')
    expect(commit.body).toMatchObject({
      itemId: 'playing',
      seq: 1,
      terminated: false,
      completionStatus: 'incomplete',
      successStatus: 'unknown',
      score: { raw: 40, max: 100 },
      runtimeData: { cmi: { core: { lesson_location: 'page-2' } } },
    })
    expect(Object.getPrototypeOf(commit.body.runtimeData)).toBe(Object.prototype)
    expect(Object.keys(commit.body).sort()).toEqual(Object.keys(ScormCommit.parse(commit.body)).sort())
  })

  it('sends the LMSFinish commit by text/plain beacon with terminated true, after the autocommits', async () => {
    const c = captureCommits()
    const finished: { navRequest: NavRequest | null; status: unknown }[] = []
    const { api, session } = start12({}, 'playing', { onFinish: (e: (typeof finished)[number]) => finished.push(e) })
    api.LMSInitialize('')
    api.LMSSetValue('cmi.core.lesson_status', 'passed')
    api.LMSSetValue('cmi.core.score.raw', '90')
    expect(api.LMSCommit('')).toBe('true')
    expect(api.LMSFinish('')).toBe('true')
    await c.settle()
    expect(c.sent.map((s) => [s.via, s.body.seq, s.body.terminated])).toEqual([
      ['fetch', 1, false],
      ['beacon', 2, true],
    ])
    expect(c.sent[1].contentType).toBe('text/plain;charset=utf-8')
    expect(c.sent[1].body).toMatchObject({ completionStatus: 'completed', successStatus: 'passed', score: { raw: 90 } })
    expect(session.finished).toBe(true)
    expect(finished).toEqual([{ navRequest: null, status: expect.objectContaining({ lessonStatus: 'passed', scoreRaw: 90 }) }])
  })

  it('treats a second LMSFinish (onunload after onbeforeunload) as a harmless error', async () => {
    const c = captureCommits()
    const onFinish = vi.fn()
    const { api } = start12({}, 'playing', { onFinish })
    api.LMSInitialize('')
    expect(api.LMSFinish('')).toBe('true')
    expect(api.LMSFinish('')).toBe('false')
    expect(api.LMSGetLastError()).toBe('101')
    await c.settle()
    expect(onFinish).toHaveBeenCalledTimes(1)
    expect(c.sent.filter((s) => s.body.terminated)).toHaveLength(1)
  })

  it('completes content that only calls LMSInitialize and LMSFinish', async () => {
    const c = captureCommits()
    const onFinish = vi.fn()
    const { api } = start12({}, 'playing', { onFinish })
    api.LMSInitialize('')
    api.LMSFinish('')
    await c.settle()
    expect(c.sent[0].body).toMatchObject({ terminated: true, completionStatus: 'completed', runtimeData: { cmi: { core: { lesson_status: 'completed' } } } })
    expect(onFinish.mock.calls[0][0].status.lessonStatus).toBe('completed')
  })

  it('keeps a status the content set itself on finish', async () => {
    const c = captureCommits()
    const { api } = start12()
    api.LMSInitialize('')
    api.LMSSetValue('cmi.core.lesson_status', 'incomplete')
    api.LMSFinish('')
    await c.settle()
    expect(c.sent.at(-1)!.body.completionStatus).toBe('incomplete')
  })

  it('reports the navigation event (nav.event or cmi.nav.event) and cmi.core.exit as the navigation request', () => {
    captureCommits()
    const requests: (NavRequest | null)[] = []
    const onFinish = (e: { navRequest: NavRequest | null }) => requests.push(e.navRequest)
    const a = start12({}, 'playing', { onFinish }).api
    a.LMSInitialize('')
    expect(a.LMSSetValue('cmi.nav.event', 'continue')).toBe('true')
    expect(a.LMSSetValue('cmi.nav.event', 'sideways')).toBe('false')
    expect(a.LMSGetLastError()).toBe('405')
    a.LMSFinish('')
    const b = start12({}, 'etiquette', { onFinish }).api
    b.LMSInitialize('')
    expect(b.LMSSetValue('nav.event', 'previous')).toBe('true')
    b.LMSFinish('')
    const s = start12({}, 'playing', { onFinish }).api
    s.LMSInitialize('')
    s.LMSSetValue('cmi.core.exit', 'suspend')
    s.LMSFinish('')
    const l = start12({}, 'playing', { onFinish }).api
    l.LMSInitialize('')
    l.LMSSetValue('cmi.core.exit', 'logout')
    l.LMSFinish('')
    expect(requests).toEqual([{ kind: 'continue' }, { kind: 'previous' }, { kind: 'suspendAll' }, { kind: 'exitAll' }])
  })

  it('calls the events: initialize, change with the status, activity on every call', () => {
    captureCommits()
    const onInitialize = vi.fn()
    const onChange = vi.fn()
    const onActivity = vi.fn()
    const { api } = start12({}, 'playing', { onInitialize, onChange, onActivity })
    api.LMSInitialize('')
    api.LMSSetValue('cmi.core.lesson_status', 'completed')
    api.LMSSetValue('cmi.core.lesson_status', 'bogus')
    api.LMSGetValue('cmi.core.lesson_status')
    api.LMSGetLastError()
    expect(onInitialize).toHaveBeenCalledTimes(1)
    expect(onChange).toHaveBeenCalledTimes(1)
    expect(onChange).toHaveBeenCalledWith('cmi.core.lesson_status', 'completed', expect.objectContaining({ lessonStatus: 'completed' }))
    expect(onActivity).toHaveBeenCalledTimes(5)
  })

  it('passes the server answer of a fetch commit to onCommitted', async () => {
    const c = captureCommits({ answer: () => Response.json({ result: true, errorCode: 0, applied: true, moduleCompleted: true }) })
    const onCommitted = vi.fn()
    const { api } = start12({}, 'playing', { onCommitted })
    api.LMSInitialize('')
    api.LMSSetValue('cmi.core.lesson_status', 'completed')
    api.LMSCommit('')
    api.LMSFinish('')
    await c.settle()
    expect(c.sent.map((s) => s.via)).toEqual(['fetch', 'beacon'])
    expect(onCommitted.mock.calls).toEqual([[{ result: true, errorCode: 0, applied: true, moduleCompleted: true }]])
  })

  it('sends an autocommit again without keepalive when the browser refuses the keepalive request', async () => {
    const c = captureCommits()
    const refusingKeepalive = vi.fn(async (url: string, init: RequestInit) => {
      if (init.keepalive) throw new TypeError('Failed to fetch')
      return c.fetchStub(url, init)
    })
    vi.stubGlobal('fetch', refusingKeepalive)
    const onCommitError = vi.fn()
    const { api } = start12({}, 'playing', { onCommitError })
    api.LMSInitialize('')
    api.LMSSetValue('cmi.core.lesson_location', 'x')
    api.LMSCommit('')
    await c.settle()
    expect(refusingKeepalive).toHaveBeenCalledTimes(2)
    expect(c.sent).toMatchObject([{ via: 'fetch', body: { terminated: false } }])
    expect(onCommitError).not.toHaveBeenCalled()
  })

  it('after LMSFinish, LMSGetValue, LMSSetValue and LMSCommit fail with 101 and nothing more is sent', async () => {
    const c = captureCommits()
    const { api } = start12()
    api.LMSInitialize('')
    api.LMSSetValue('cmi.core.lesson_location', 'before')
    expect(api.LMSFinish('')).toBe('true')
    await c.settle()
    const sent = c.sent.length
    expect(api.LMSSetValue('cmi.core.lesson_location', 'after')).toBe('false')
    expect(api.LMSGetLastError()).toBe('101')
    expect(api.LMSGetValue('cmi.core.lesson_location')).toBe('')
    expect(api.LMSGetLastError()).toBe('101')
    expect(api.LMSCommit('')).toBe('false')
    expect(api.LMSGetLastError()).toBe('101')
    await c.settle()
    expect(c.sent).toHaveLength(sent)
    expect(c.sent.map((s) => JSON.stringify(s.body)).join()).not.toContain('after')
  })

  it('an asset counts as done once launched: the session reports it completed (1.2 and 2004)', async () => {
    const c = captureCommits()
    start12({}, 'playing').session.assetLaunched()
    start2004({}, 'etiquette_item').session.assetLaunched()
    await c.settle()
    expect(c.sent.map((s) => [s.body.itemId, s.body.runtimeData])).toMatchObject([
      ['playing', { cmi: { core: { lesson_status: 'completed' } } }],
      ['etiquette_item', { cmi: { completion_status: 'completed' } }],
    ])
  })

  it('sends the launch’s revision with every commit', async () => {
    const c = captureCommits()
    const { api } = start12({ revision: 12 })
    api.LMSInitialize('')
    api.LMSSetValue('cmi.core.lesson_location', 'x')
    api.LMSCommit('')
    api.LMSFinish('')
    await c.settle()
    expect(c.sent.map((s) => s.body.revision)).toEqual([12, 12])
  })

  it('reports a refused commit as "Failed to save progress"', async () => {
    const c = captureCommits({ answer: () => Response.json({ result: false, errorCode: 101 }, { status: 409 }) })
    const onCommitError = vi.fn()
    const { api } = start12({}, 'playing', { onCommitError })
    api.LMSInitialize('')
    api.LMSSetValue('cmi.core.lesson_location', 'x')
    api.LMSCommit('')
    await c.settle()
    expect(onCommitError).toHaveBeenCalledWith('Failed to save progress')
  })
})

describe('flush at page dismissal', () => {
  it('sends one terminated beacon, again only after a change, and nothing after finish', async () => {
    const c = captureCommits()
    const { api, session } = start12()
    session.flush()
    expect(c.beaconStub).not.toHaveBeenCalled()
    api.LMSInitialize('')
    session.flush()
    session.flush()
    expect(c.beaconStub).toHaveBeenCalledTimes(1)
    api.LMSSetValue('cmi.core.lesson_location', 'p9')
    session.flush()
    session.flush()
    expect(c.beaconStub).toHaveBeenCalledTimes(2)
    api.LMSFinish('')
    session.flush()
    await c.settle()
    expect(c.sent.map((s) => [s.via, s.body.terminated, s.body.seq])).toEqual([
      ['beacon', true, 1],
      ['beacon', true, 2],
      ['beacon', true, 3],
    ])
    expect(c.sent[1].body.runtimeData).toMatchObject({ cmi: { core: { lesson_location: 'p9' } } })
  })

  it('still sends the terminated commit when an autocommit already carried every change', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const c = captureCommits()
    const { api, session } = start12()
    api.LMSInitialize('')
    api.LMSSetValue('cmi.core.lesson_location', 'p3')
    await vi.advanceTimersByTimeAsync(5_100)
    vi.useRealTimers()
    session.flush()
    session.flush()
    await c.settle()
    expect(c.sent.map((s) => [s.via, s.body.terminated])).toEqual([
      ['fetch', false],
      ['beacon', true],
    ])
  })

  it('falls back to fetch when the browser refuses the beacon', async () => {
    const c = captureCommits({ beacon: false })
    const { api, session } = start12()
    api.LMSInitialize('')
    session.flush()
    await c.settle()
    expect(c.sent).toMatchObject([{ via: 'fetch', contentType: 'text/plain;charset=UTF-8', keepalive: true, body: { terminated: true } }])
  })

  it('destroy flushes and removes window.API; a late Finish still saves but tells the viewer nothing', async () => {
    const c = captureCommits()
    const onFinish = vi.fn()
    const { api, host, session } = start12({}, 'playing', { onFinish })
    api.LMSInitialize('')
    api.LMSSetValue('cmi.core.lesson_location', 'p2')
    session.destroy()
    expect(host.API).toBeUndefined()
    expect(api.LMSFinish('')).toBe('true')
    await c.settle()
    expect(onFinish).not.toHaveBeenCalled()
    expect(c.sent.map((s) => s.body.terminated)).toEqual([true, true])
  })

  it('flushOnPageHide flushes the current session on pagehide and when the page gets hidden', () => {
    const target = new EventTarget()
    const doc = { visibilityState: 'visible' }
    const win = Object.assign(target, { document: doc }) as unknown as Window
    const flush = vi.fn()
    const session = { flush } as unknown as ScormSession
    const off = flushOnPageHide(win, () => session)
    win.dispatchEvent(new Event('visibilitychange'))
    expect(flush).not.toHaveBeenCalled()
    doc.visibilityState = 'hidden'
    win.dispatchEvent(new Event('visibilitychange'))
    win.dispatchEvent(new Event('pagehide'))
    expect(flush).toHaveBeenCalledTimes(2)
    off()
    win.dispatchEvent(new Event('pagehide'))
    expect(flush).toHaveBeenCalledTimes(2)
  })
})

describe('SCORM 2004 session', () => {
  it('installs window.API_1484_11 with the stored state, learner and item values before Initialize', () => {
    captureCommits()
    const { api } = start2004(
      {
        state: {
          assessment_item: {
            cmi: { cmi: { location: 'q3', suspend_data: 'sd', completion_status: 'incomplete', total_time: 'PT1H', session_time: 'PT10M', exit: 'suspend' } },
            entry: 'resume',
            updated_at: '',
          },
        },
      },
      'assessment_item',
    )
    expect(api.SetValue('cmi.location', 'x')).toBe('false')
    expect(api.GetLastError()).toBe('132')
    expect(api.Initialize('')).toBe('true')
    expect(api.GetValue('cmi.entry')).toBe('resume')
    expect(api.GetValue('cmi.location')).toBe('q3')
    expect(api.GetValue('cmi.suspend_data')).toBe('sd')
    expect(api.GetValue('cmi.total_time')).toBe('PT1H')
    expect(api.GetValue('cmi.learner_id')).toBe('u-42')
    expect(api.GetValue('cmi.learner_name')).toBe('Doe, Jane')
    expect(api.GetValue('cmi.completion_threshold')).toBe('0.8')
    expect(api.GetValue('cmi.scaled_passing_score')).toBe('0.7')
    expect(api.GetValue('cmi.mode')).toBe('normal')
  })

  it('accepts suspend_data of 64,000 characters and rejects 64,001 (406)', () => {
    captureCommits()
    const { api } = start2004()
    api.Initialize('')
    expect(api.SetValue('cmi.suspend_data', 'y'.repeat(64_000))).toBe('true')
    expect(api.SetValue('cmi.suspend_data', 'y'.repeat(64_001))).toBe('false')
    expect(api.GetLastError()).toBe('406')
  })

  it('answers 408 for an interaction value before its id', () => {
    captureCommits()
    const { api } = start2004()
    api.Initialize('')
    expect(api.SetValue('cmi.interactions.0.type', 'choice')).toBe('false')
    expect(api.GetLastError()).toBe('408')
    expect(api.SetValue('cmi.interactions.0.id', 'q1')).toBe('true')
    expect(api.SetValue('cmi.interactions.0.type', 'choice')).toBe('true')
  })

  it('treats a second Terminate as error 113 without a second finish', async () => {
    const c = captureCommits()
    const onFinish = vi.fn()
    const { api } = start2004({}, 'playing_item', { onFinish })
    api.Initialize('')
    expect(api.Terminate('')).toBe('true')
    expect(api.Terminate('')).toBe('false')
    expect(api.GetLastError()).toBe('113')
    await c.settle()
    expect(onFinish).toHaveBeenCalledTimes(1)
    expect(c.sent.filter((s) => s.body.terminated)).toHaveLength(1)
  })

  it('answers adl.nav.request_valid from the item list', () => {
    captureCommits()
    const first = start2004({}, 'playing_item').api
    first.Initialize('')
    expect(first.GetValue('adl.nav.request_valid.continue')).toBe('true')
    expect(first.GetValue('adl.nav.request_valid.previous')).toBe('false')
    expect(first.GetValue('adl.nav.request_valid.choice.{target=assessment_item}')).toBe('true')
    expect(first.GetValue('adl.nav.request_valid.choice.{target=golf}')).toBe('false')
    expect(first.GetValue('adl.nav.request_valid.jump.{target=etiquette_item}')).toBe('true')
    const last = start2004({}, 'assessment_item').api
    last.Initialize('')
    expect(last.GetValue('adl.nav.request_valid.continue')).toBe('false')
    expect(last.GetValue('adl.nav.request_valid.previous')).toBe('true')
  })

  it('reports adl.nav.request continue, choice and jump through onFinish', async () => {
    const c = captureCommits()
    const requests: (NavRequest | null)[] = []
    const onFinish = (e: { navRequest: NavRequest | null }) => requests.push(e.navRequest)
    for (const [itemId, request] of [
      ['playing_item', 'continue'],
      ['etiquette_item', '{target=assessment_item}choice'],
      ['assessment_item', '{target=playing_item}jump'],
      ['etiquette_item', 'suspendAll'],
      ['etiquette_item', null],
    ] as const) {
      const { api } = start2004({}, itemId, { onFinish })
      api.Initialize('')
      if (request) expect(api.SetValue('adl.nav.request', request)).toBe('true')
      expect(api.Terminate('')).toBe('true')
    }
    await c.settle()
    expect(requests).toEqual([{ kind: 'continue' }, { kind: 'choice', target: 'assessment_item' }, { kind: 'jump', target: 'playing_item' }, { kind: 'suspendAll' }, null])
  })

  it('applies completion threshold and passing score at Terminate and reports the status', async () => {
    const c = captureCommits()
    const onFinish = vi.fn()
    const { api } = start2004({}, 'assessment_item', { onFinish })
    api.Initialize('')
    api.SetValue('cmi.progress_measure', '0.9')
    api.SetValue('cmi.score.scaled', '0.5')
    api.SetValue('cmi.session_time', 'PT2M')
    api.Terminate('')
    await c.settle()
    expect(onFinish.mock.calls[0][0].status).toEqual({
      lessonStatus: null,
      completionStatus: 'completed',
      successStatus: 'failed',
      scoreRaw: null,
      scoreScaled: 0.5,
      progressMeasure: 0.9,
    })
    expect(c.sent.at(-1)!.body).toMatchObject({
      itemId: 'assessment_item',
      terminated: true,
      completionStatus: 'completed',
      successStatus: 'failed',
      totalTimeSeconds: 120,
      score: { scaled: 0.5 },
    })
  })

  it('round-trips adl.data: preloaded from sharedData, changes sent as adlData', async () => {
    const c = captureCommits()
    const id = 'com.scorm.golfsamples.notesStorage'
    const { api } = start2004({ sharedData: { [id]: 'old notes' } }, 'playing_item')
    api.Initialize('')
    expect(api.GetValue('adl.data._count')).toBe('1')
    expect(api.GetValue('adl.data.0.id')).toBe(id)
    expect(api.GetValue('adl.data.0.store')).toBe('old notes')
    api.Commit('')
    expect(api.SetValue('adl.data.0.store', 'new notes')).toBe('true')
    api.Terminate('')
    await c.settle()
    expect(c.sent[0].body.adlData).toBeUndefined()
    expect(c.sent[1].body.adlData).toEqual([{ id, store: 'new notes' }])

    // the next SCO sees the store the previous one wrote (the server returns it in sharedData)
    const next = start2004({ sharedData: { [id]: 'new notes' } }, 'playing_item').api
    next.Initialize('')
    expect(next.GetValue('adl.data.0.store')).toBe('new notes')
  })

  it('starts a later session of the same launch from what earlier ones sent: the same SCO again in one visit, adl.data in another SCO', async () => {
    const c = captureCommits()
    const id = 'com.scorm.golfsamples.notesStorage'
    const launch = launchOf({ version: '2004', edition: '2004 4th Edition', items: golf2004Items, startItem: 'playing_item', sharedData: { [id]: 'old notes' } })
    const open = (itemId: string) => {
      const host = hostWindow()
      return { session: startScormSession({ launch, itemId, host, logLevel: 5 }), api: host.API_1484_11 }
    }
    const first = open('playing_item')
    first.api.Initialize('')
    first.api.SetValue('cmi.location', '3')
    first.api.SetValue('adl.data.0.store', 'new notes')
    first.api.SetValue('cmi.exit', 'suspend')
    first.api.Terminate('')
    await c.settle()
    first.session.destroy()

    const other = open('etiquette_item')
    other.api.Initialize('')
    expect(other.api.GetValue('cmi.entry')).toBe('ab-initio')
    other.api.Terminate('')
    await c.settle()
    other.session.destroy()

    const again = open('playing_item')
    again.api.Initialize('')
    expect(again.api.GetValue('cmi.entry')).toBe('resume')
    expect(again.api.GetValue('cmi.location')).toBe('3')
    expect(again.api.GetValue('adl.data.0.store')).toBe('new notes')
    again.api.SetValue('cmi.location', '4')
    again.api.Terminate('')
    await c.settle()
    // each session sends the stores it changed itself, so an unchanged store is not sent again
    expect(c.sent.filter((s) => s.body.adlData).map((s) => s.body.adlData)).toEqual([[{ id, store: 'new notes' }]])
    expect(c.sent.at(-1)!.body).toMatchObject({ itemId: 'playing_item', runtimeData: { cmi: { location: '4' } } })
  })

  it('starts a new attempt of a SCO that ended with a normal exit when it is opened again in the same visit (RTE 4.2.9)', async () => {
    const c = captureCommits()
    const launch = launchOf({ version: '2004', edition: '2004 4th Edition', items: golf2004Items, startItem: 'playing_item' })
    const open = () => {
      const host = hostWindow()
      return { session: startScormSession({ launch, itemId: 'playing_item', host, logLevel: 5 }), api: host.API_1484_11 }
    }
    const first = open()
    first.api.Initialize('')
    first.api.SetValue('cmi.location', '3')
    first.api.SetValue('cmi.suspend_data', 'old')
    first.api.SetValue('cmi.exit', 'normal')
    first.api.Terminate('')
    await c.settle()
    first.session.destroy()
    const again = open()
    again.api.Initialize('')
    expect([again.api.GetValue('cmi.entry'), again.api.GetValue('cmi.location'), again.api.GetValue('cmi.suspend_data')]).toEqual(['ab-initio', '', ''])
  })

  it('resumes interactions and objectives from a stored 2004 commit', async () => {
    const c = captureCommits()
    const first = start2004({}, 'assessment_item').api
    first.Initialize('')
    first.SetValue('cmi.interactions.0.id', 'q1')
    first.SetValue('cmi.interactions.0.type', 'choice')
    first.SetValue('cmi.interactions.0.learner_response', 'a')
    first.SetValue('cmi.interactions.0.result', 'correct')
    first.SetValue('cmi.objectives.0.id', 'obj1')
    first.SetValue('cmi.objectives.0.success_status', 'passed')
    first.SetValue('cmi.exit', 'suspend')
    first.Terminate('')
    await c.settle()
    const runtimeData = c.sent.at(-1)!.body.runtimeData
    const again = start2004({ state: { assessment_item: { cmi: runtimeData, entry: 'resume', updated_at: '' } } }, 'assessment_item').api
    again.Initialize('')
    expect(again.GetValue('cmi.interactions._count')).toBe('1')
    expect(again.GetValue('cmi.interactions.0.learner_response')).toBe('a')
    expect(again.GetValue('cmi.objectives.0.success_status')).toBe('passed')
    expect(again.GetValue('cmi.entry')).toBe('resume')
  })
  it('starts cmi.objectives with the objectives the manifest declares, keeping stored ones and their data', async () => {
    const declared = [item('golf', null, [item('golf_item', '/api/content/tok/shared/launchpage.html', [], { objective_ids: ['PRIMARYOBJ', 'obj_playing', 'obj_etiquette'] })])]
    const fresh = start2004({ items: declared }, 'golf_item').api
    fresh.Initialize('')
    expect(fresh.GetValue('cmi.objectives._count')).toBe('3')
    expect([0, 1, 2].map((i) => fresh.GetValue(`cmi.objectives.${i}.id`))).toEqual(['PRIMARYOBJ', 'obj_playing', 'obj_etiquette'])
    // the content finds an objective by id and writes to it
    expect(fresh.SetValue('cmi.objectives.1.progress_measure', '0.5')).toBe('true')
    const c = captureCommits()
    fresh.SetValue('cmi.objectives.2.success_status', 'passed')
    fresh.SetValue('cmi.exit', 'suspend')
    fresh.Terminate('')
    await c.settle()
    const runtimeData = c.sent.at(-1)!.body.runtimeData
    const again = start2004({ items: declared, state: { golf_item: { cmi: runtimeData, entry: 'resume', updated_at: '' } } }, 'golf_item').api
    again.Initialize('')
    expect(again.GetValue('cmi.objectives._count')).toBe('3')
    expect(again.GetValue('cmi.objectives.2.id')).toBe('obj_etiquette')
    expect(again.GetValue('cmi.objectives.2.success_status')).toBe('passed')
  })
})

describe('the last commit when the page goes away (issue 28 item 10)', () => {
  /** A fake `fetchLater`: what the browser holds now, and everything it was handed. */
  function fakeFetchLater(quota = Infinity) {
    const held: { body: string; signal: AbortSignal }[] = []
    const fetchLater = vi.fn((url: string, init: RequestInit) => {
      const body = String(init.body)
      if (new TextEncoder().encode(url + body).length > quota) throw new DOMException('over the quota', 'QuotaExceededError')
      held.push({ body, signal: init.signal! })
      return { activated: false }
    })
    return {
      fetchLater,
      /** The commit the browser would send if the page went away now. */
      pending: () => held.filter((h) => !h.signal.aborted).map((h) => ScormCommit.parse(JSON.parse(h.body))),
    }
  }
  const stored = () => Response.json({ result: true, errorCode: 0, applied: true })
  const start = <V extends '1.2' | '2004'>(version: V, fetchLater: ReturnType<typeof fakeFetchLater>['fetchLater'] | null) => {
    const host = hostWindow()
    const over = version === '2004' ? { version, edition: '2004 4th Edition' as const, items: golf2004Items, startItem: 'playing_item' } : {}
    const itemId = version === '2004' ? 'playing_item' : 'playing'
    const session = startScormSession({ launch: launchOf(over), itemId, host, logLevel: 5, fetchLater })
    return { session, api: (version === '2004' ? host.API_1484_11 : host.API) as V extends '2004' ? ScoApi2004 : ScoApi12 }
  }
  const turn = () => new Promise((r) => setTimeout(r, 0))

  it('has the browser hold the final commit from Initialize on, renewed after each change, so it goes even if no script of the player runs again', async () => {
    captureCommits()
    const f = fakeFetchLater()
    const { api } = start('1.2', f.fetchLater)
    expect(f.pending()).toEqual([])
    api.LMSInitialize('')
    await turn()
    expect(f.pending()).toMatchObject([{ itemId: 'playing', terminated: true }])
    api.LMSSetValue('cmi.core.lesson_location', 'page-7')
    api.LMSSetValue('cmi.suspend_data', 'x'.repeat(3_000))
    await turn()
    // One renewal for the Sets of one task, and only the newest is held.
    expect(f.fetchLater).toHaveBeenCalledTimes(2)
    const [held] = f.pending()
    expect(held).toMatchObject({ terminated: true, runtimeData: { cmi: { core: { lesson_location: 'page-7' }, suspend_data: 'x'.repeat(3_000) } } })
    expect(f.fetchLater.mock.calls[1]![1]).toMatchObject({ method: 'POST', headers: { 'Content-Type': 'text/plain;charset=UTF-8' } })
    expect(f.fetchLater.mock.calls[1]![0]).toBe('/api/scorm/commit/tok')
  })

  it('renews it with a later seq after each commit that goes out, and withdraws it once a final commit went out', async () => {
    const c = captureCommits({ answer: stored })
    const f = fakeFetchLater()
    const { api, session } = start('2004', f.fetchLater)
    api.Initialize('')
    api.SetValue('cmi.location', 'p1')
    api.Commit('')
    await c.settle()
    const committed = c.sent[0]!.body.seq
    expect(f.pending()).toHaveLength(1)
    expect(f.pending()[0]!.seq).toBeGreaterThan(committed)
    api.SetValue('cmi.exit', 'suspend')
    session.flush()
    await c.settle()
    expect(c.sent.at(-1)).toMatchObject({ via: 'beacon', body: { terminated: true, runtimeData: { cmi: { exit: 'suspend' } } } })
    expect(f.pending()).toEqual([])
    // Changes after a dismissal flush (the tab came back) are held again; Terminate ends it for good.
    api.SetValue('cmi.location', 'p2')
    await turn()
    expect(f.pending()).toMatchObject([{ runtimeData: { cmi: { location: 'p2' } } }])
    api.Terminate('')
    await turn()
    expect(f.pending()).toEqual([])
  })

  it('holds the patch from the last stored commit when the whole tree is over the frame’s quota', async () => {
    const c = captureCommits({ answer: stored })
    const f = fakeFetchLater(8 * 1024)
    const { api } = start('2004', f.fetchLater)
    api.Initialize('')
    api.SetValue('cmi.suspend_data', 'S'.repeat(20_000))
    await turn()
    // Nothing stored yet to measure a patch against, and the tree does not fit.
    expect(f.pending()).toEqual([])
    api.Commit('')
    await c.settle()
    api.SetValue('cmi.location', 'chapter-3')
    api.SetValue('cmi.exit', 'suspend')
    await turn()
    const [held] = f.pending()
    expect(held).toMatchObject({ base: c.sent[0]!.body.seq, terminated: true, runtimeData: { cmi: { location: 'chapter-3', exit: 'suspend' } } })
    expect((held!.runtimeData.cmi as Record<string, unknown>).suspend_data).toBeUndefined()
  })

  it('sends a final commit larger than a beacon may carry as the patch from the last stored commit, which rebuilds the whole tree', async () => {
    const c = captureCommits({ answer: stored })
    const { api, session } = start('2004', null)
    api.Initialize('')
    const big = Array.from({ length: 20_000 }, (_, i) => `k${i % 97}=`)
      .join('')
      .slice(0, 64_000)
    expect(api.SetValue('cmi.suspend_data', big)).toBe('true')
    api.Commit('')
    await c.settle()
    const acked = c.sent[0]!.body
    api.SetValue('cmi.location', 'chapter-3')
    api.SetValue('cmi.exit', 'suspend')
    session.flush()
    await c.settle()
    const last = c.sent.at(-1)!
    expect(last.via).toBe('beacon')
    expect(last.body).toMatchObject({ base: acked.seq, terminated: true })
    expect(JSON.stringify(last.body).length).toBeLessThan(2_000)
    const whole = applyMergePatch(acked.runtimeData, last.body.runtimeData) as { cmi: Record<string, unknown> }
    expect(whole.cmi).toMatchObject({ suspend_data: big, location: 'chapter-3', exit: 'suspend' })
  })

  it('sends the whole tree when nothing is stored to measure a patch against (the browser then decides)', async () => {
    const c = captureCommits()
    const { api, session } = start('2004', null)
    api.Initialize('')
    api.SetValue('cmi.suspend_data', 'S'.repeat(64_000))
    session.flush()
    await c.settle()
    expect(c.sent).toMatchObject([{ via: 'fetch', keepalive: false, body: { terminated: true } }])
    expect(c.sent[0]!.body.base).toBeUndefined()
  })

  it('commits large values within half a second instead of at the 5 s autocommit', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const c = captureCommits()
    const { api } = start('1.2', null)
    api.LMSInitialize('')
    api.LMSSetValue('cmi.core.lesson_location', 'p1')
    await vi.advanceTimersByTimeAsync(1_000)
    expect(c.fetchStub).not.toHaveBeenCalled()
    api.LMSSetValue('cmi.suspend_data', 'x'.repeat(EARLY_COMMIT_CHARS))
    await vi.advanceTimersByTimeAsync(EARLY_COMMIT_MS + 10)
    expect(c.sent).toMatchObject([{ via: 'fetch', body: { terminated: false, runtimeData: { cmi: { suspend_data: 'x'.repeat(EARLY_COMMIT_CHARS) } } } }])
    // Small values after it wait for the autocommit again.
    api.LMSSetValue('cmi.core.lesson_location', 'p2')
    await vi.advanceTimersByTimeAsync(1_000)
    expect(c.sent).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(4_100)
    expect(c.sent).toHaveLength(2)
  })
})
