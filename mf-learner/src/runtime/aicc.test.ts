import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { preloadRuntime, startScormSession } from './index.ts'
import { captureCommits, hostWindow, launchOf, type ScoApi12 } from '../test-support/index.ts'

beforeAll(() => preloadRuntime('AICC'))
afterEach(() => vi.unstubAllGlobals())

function startAicc(state: Record<string, unknown> | null = null) {
  const host = hostWindow()
  const launch = launchOf({ version: 'AICC', state: state ? { playing: { cmi: state, entry: 'resume', updated_at: '' } } : {} })
  const session = startScormSession({ launch, itemId: 'playing', host, logLevel: 5 })
  return { api: host.API, session }
}

function initialized() {
  captureCommits()
  const { api } = startAicc()
  expect(api.LMSInitialize('')).toBe('true')
  return api
}

const ok = (api: ScoApi12, element: string, value: string) => {
  expect(api.LMSSetValue(element, value), `${element} = ${value}`).toBe('true')
  expect(api.LMSGetLastError()).toBe('0')
}
const refused = (api: ScoApi12, element: string, value: string, code: string) => {
  expect(api.LMSSetValue(element, value), `${element} = ${value}`).toBe('false')
  expect(api.LMSGetLastError(), `${element} = ${value}`).toBe(code)
}

