import { describe, expect, it } from 'vitest'
import { sharedStores, summarize, totalTimePath } from './summary.ts'

describe('summarize', () => {
  it('reads a SCORM 1.2 tree without the cmi wrapper and with childArray collections', () => {
    const s = summarize({
      suspend_data: 'abc',
      core: { lesson_status: 'incomplete', lesson_location: 'page-3', exit: 'suspend', total_time: '00:10:00', session_time: '00:00:05', score: { raw: '80' } },
      interactions: {
        childArray: [{ id: 'q1', time: '10:15:00', type: 'choice', student_response: 'a', result: 'correct', latency: '00:00:12', correct_responses: { childArray: [{ pattern: 'a' }] } }],
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
