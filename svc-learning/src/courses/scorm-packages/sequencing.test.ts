import { activityTreeOf, type EngineActivity } from '@portal/contracts/scorm-sequencing'
import { describe, expect, it } from 'vitest'
import { parseManifest } from './manifest.ts'
import { engine } from './scorm-engine.test-support.ts'
import { readFixtureManifest } from './zips.test-support.ts'

/*
 * The real packages' sequencing, through the tree the runtime gives scorm-again's engine (its ESM
 * build runs in Node): the engine, not the portal, decides what may be opened.
 */

async function treeOf(zip: string): Promise<EngineActivity> {
  const info = parseManifest(await readFixtureManifest(zip))
  return activityTreeOf({ organization: info.organization!, title: info.title, items: info.items })
}

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
    first.session({ ...DONE, 'cmi.success_status': 'passed' }, 'suspendAll')
    const state = first.api.serializeSequencingState()

    const later = engine(tree)
    later.restore(state)
    expect(later.api.processNavigationRequest('resumeAll')).toBe(true)
    expect(later.delivered).toEqual(['playing_item'])
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