describe('AICC data model on the SCORM 1.2 API', () => {
  it('installs window.API and keeps every SCORM 1.2 element', () => {
    const api = initialized()
    ok(api, 'cmi.core.lesson_status', 'incomplete')
    expect(api.LMSGetValue('cmi.core.lesson_status')).toBe('incomplete')
    expect(api.LMSGetValue('cmi.core.student_id')).toBe('u-42')
  })

  it('answers _children with the AICC additions', () => {
    const api = initialized()
    expect(api.LMSGetValue('cmi._children').split(',')).toEqual(expect.arrayContaining(['core', 'suspend_data', 'interactions', 'evaluation', 'student_demographics', 'paths']))
    expect(api.LMSGetValue('cmi.student_data._children')).toBe('mastery_score,max_time_allowed,time_limit_action,tries_during_lesson,tries,attempt_records')
    expect(api.LMSGetValue('cmi.student_preference._children')).toBe('audio,language,speed,text,lesson_type,text_color,text_location,text_size,video,windows')
    expect(api.LMSGetValue('cmi.evaluation._children')).toBe('comments')
    expect(api.LMSGetValue('cmi.evaluation.comments._children')).toBe('content,location,time')
    expect(api.LMSGetValue('cmi.student_data.tries._children')).toBe('time,status,score')
    expect(api.LMSGetValue('cmi.student_data.attempt_records._children')).toBe('score,lesson_status')
    expect(api.LMSGetValue('cmi.paths._children')).toBe('location_id,date,time,status,why_left,time_in_element')
    expect(api.LMSGetValue('cmi.student_demographics._children')).toBe(
      'city,class,company,country,experience,familiar_name,instructor_name,title,native_language,state,street_address,telephone,years_experience',
    )
    expect(api.LMSGetLastError()).toBe('0')
  })

  it('stores evaluation comments with _count', () => {
    const api = initialized()
    expect(api.LMSGetValue('cmi.evaluation.comments._count')).toBe('0')
    ok(api, 'cmi.evaluation.comments.0.content', 'Great course')
    ok(api, 'cmi.evaluation.comments.0.location', 'page 3')
    ok(api, 'cmi.evaluation.comments.0.time', '13:45:10')
    ok(api, 'cmi.evaluation.comments.1.content', 'Second')
    expect(api.LMSGetValue('cmi.evaluation.comments._count')).toBe('2')
    expect(api.LMSGetValue('cmi.evaluation.comments.0.content')).toBe('Great course')
    expect(api.LMSGetValue('cmi.evaluation.comments.0.location')).toBe('page 3')
    expect(api.LMSGetValue('cmi.evaluation.comments.0.time')).toBe('13:45:10')
    refused(api, 'cmi.evaluation.comments.0.time', '25:00:00', '405')
    refused(api, 'cmi.evaluation.comments.0.content', 'c'.repeat(256), '405')
  })

  it('stores the AICC student preferences, windows as a collection', () => {
    const api = initialized()
    for (const [k, v] of [
      ['lesson_type', 'tutorial'],
      ['text_color', 'black'],
      ['text_location', 'top'],
      ['text_size', 'large'],
      ['video', 'on'],
    ]) {
      ok(api, `cmi.student_preference.${k}`, v)
      expect(api.LMSGetValue(`cmi.student_preference.${k}`)).toBe(v)
    }
    expect(api.LMSGetValue('cmi.student_preference.windows._count')).toBe('0')
    ok(api, 'cmi.student_preference.windows.0', 'main')
    ok(api, 'cmi.student_preference.windows.1', 'glossary')
    expect(api.LMSGetValue('cmi.student_preference.windows._count')).toBe('2')
    expect(api.LMSGetValue('cmi.student_preference.windows.1')).toBe('glossary')
    // 1.2 preferences still go to the 1.2 API
    ok(api, 'cmi.student_preference.audio', '50')
    refused(api, 'cmi.student_preference.audio', '101', '405')
  })

  it('stores tries and attempt records with scores and statuses', () => {
    const api = initialized()
    ok(api, 'cmi.student_data.tries.0.time', '09:30:00')
    ok(api, 'cmi.student_data.tries.0.status', 'failed')
    ok(api, 'cmi.student_data.tries.0.score.raw', '45.5')
    expect(api.LMSGetValue('cmi.student_data.tries._count')).toBe('1')
    expect(api.LMSGetValue('cmi.student_data.tries.0.status')).toBe('failed')
    expect(api.LMSGetValue('cmi.student_data.tries.0.score.raw')).toBe('45.5')
    expect(api.LMSGetValue('cmi.student_data.tries.0.score.max')).toBe('100')
    expect(api.LMSGetValue('cmi.student_data.tries.0.score._children')).toBe('raw,min,max')
    refused(api, 'cmi.student_data.tries.0.status', 'bogus', '405')
    refused(api, 'cmi.student_data.tries.0.score.raw', '101', '405')
    refused(api, 'cmi.student_data.tries.0.score.raw', 'abc', '405')
    ok(api, 'cmi.student_data.attempt_records.0.lesson_status', 'passed')
    ok(api, 'cmi.student_data.attempt_records.0.score.raw', '88')
    expect(api.LMSGetValue('cmi.student_data.attempt_records._count')).toBe('1')
    expect(api.LMSGetValue('cmi.student_data.attempt_records.0.lesson_status')).toBe('passed')
    expect(api.LMSGetValue('cmi.student_data.attempt_records.0.score.raw')).toBe('88')
    expect(api.LMSGetValue('cmi.student_data.tries_during_lesson')).toBe('')
  })

  it('stores paths entries', () => {
    const api = initialized()
    ok(api, 'cmi.paths.0.location_id', 'lesson_3')
    ok(api, 'cmi.paths.0.date', '2026/11/22')
    ok(api, 'cmi.paths.0.time', '10:00:00')
    ok(api, 'cmi.paths.0.status', 'completed')
    ok(api, 'cmi.paths.0.why_left', 'finished')
    ok(api, 'cmi.paths.0.time_in_element', '0000:12:30')
    for (const [k, v] of [
      ['location_id', 'lesson_3'],
      ['date', '2026/11/22'],
      ['time', '10:00:00'],
      ['status', 'completed'],
      ['why_left', 'finished'],
      ['time_in_element', '0000:12:30'],
    ])
      expect(api.LMSGetValue(`cmi.paths.0.${k}`)).toBe(v)
    expect(api.LMSGetValue('cmi.paths._count')).toBe('1')
    refused(api, 'cmi.paths.0.time_in_element', '12 minutes', '405')
  })

  it('makes student demographics read-only once initialized; they load from the stored state', () => {
    captureCommits()
    const { api } = startAicc({ cmi: { student_demographics: { city: 'Portland', years_experience: '4' } } })
    api.LMSInitialize('')
    expect(api.LMSGetValue('cmi.student_demographics.city')).toBe('Portland')
    expect(api.LMSGetValue('cmi.student_demographics.years_experience')).toBe('4')
    expect(api.LMSGetValue('cmi.student_demographics.telephone')).toBe('')
    for (const k of [
      'city',
      'class',
      'company',
      'country',
      'experience',
      'familiar_name',
      'instructor_name',
      'title',
      'native_language',
      'state',
      'street_address',
      'telephone',
      'years_experience',
    ]) {
      refused(api, `cmi.student_demographics.${k}`, 'x', '403')
    }
    refused(api, 'cmi.student_data.tries_during_lesson', '2', '403')
  })

  it('accepts word characters only in identifiers', () => {
    const api = initialized()
    ok(api, 'cmi.objectives.0.id', 'obj_1')
    refused(api, 'cmi.objectives.1.id', 'obj 1', '405')
    refused(api, 'cmi.objectives.1.id', 'obj-1', '405')
    refused(api, 'cmi.objectives.1.id', '', '405')
    ok(api, 'cmi.interactions.0.id', 'q1')
    refused(api, 'cmi.interactions.1.id', 'q.1', '405')
    ok(api, 'cmi.interactions.0.objectives.0.id', 'obj_1')
    refused(api, 'cmi.interactions.0.objectives.1.id', 'obj#1', '405')
    refused(api, 'cmi.paths.0.location_id', 'lesson 3', '405')
  })

  it('answers the SCORM 1.2 error codes for AICC elements', () => {
    captureCommits()
    const { api } = startAicc()
    refused(api, 'cmi.paths.0.status', 'passed', '301')
    expect(api.LMSGetValue('cmi.evaluation.comments._count')).toBe('')
    expect(api.LMSGetLastError()).toBe('301')
    api.LMSInitialize('')
    refused(api, 'cmi.paths.1.status', 'passed', '201') // collections grow one entry at a time
    expect(api.LMSGetValue('cmi.paths.0.status')).toBe('')
    expect(api.LMSGetLastError()).toBe('201')
    expect(api.LMSGetValue('cmi.student_demographics.city._children')).toBe('')
    expect(api.LMSGetLastError()).toBe('202')
    expect(api.LMSGetValue('cmi.student_demographics._count')).toBe('')
    expect(api.LMSGetLastError()).toBe('203')
    expect(api.LMSGetValue('cmi.evaluation.ratings')).toBe('')
    expect(api.LMSGetLastError()).toBe('401')
    expect(api.LMSGetErrorString('401')).toBe('Not implemented error')
    refused(api, 'cmi.evaluation.comments._count', '3', '402')
    refused(api, 'cmi.paths._children', 'x', '402')
    // a refused new entry is not created
    expect(api.LMSGetValue('cmi.paths._count')).toBe('0')
  })

  it('commits the AICC elements inside the cmi tree and resumes them in the next session', async () => {
    const c = captureCommits()
    const first = startAicc()
    first.api.LMSInitialize('')
    ok(first.api, 'cmi.core.lesson_location', 'p5')
    ok(first.api, 'cmi.evaluation.comments.0.content', 'Nice')
    ok(first.api, 'cmi.student_preference.windows.0', 'main')
    ok(first.api, 'cmi.student_preference.audio', '20')
    ok(first.api, 'cmi.student_data.tries.0.status', 'incomplete')
    ok(first.api, 'cmi.paths.0.location_id', 'L1')
    ok(first.api, 'cmi.core.exit', 'suspend')
    first.api.LMSFinish('')
    await c.settle()
    const { runtimeData } = c.sent.at(-1)!.body
    expect(runtimeData).toMatchObject({
      cmi: {
        core: { lesson_location: 'p5' },
        evaluation: { comments: [{ content: 'Nice' }] },
        student_preference: { audio: '20', windows: ['main'] },
        student_data: { mastery_score: '', tries: [{ status: 'incomplete' }], attempt_records: [] },
        paths: [{ location_id: 'L1' }],
        student_demographics: { city: '' },
      },
    })

    const second = startAicc(runtimeData)
    second.api.LMSInitialize('')
    expect(second.api.LMSGetValue('cmi.core.lesson_location')).toBe('p5')
    expect(second.api.LMSGetValue('cmi.evaluation.comments.0.content')).toBe('Nice')
    expect(second.api.LMSGetValue('cmi.student_preference.windows.0')).toBe('main')
    expect(second.api.LMSGetValue('cmi.student_preference.audio')).toBe('20')
    expect(second.api.LMSGetValue('cmi.student_data.tries.0.status')).toBe('incomplete')
    expect(second.api.LMSGetValue('cmi.paths.0.location_id')).toBe('L1')
    expect(second.api.LMSGetValue('cmi.core.entry')).toBe('resume')
  })

  it('autocommits after an AICC element changes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const c = captureCommits()
      const { api } = startAicc()
      api.LMSInitialize('')
      ok(api, 'cmi.paths.0.location_id', 'L2')
      await vi.advanceTimersByTimeAsync(5_100)
      expect(c.sent).toHaveLength(1)
      expect(c.sent[0].body).toMatchObject({ terminated: false, runtimeData: { cmi: { paths: [{ location_id: 'L2' }] } } })
    } finally {
      vi.useRealTimers()
    }
  })
})
