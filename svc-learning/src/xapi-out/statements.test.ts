import { describe, expect, it } from 'vitest'
import type { EventEnvelope } from '@portal/contracts'
import { accepted, retriable } from './lrs-client.ts'
import { statementIdOf, statementOf, uuidV5, VERBS } from './statements.ts'

const setting = { homePage: 'https://portal.example.com', origin: 'https://portal.example.com/' }
const user = '0b7e5c1a-3f0e-4d8a-9c4e-1f2a3b4c5d6e'
const ev = (type: string, data: unknown, id = crypto.randomUUID()): EventEnvelope => ({ id, type, occurredAt: '2026-11-28T10:00:00.000Z', data })
const module = (over: Record<string, unknown> = {}) =>
  ev('learning.module.completed.v1', {
    userId: user,
    courseId: 7,
    courseTitle: 'Lockout/Tagout',
    moduleId: 12,
    moduleTitle: 'Isolation points',
    completedAt: '2026-11-28T09:59:00.000Z',
    trigger: 'scorm-commit',
    ...over,
  })

describe('statements out: event → xAPI statement', () => {
  it('makes UUID v5 ids (RFC 9562 vector), the same for the same event and different for another', () => {
    // The RFC's example: v5 of "www.example.com" in the DNS namespace.
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2')
    const e = module()
    expect(statementOf(e, setting)!.id).toBe(statementOf(structuredClone(e), setting)!.id)
    expect(statementOf(e, setting)!.id).toBe(statementIdOf(e.id))
    expect(statementOf(module(), setting)!.id).not.toBe(statementOf(e, setting)!.id)
    expect(statementIdOf(e.id)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it('sends a launch as launched, the learner as an account agent, the module under the portal’s origin with its course as parent', () => {
    const s = statementOf(
      ev('learning.module.launched.v1', { userId: user, courseId: 7, moduleId: 12, moduleTitle: 'Isolation points', kind: 'scorm', launchedAt: '2026-11-28T09:00:00.000Z' }),
      setting,
    )!
    expect(s).toMatchObject({
      actor: { objectType: 'Agent', account: { homePage: 'https://portal.example.com', name: user } },
      verb: VERBS.launched,
      object: {
        objectType: 'Activity',
        id: 'https://portal.example.com/xapi/activities/module/12',
        definition: { type: 'http://adlnet.gov/expapi/activities/module', name: { 'en-US': 'Isolation points' } },
      },
      context: { contextActivities: { parent: [{ id: 'https://portal.example.com/xapi/activities/course/7' }] } },
      timestamp: '2026-11-28T09:00:00.000Z',
    })
    expect(s.result).toBeUndefined()
    expect(JSON.stringify(s)).not.toMatch(/mbox|@/)
  })

  it('sends a module completion as completed, or passed/failed with the score the SCORM content reported', () => {
    expect(statementOf(module(), setting)).toMatchObject({ verb: VERBS.completed, result: { completion: true }, timestamp: '2026-11-28T09:59:00.000Z' })
    expect(statementOf(module(), setting)!.result).not.toHaveProperty('success')
    expect(statementOf(module({ score: 85, passed: true }), setting)).toMatchObject({
      verb: VERBS.passed,
      result: { completion: true, success: true, score: { raw: 85, scaled: 0.85 } },
    })
    expect(statementOf(module({ score: 40, passed: false }), setting)).toMatchObject({ verb: VERBS.failed, result: { success: false, score: { raw: 40, scaled: 0.4 } } })
    // A raw score outside 0..100 is sent raw only (scaled must be within −1..1).
    expect(statementOf(module({ score: 450, passed: null }), setting)!.result).toEqual({ completion: true, score: { raw: 450 } })
  })

  it('sends a course completion as completed of the course', () => {
    const s = statementOf(ev('learning.course.completed.v1', { userId: user, courseId: 7, courseTitle: 'Lockout/Tagout', completedAt: '2026-11-28T10:00:00.000Z' }), setting)!
    expect(s).toMatchObject({
      verb: VERBS.completed,
      object: { id: 'https://portal.example.com/xapi/activities/course/7', definition: { type: 'http://adlnet.gov/expapi/activities/course' } },
      result: { completion: true },
    })
  })

  it('sends an exam attempt as passed or failed with its score in percent, scaled, min and max', () => {
    const exam = (score: number, passed: boolean) =>
      statementOf(ev('learning.exam.submitted.v1', { userId: user, examId: 3, examName: 'Final', attemptId: crypto.randomUUID(), attemptNumber: 1, score, passed }), setting)!
    expect(exam(92.5, true)).toMatchObject({
      verb: VERBS.passed,
      object: { id: 'https://portal.example.com/xapi/activities/exam/3', definition: { type: 'http://adlnet.gov/expapi/activities/assessment', name: { 'en-US': 'Final' } } },
      result: { completion: true, success: true, score: { raw: 92.5, scaled: 0.925, min: 0, max: 100 } },
      timestamp: '2026-11-28T10:00:00.000Z',
    })
    expect(exam(50, false)).toMatchObject({ verb: VERBS.failed, result: { success: false, score: { raw: 50, scaled: 0.5 } } })
  })

  it('sends nothing for other events or data that does not parse', () => {
    expect(statementOf(ev('learning.course.progressed.v1', { userId: user, courseId: 7, courseTitle: 'C', progress: 50, at: '2026-11-28T10:00:00.000Z' }), setting)).toBeNull()
    expect(statementOf(ev('learning.module.completed.v1', { userId: 'not-a-uuid' }), setting)).toBeNull()
  })
})

describe('statements out: which LRS answers are retried', () => {
  it('keeps a statement while the LRS is down or its settings are wrong, drops one the LRS refuses for itself', () => {
    const r = (status: number | null) => retriable({ status, detail: '' })
    for (const s of [null, 302, 401, 403, 404, 405, 408, 429, 500, 502, 503]) expect(r(s), String(s)).toBe(true)
    for (const s of [400, 413, 415, 422]) expect(r(s), String(s)).toBe(false)
    expect([200, 204, 409].map((status) => accepted({ status, detail: '' }))).toEqual([true, true, true])
  })
})
