import { createHash } from 'node:crypto'
import { Events, type EventEnvelope, type EventType } from '@portal/contracts'

/** ADL verbs the portal's statements use (xAPI 1.0.3, the ADL vocabulary). */
export const VERBS = {
  launched: { id: 'http://adlnet.gov/expapi/verbs/launched', display: { 'en-US': 'launched' } },
  completed: { id: 'http://adlnet.gov/expapi/verbs/completed', display: { 'en-US': 'completed' } },
  passed: { id: 'http://adlnet.gov/expapi/verbs/passed', display: { 'en-US': 'passed' } },
  failed: { id: 'http://adlnet.gov/expapi/verbs/failed', display: { 'en-US': 'failed' } },
} as const

const ACTIVITY_TYPES = {
  course: 'http://adlnet.gov/expapi/activities/course',
  module: 'http://adlnet.gov/expapi/activities/module',
  exam: 'http://adlnet.gov/expapi/activities/assessment',
} as const

/** The events statements out sends, one statement each. */
export const FORWARDED_EVENTS = ['learning.module.launched.v1', 'learning.module.completed.v1', 'learning.course.completed.v1', 'learning.exam.submitted.v1'] as const
export type ForwardedEvent = (typeof FORWARDED_EVENTS)[number]

/** Namespace of the portal's statement ids (UUID v5 of the event id): fixed forever, or ids change. */
export const STATEMENT_ID_NAMESPACE = '6f0b6c3e-8a8e-4d57-9a43-2f1b5e0c7d11'

/** RFC 9562 UUID version 5 (SHA-1 of the namespace's bytes and the name). */
export function uuidV5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex')
  if (ns.length !== 16) throw new Error('namespace must be a UUID')
  const bytes = createHash('sha1').update(ns).update(name, 'utf8').digest().subarray(0, 16)
  bytes[6] = (bytes[6]! & 0x0f) | 0x50
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = bytes.toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** The statement id of an event: the same event (a redelivery, a retry) always makes the same id. */
export const statementIdOf = (eventId: string) => uuidV5(eventId, STATEMENT_ID_NAMESPACE)

export interface XapiAgentOut {
  objectType: 'Agent'
  account: { homePage: string; name: string }
}

/** What a statement needs beside the event: the learner's account home page and the portal's origin for activity IRIs. */
export interface StatementSetting {
  /** The account home page of every learner (the design's learnerAgent: one stable IRI of the portal). */
  homePage: string
  /** The portal's origin; activities are `{origin}/xapi/activities/{course|module|exam}/{id}`. */
  origin: string
}

/** A learner as the actor of a statement: an account agent named by the user's uuid (no names or e-mails). */
export const accountAgent = (homePage: string, userId: string): XapiAgentOut => ({ objectType: 'Agent', account: { homePage, name: userId } })

export const activityIri = (origin: string, kind: keyof typeof ACTIVITY_TYPES, id: number) => `${origin.replace(/\/+$/, '')}/xapi/activities/${kind}/${id}`

const activity = (s: StatementSetting, kind: keyof typeof ACTIVITY_TYPES, id: number, title?: string) => ({
  objectType: 'Activity' as const,
  id: activityIri(s.origin, kind, id),
  definition: { type: ACTIVITY_TYPES[kind], ...(title ? { name: { 'en-US': title } } : {}) },
})

/** A score in percent as xAPI's result.score: raw as given, scaled (−1..1) only when it is a percent. */
function scoreOf(percent: number | null | undefined, bounded: boolean) {
  if (percent === null || percent === undefined || !Number.isFinite(percent)) return undefined
  const inRange = percent >= 0 && percent <= 100
  return {
    raw: percent,
    ...(inRange ? { scaled: Math.round(percent * 100) / 10_000 } : {}),
    ...(bounded && inRange ? { min: 0, max: 100 } : {}),
  }
}

export interface XapiStatementOut {
  id: string
  actor: XapiAgentOut
  verb: { id: string; display: Record<string, string> }
  object: ReturnType<typeof activity>
  result?: { score?: { raw: number; scaled?: number; min?: number; max?: number }; success?: boolean; completion?: boolean }
  context?: { contextActivities?: { parent?: ReturnType<typeof activity>[] }; platform?: string }
  timestamp: string
}

const PLATFORM = 'Learning Portal'

/**
 * The xAPI 1.0.3 statement of a learning event, or null for an event it does not send (or whose
 * data does not parse). The id is a UUID v5 of the event's id, so resending it is no duplicate.
 */
export function statementOf(event: EventEnvelope, s: StatementSetting): XapiStatementOut | null {
  if (!(FORWARDED_EVENTS as readonly string[]).includes(event.type)) return null
  const parsed = Events[event.type as EventType].safeParse(event.data)
  if (!parsed.success) return null
  const id = statementIdOf(event.id)
  const base = { id, context: { platform: PLATFORM } }
  switch (event.type as ForwardedEvent) {
    case 'learning.module.launched.v1': {
      const d = parsed.data as ReturnType<(typeof Events)['learning.module.launched.v1']['parse']>
      return {
        ...base,
        actor: accountAgent(s.homePage, d.userId),
        verb: VERBS.launched,
        object: activity(s, 'module', d.moduleId, d.moduleTitle),
        context: { ...base.context, contextActivities: { parent: [activity(s, 'course', d.courseId)] } },
        timestamp: d.launchedAt,
      }
    }
    case 'learning.module.completed.v1': {
      const d = parsed.data as ReturnType<(typeof Events)['learning.module.completed.v1']['parse']>
      const score = scoreOf(d.score, false)
      const verb = d.passed === true ? VERBS.passed : d.passed === false ? VERBS.failed : VERBS.completed
      return {
        ...base,
        actor: accountAgent(s.homePage, d.userId),
        verb,
        object: activity(s, 'module', d.moduleId, d.moduleTitle),
        result: { completion: true, ...(typeof d.passed === 'boolean' ? { success: d.passed } : {}), ...(score ? { score } : {}) },
        context: { ...base.context, contextActivities: { parent: [activity(s, 'course', d.courseId, d.courseTitle)] } },
        timestamp: d.completedAt,
      }
    }
    case 'learning.course.completed.v1': {
      const d = parsed.data as ReturnType<(typeof Events)['learning.course.completed.v1']['parse']>
      return {
        ...base,
        actor: accountAgent(s.homePage, d.userId),
        verb: VERBS.completed,
        object: activity(s, 'course', d.courseId, d.courseTitle),
        result: { completion: true },
        timestamp: d.completedAt,
      }
    }
    case 'learning.exam.submitted.v1': {
      const d = parsed.data as ReturnType<(typeof Events)['learning.exam.submitted.v1']['parse']>
      const score = scoreOf(d.score, true)
      return {
        ...base,
        actor: accountAgent(s.homePage, d.userId),
        verb: d.passed ? VERBS.passed : VERBS.failed,
        object: activity(s, 'exam', d.examId, d.examName),
        result: { completion: true, success: d.passed, ...(score ? { score } : {}) },
        timestamp: event.occurredAt,
      }
    }
  }
}
