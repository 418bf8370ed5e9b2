import { activityTreeOf, type EngineActivity } from '@portal/contracts/scorm-sequencing'
import * as scorm2004 from 'scorm-again/scorm2004'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { parseManifest } from './manifest.ts'
import { readFixtureManifest } from './test-zips.ts'

/*
 * The real packages' sequencing, through the tree the runtime gives scorm-again's engine (its ESM
 * build runs in Node): the engine, not the portal, decides what may be opened.
 */

/** What these tests use of scorm-again's Scorm2004API (its bundled declarations do not resolve under NodeNext). */
interface Engine {
  lmsInitialize(p?: string): string
  lmsFinish(p?: string): string
  lmsSetValue(el: string, v: string): string
  lmsGetValue(el: string): string
  reset(): void
  processNavigationRequest(request: string, target?: string): boolean
  serializeSequencingState(): string
  deserializeSequencingState(state: string): boolean
  getActivityTrackingData(id: string): { completionStatus: string; successStatus: string } | null
}
type EngineClass = new (settings: Record<string, unknown>) => Engine
const Scorm2004API = (scorm2004 as unknown as { Scorm2004API: EngineClass }).Scorm2004API

async function treeOf(zip: string): Promise<EngineActivity> {
  const info = parseManifest(await readFixtureManifest(zip))
  return activityTreeOf({ organization: info.organization!, title: info.title, items: info.items })
}

/** An engine for `tree` that records the activities it delivers. */
function engine(tree: EngineActivity) {
  const delivered: string[] = []
  const api = new Scorm2004API({
    logLevel: 5,
    sequencing: { activityTree: tree, logLevel: 'error', eventListeners: { onActivityDelivery: (a: { id: string }) => delivered.push(a.id) } },
  })
  /** The SCO's own view: adl.nav.request_valid.choice for a target (during a session). */
  const choiceValid = (id: string) => api.lmsGetValue(`adl.nav.request_valid.choice.{target=${id}}`)
  /** Runs one SCO session of the delivered activity: sets `values`, then Terminate with `request`. */
  const session = (values: Record<string, string>, request?: string) => {
    api.reset()
    expect(api.lmsInitialize('')).toBe('true')
    for (const [k, v] of Object.entries(values)) expect(api.lmsSetValue(k, v), k).toBe('true')
    if (request) api.lmsSetValue('adl.nav.request', request)
    expect(api.lmsFinish('')).toBe('true')
  }
  return { api, delivered, choiceValid, session }
}

// The engine notes each delivery with console.debug whatever its log level.
beforeAll(() => void vi.spyOn(console, 'debug').mockImplementation(() => {}))

const FORCED = 'golf-scorm2004-3rd-SequencingForcedSequential.zip'
const POST_TEST = 'golf-scorm2004-4th-SequencingPostTestRollup4thEd.zip'
const DONE = { 'cmi.completion_status': 'completed', 'cmi.exit': 'suspend' }

describe('forced sequential package in the sequencing engine', () => {
  it('starts on Playing the Game with Etiquette disabled, and enables Etiquette once Playing is satisfied', async () => {
    const e = engine(await treeOf(FORCED))
    expect(e.api.processNavigationRequest('start')).toBe(true)
    expect(e.delivered).toEqual(['playing_item'])
    e.api.lmsInitialize('')
    expect(e.choiceValid('etuqiette_item')).toBe('false')
    expect(e.choiceValid('playing_item')).toBe('true')
    e.api.lmsFinish('')
    expect(e.api.processNavigationRequest('choice', 'etuqiette_item')).toBe(false)
    expect(e.delivered).toEqual(['playing_item'])

    // Completed but not passed: still disabled (the rule reads satisfaction).
    e.api.processNavigationRequest('choice', 'playing_item')
    e.session({ 'cmi.completion_status': 'completed', 'cmi.success_status': 'failed' })
    expect(e.api.processNavigationRequest('choice', 'etuqiette_item')).toBe(false)

    // Passed, then the content's continue: the next SCO is delivered and may be chosen; the one after it may not.
    e.api.processNavigationRequest('choice', 'playing_item')
    e.session({ ...DONE, 'cmi.success_status': 'passed' }, 'continue')
    expect(e.delivered.at(-1)).toBe('etuqiette_item')
    e.api.reset()
    e.api.lmsInitialize('')
    expect(e.choiceValid('etuqiette_item')).toBe('true')
    expect(e.choiceValid('handicapping_item')).toBe('false')
  })

  it('keeps Etiquette enabled in a later visit from the serialized state, resuming the suspended SCO', async () => {
    const tree = await treeOf(FORCED)
    const first = engine(tree)
    first.api.processNavigationRequest('start')
    first.session({ ...DONE, 'cmi.success_status': 'passed' }, 'continue')
    first.session({ 'cmi.location': '1', 'cmi.exit': 'suspend' }, 'suspendAll')
    const state = first.api.serializeSequencingState()

    const later = engine(tree)
    expect(later.api.deserializeSequencingState(state)).toBe(true)
    expect(later.api.processNavigationRequest('resumeAll')).toBe(true)
    expect(later.delivered).toEqual(['etuqiette_item'])
    later.api.lmsInitialize('')
    expect(later.choiceValid('etuqiette_item')).toBe('true')
    expect(later.choiceValid('handicapping_item')).toBe('false')

    // Without the stored state the same learner would be locked out again.
    const fresh = engine(tree)
    fresh.api.processNavigationRequest('start')
    fresh.api.lmsInitialize('')
    expect(fresh.choiceValid('etuqiette_item')).toBe('false')
  })
})

describe('4th edition post-test package in the sequencing engine', () => {
  it('gates on completion, lets the content jump to the hidden quiz, and rolls the quiz up to the course', async () => {
    const e = engine(await treeOf(POST_TEST))
    e.api.processNavigationRequest('start')
    e.api.lmsInitialize('')
    // The quiz is hidden from choice until attempted or Having Fun is completed.
    expect(e.choiceValid('assessment_item')).toBe('false')
    expect(e.choiceValid('etuqiette_item')).toBe('false')
    e.api.lmsFinish('')
    e.api.processNavigationRequest('choice', 'playing_item')
    e.session(DONE, 'continue')
    expect(e.delivered.at(-1)).toBe('etuqiette_item')
    expect(e.api.getActivityTrackingData('golf_sample_default_org')?.completionStatus).not.toBe('completed')

    // The content's "Skip to Quiz" jump; passing the quiz completes and satisfies the course (only the quiz rolls up).
    e.session({ 'cmi.exit': 'suspend' }, '{target=assessment_item}jump')
    expect(e.delivered.at(-1)).toBe('assessment_item')
    e.session({ 'cmi.score.scaled': '0.9', 'cmi.completion_status': 'completed', 'cmi.success_status': 'passed' }, 'exitAll')
    expect(e.api.getActivityTrackingData('golf_sample_default_org')).toMatchObject({ completionStatus: 'completed', successStatus: 'passed' })
  })
})
