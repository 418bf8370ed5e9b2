// Test support shared by the runtime's, the player's and the course viewer's tests: manifest items, launches, runtime statuses, captured commits;
// and by the dashboard's: the API answered at the edge and the learner's assignments.
import { blankScormItem, ScormCommit, type ScormItem, type ScormLaunch } from '@portal/contracts'
import { vi } from 'vitest'
import type { RuntimeStatus } from '../runtime/index.ts'

export { answerApi, assignment, json, TODAY } from './edge.ts'

/** A manifest item for tests (a cluster when `href` is null). */
export const item = (identifier: string, href: string | null, children: ScormItem[] = [], over: Partial<ScormItem> = {}): ScormItem =>
  blankScormItem(identifier, { href, children, ...over })

/** A SCO's status as the runtime reports it: nothing known but `over`. */
export const runtimeStatus = (over: Partial<RuntimeStatus> = {}): RuntimeStatus => ({
  lessonStatus: null,
  completionStatus: null,
  successStatus: null,
  scoreRaw: null,
  scoreScaled: null,
  progressMeasure: null,
  ...over,
})

/** A launch answer as GET /scorm/{moduleId}/launch gives it. */
export const launchOf = (over: Partial<ScormLaunch> = {}): ScormLaunch => ({
  playerUrl: 'http://content.test/player/',
  url: '/api/content/tok/shared/launchpage.html?content=playing',
  moduleId: 7,
  courseId: 3,
  version: '1.2',
  edition: null,
  launchToken: `tok-${Math.random().toString(36).slice(2)}`,
  contentBase: '/api/content/tok/',
  commitUrl: '/api/scorm/commit/tok',
  expiresAt: '2030-01-01T00:00:00.000Z',
  title: 'Golf Explained',
  items: [item('playing', '/api/content/tok/p.html'), item('etiquette', '/api/content/tok/e.html')],
  startItem: 'playing',
  state: {},
  sharedData: {},
  learner: { id: 'u-42', name: 'Doe, Jane' },
  ...over,
})

export interface SentCommit {
  via: 'beacon' | 'fetch'
  url: string
  contentType: string
  keepalive?: boolean
  body: ScormCommit
}

/**
 * Stubs the browser edge (fetch and navigator.sendBeacon) and records every commit, parsed with
 * the contract schema. `answer` decides the server's reply to fetch commits.
 */
export function captureCommits(opts: { answer?: () => Response; beacon?: boolean } = {}) {
  const sent: SentCommit[] = []
  const pending: Promise<unknown>[] = []
  const fetchStub = vi.fn(async (url: string, init: RequestInit) => {
    sent.push({
      via: 'fetch',
      url,
      contentType: String((init.headers as Record<string, string>)['Content-Type']),
      keepalive: init.keepalive,
      body: ScormCommit.parse(JSON.parse(String(init.body))),
    })
    return opts.answer ? opts.answer() : Response.json({ result: true, errorCode: 0 })
  })
  const beaconStub = vi.fn((url: string, data: Blob) => {
    if (opts.beacon === false) return false
    pending.push(data.text().then((text) => sent.push({ via: 'beacon', url, contentType: data.type, body: ScormCommit.parse(JSON.parse(text)) })))
    return true
  })
  vi.stubGlobal('fetch', fetchStub)
  vi.stubGlobal('navigator', { sendBeacon: beaconStub })
  return {
    sent,
    fetchStub,
    beaconStub,
    /** Waits until every recorded beacon body has been read and pending promises settled. */
    settle: async () => {
      for (let i = 0; i < 5; i++) {
        await Promise.all(pending)
        await new Promise((r) => setTimeout(r, 0))
      }
    },
  }
}

/** What a SCO calls on the `API` object of SCORM 1.2 and AICC: every call answers a string. */
export interface ScoApi12 {
  LMSInitialize(parameter: string): string
  LMSFinish(parameter: string): string
  LMSGetValue(element: string): string
  LMSSetValue(element: string, value: string): string
  LMSCommit(parameter: string): string
  LMSGetLastError(): string
  LMSGetErrorString(code: string): string
  LMSGetDiagnostic(code: string): string
}

/** What a SCO calls on SCORM 2004's `API_1484_11` object. */
export interface ScoApi2004 {
  Initialize(parameter: string): string
  Terminate(parameter: string): string
  GetValue(element: string): string
  SetValue(element: string, value: string): string
  Commit(parameter: string): string
  GetLastError(): string
  GetErrorString(code: string): string
  GetDiagnostic(code: string): string
}

/** A host window as tests read it: the API objects are there once a session of their version started (undefined before). */
export type HostWindow = Window & { API: ScoApi12; API_1484_11: ScoApi2004 }

/** A window-like object the runtime installs its API objects on (an EventTarget: tests dispatch page events at it). */
export const hostWindow = () => new EventTarget() as unknown as HostWindow
