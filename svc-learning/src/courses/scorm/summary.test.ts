import { describe, expect, it } from 'vitest'
import { progressRecordProblem, sharedStores, summarize, suspendDataProblem, totalTimePath } from './summary.ts'

describe('summarize', () => {
  it('reads a SCORM 1.2 tree without the cmi wrapper and with childArray collections', () => {
    const s = summarize({
      suspend_data: 'abc',
      core: { lesson_status: 'incomplete', lesson_location: 'page-3', exit: 'suspend', total_time: '00:10:00', session_time: '00:00:05', score: { raw: '80' } },
      interactions: {
        childArray: [
          { id: 'q1', time: '10:15:00', type: 'choice', student_response: 'a', result: 'correct', latency: '00:00:12', correct_responses: { childArray: [{ pattern: 'a' }] } },
        ],
      },
    })
    expect(s).toEqual({
      model: '1.2',
      lessonStatus: 'incomplete',
      score: 80,
      location: 'page-3',
      suspendData: 'abc',
      totalTime: '00:10:00',
      sessionTime: '00:00:05',
      exit: 'suspend',
      interactions: [{ id: 'q1', timestamp: '10:15:00', type: 'choice', student_response: 'a', result: 'correct', latency: '00:00:12', correct_responses: ['a'] }],
      complete: false,
    })
  })
  it('reads scorm-again’s json format ({cmi}) with collections keyed by index, and 1.2 completion', () => {
    const s = summarize({ cmi: { core: { lesson_status: 'passed', score: { raw: '' } }, interactions: { '1': { id: 'b' }, '0': { id: 'a' } } } })
    expect([s.lessonStatus, s.score, s.complete, s.interactions.map((i) => i.id), s.totalTime]).toEqual(['passed', null, true, ['a', 'b'], null])
    expect(summarize({ cmi: { core: { lesson_status: 'failed' } } }).complete).toBe(false)
    expect(summarize({ cmi: { core: {} } }).lessonStatus).toBe('not attempted')
  })
  it('reads the flattened format', () => {
    const s = summarize({ 'cmi.core.lesson_status': 'completed', 'cmi.core.lesson_location': 'x', 'cmi.interactions.0.id': 'q1', 'cmi.interactions.0.result': 'wrong' })
    expect([s.model, s.lessonStatus, s.location, s.interactions]).toEqual(['1.2', 'completed', 'x', [{ id: 'q1', result: 'wrong' }]])
  })
  it('maps SCORM 2004 success and completion to one lesson status, and scaled scores to percent', () => {
    const base = { completion_status: 'completed', success_status: 'failed', score: { scaled: '0.755' }, location: 'l', exit: 'suspend' }
    const s = summarize({ cmi: base })
    expect([s.model, s.lessonStatus, s.score, s.complete, s.sessionTime, s.totalTime]).toEqual(['2004', 'failed', 75.5, true, 'PT0S', null])
    expect(summarize({ cmi: { ...base, success_status: 'passed', completion_status: 'incomplete' } })).toMatchObject({ lessonStatus: 'passed', complete: true })
    expect(summarize({ cmi: { ...base, success_status: 'unknown', completion_status: 'incomplete' } })).toMatchObject({ lessonStatus: 'incomplete', complete: false })
    expect(summarize({ cmi: { completion_status: 'unknown' } }).lessonStatus).toBe('unknown')
    expect(summarize({ cmi: {} }, { completionStatus: 'completed' })).toMatchObject({ lessonStatus: 'completed', complete: true })
    expect(summarize({ cmi: { learner_id: 'x', interactions: { '0': { id: 'q', learner_response: 'b', timestamp: 't' } } } }).interactions).toEqual([
      { id: 'q', student_response: 'b', timestamp: 't' },
    ])
  })
  it('ignores prototype keys of flattened input', () => {
    const s = summarize({ 'cmi.__proto__.polluted': 'yes', 'cmi.core.lesson_status': 'incomplete' })
    expect(s.lessonStatus).toBe('incomplete')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe('commit objects rendered by scorm-again 3.4.3 (renderCommitObject)', () => {
  // Captured from the ESM build in Node: 1.2 at LMSFinish, 2004 at an autocommit (no total_time).
  const scorm12 = {
    successStatus: 'passed',
    completionStatus: 'completed',
    runtimeData: {
      cmi: {
        suspend_data: 'xxxxxxxxxx',
        launch_data: '',
        comments: '',
        comments_from_lms: '',
        core: {
          student_id: '',
          student_name: '',
          lesson_location: '',
          credit: '',
          lesson_status: 'passed',
          entry: '',
          lesson_mode: 'normal',
          exit: 'suspend',
          session_time: '00:00:00',
          score: { raw: '88', min: '', max: '100' },
          total_time: '00:00:00',
        },
        objectives: {},
        student_data: { mastery_score: '', max_time_allowed: '', time_limit_action: '' },
        student_preference: { audio: '', language: '', speed: '', text: '' },
        interactions: {
          '0': { id: 'q1', time: '', type: '', weighting: '', student_response: '', result: '', latency: '', objectives: {}, correct_responses: { '0': { pattern: 'a' } } },
        },
      },
    },
    totalTimeSeconds: 0,
    score: { raw: 88, max: 100 },
  }
  const scorm2004 = {
    completionStatus: 'completed',
    successStatus: 'unknown',
    totalTimeSeconds: 0,
    runtimeData: {
      cmi: {
        comments_from_learner: {},
        comments_from_lms: {},
        completion_status: 'completed',
        completion_threshold: '',
        credit: 'credit',
        entry: '',
        exit: 'suspend',
        interactions: {
          '0': { id: 'q1', type: 'choice', objectives: {}, timestamp: '', weighting: '', learner_response: 'a', result: '', latency: '', description: '', correct_responses: {} },
        },
        launch_data: '',
        learner_id: '',
        learner_name: '',
        learner_preference: { audio_level: '1', language: '', delivery_speed: '1', audio_captioning: '0' },
        location: '',
        max_time_allowed: '',
        mode: 'normal',
        objectives: {},
        progress_measure: '',
        scaled_passing_score: '',
        score: { scaled: '0.5', raw: '', min: '', max: '' },
        session_time: 'PT0H0M0S',
        success_status: 'unknown',
        suspend_data: '',
        time_limit_action: 'continue,no message',
      },
    },
    score: { scaled: 0.5 },
    globalObjectives: {},
  }
  it('reads the 1.2 one', () => {
    expect(summarize(scorm12.runtimeData, scorm12)).toMatchObject({
      model: '1.2',
      lessonStatus: 'passed',
      score: 88,
      exit: 'suspend',
      suspendData: 'xxxxxxxxxx',
      totalTime: '00:00:00',
      complete: true,
      interactions: [{ id: 'q1', correct_responses: ['a'] }],
    })
  })
  it('reads the 2004 one', () => {
    expect(summarize(scorm2004.runtimeData, scorm2004)).toMatchObject({
      model: '2004',
      lessonStatus: 'completed',
      score: 50,
      exit: 'suspend',
      totalTime: null,
      sessionTime: 'PT0H0M0S',
      complete: true,
      interactions: [{ id: 'q1', type: 'choice', student_response: 'a' }],
    })
  })
})

describe('totalTimePath and sharedStores', () => {
  it('points where each format carries cmi.total_time', () => {
    expect(totalTimePath({ cmi: {} })).toEqual(['cmi', 'total_time'])
    expect(totalTimePath({ 'cmi.location': 'x' })).toEqual(['cmi.total_time'])
    expect(totalTimePath({ location: 'x' })).toEqual(['total_time'])
  })
  it('takes adlData over the adl.data collection of the runtime data', () => {
    const stores = sharedStores({
      runtimeData: { adl: { data: { '0': { id: 'a', store: 'from-tree' }, '1': { id: 'b', store: 'tree-b' } } } },
      adlData: [{ id: 'a', store: 'from-adlData' }],
    })
    expect(stores).toEqual([
      { id: 'a', store: 'from-adlData' },
      { id: 'b', store: 'tree-b' },
    ])
  })
})

describe('applyProgressRecord', () => {
  it('writes the record into a 1.2 tree without touching the rest, and never takes back a completion', async () => {
    const { applyProgressRecord } = await import('./summary.ts')
    const stored = { cmi: { core: { lesson_status: 'incomplete', lesson_location: 'p1', score: { raw: '10', max: '100' } }, suspend_data: 'a', launch_data: 'keep' } }
    const next = applyProgressRecord(stored, '1.2', {
      lessonStatus: 'passed',
      score: 90,
      suspendData: 'b',
      totalTime: '0000:05:00',
      interactions: [{ id: 'q1', timestamp: '10:00:00', student_response: 'x', correct_responses: ['x'] }],
    })
    expect(next).toEqual({
      cmi: {
        core: { lesson_status: 'passed', lesson_location: 'p1', score: { raw: '90', max: '100' }, total_time: '0000:05:00' },
        suspend_data: 'b',
        launch_data: 'keep',
        interactions: { '0': { id: 'q1', time: '10:00:00', student_response: 'x', correct_responses: { '0': { pattern: 'x' } } } },
      },
    })
    expect(stored.cmi.core.lesson_status).toBe('incomplete')
    expect(summarize(next).interactions).toEqual([{ id: 'q1', timestamp: '10:00:00', student_response: 'x', correct_responses: ['x'] }])
    expect((applyProgressRecord(next, '1.2', { lessonStatus: 'incomplete' }).cmi as { core: { lesson_status: string } }).core.lesson_status).toBe('passed')
  })
  it('speaks 2004 for a 2004 SCO: success or completion status, ISO durations, learner_response', async () => {
    const { applyProgressRecord } = await import('./summary.ts')
    const next = applyProgressRecord({}, '2004', { lessonStatus: 'failed', totalTime: '0001:02:03.5', interactions: [{ id: 'q', student_response: 'a', latency: '00:00:12' }] })
    expect(next).toEqual({
      cmi: { success_status: 'failed', total_time: 'PT1H2M3.5S', interactions: { '0': { id: 'q', learner_response: 'a', latency: 'PT0H0M12S' } } },
    })
    expect(applyProgressRecord(next, '2004', { lessonStatus: 'completed' }).cmi).toMatchObject({ success_status: 'failed', completion_status: 'completed' })
  })
  it('refuses values the SCO data model would refuse', async () => {
    const { progressRecordProblem } = await import('./summary.ts')
    expect(progressRecordProblem('1.2', { lessonStatus: 'unknown' })).toMatch(/lessonStatus/)
    expect(progressRecordProblem('2004', { lessonStatus: 'browsed' })).toMatch(/lessonStatus/)
    expect(progressRecordProblem('1.2', { score: 101 })).toMatch(/score/)
    expect(progressRecordProblem('2004', { score: 101, lessonStatus: 'unknown' })).toBeNull()
  })
})

describe('timespans and durations', () => {
  it('turns 2004 durations into the record format and back', async () => {
    const { durationToTimespan, timespanTo2004 } = await import('./summary.ts')
    expect(['PT0S', 'PT1M', 'PT1H2M3.5S', 'P1DT1S', 'PT0H0M0S', 'PT90M', '0000:01:00', 'soon'].map(durationToTimespan)).toEqual([
      '0000:00:00',
      '0000:01:00',
      '0001:02:03.50',
      '0024:00:01',
      '0000:00:00',
      '0001:30:00',
      '0000:01:00',
      'soon',
    ])
    expect(['0000:00:00', '12:30:15.25', 'PT1S'].map(timespanTo2004)).toEqual(['PT0H0M0S', 'PT12H30M15.25S', 'PT1S'])
  })
})

describe('suspend data limit (64,000 characters in 1.2 and 2004 alike, as the runtime has it)', () => {
  it('names the field and the limit past it, and takes what fits', () => {
    expect(suspendDataProblem('x'.repeat(64_000), 'suspend_data')).toBeNull()
    expect(suspendDataProblem('x'.repeat(64_001), 'suspend_data')).toBe('suspend_data may hold at most 64000 characters')
  })

  it('applies to the progress record', () => {
    expect(progressRecordProblem('1.2', { suspendData: 'x'.repeat(5_000) })).toBeNull()
    expect(progressRecordProblem('1.2', { suspendData: 'x'.repeat(64_001) })).toBe('suspendData may hold at most 64000 characters')
  })
})
