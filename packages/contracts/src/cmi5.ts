import { z } from 'zod'

/** POST /cmi5/fetch/{token} (cmi5 §8.2): the session's auth-token once, else a cmi5 error code and text. */
export const Cmi5FetchResponse = z.object({ 'auth-token': z.string() }).or(z.object({ 'error-code': z.enum(['1', '2', '3']), 'error-text': z.string() }))

/**
 * cmi5 (issue 26): course structures read from `cmi5.xml`, the launch of an assignable unit (AU)
 * and the learner's AU statuses. Decision 0053: a cmi5 package is a course module like a SCORM
 * package (`is_scorm` true: a package, extracted and served the same way) whose `scorm_version`
 * is 'cmi5'; its structure is kept in the stored manifest beside the item tree the viewer shows.
 */

/** Most AUs one cmi5 course structure may hold (issue 26). */
export const MAX_CMI5_AUS = 1000

/** How an AU is launched (cmi5 §13.1.4): in the LMS's frame, or in a window of its own. */
export const Cmi5LaunchMethod = z.enum(['AnyWindow', 'OwnWindow'])
export type Cmi5LaunchMethod = z.infer<typeof Cmi5LaunchMethod>

/** What satisfies an AU (cmi5 §13.1.4 moveOn). */
export const Cmi5MoveOn = z.enum(['Passed', 'Completed', 'CompletedAndPassed', 'CompletedOrPassed', 'NotApplicable'])
export type Cmi5MoveOn = z.infer<typeof Cmi5MoveOn>

/** The launch modes of cmi5 §10.2.1 (the LMS's LaunchData says which one a session has). */
export const Cmi5LaunchMode = z.enum(['Normal', 'Browse', 'Review'])
export type Cmi5LaunchMode = z.infer<typeof Cmi5LaunchMode>

/** Why an admin waived an AU (cmi5 §9.5.4.3 Waived, result.extensions reason). */
export const Cmi5WaiveReason = z.enum(['Tested Out', 'Equivalent AU', 'Equivalent Outside Activity', 'Administrative'])
export type Cmi5WaiveReason = z.infer<typeof Cmi5WaiveReason>

/** An objective of the course structure, referenced by blocks and AUs by id. */
export const Cmi5Objective = z.object({ id: z.string(), title: z.string(), description: z.string().nullable() })
export type Cmi5Objective = z.infer<typeof Cmi5Objective>

/** An assignable unit. `url` is relative to the package root, or absolute for an AU hosted elsewhere. */
export const Cmi5Au = z.object({
  kind: z.literal('au'),
  /** The AU's publisher id (an IRI): its activity id in statements. */
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  url: z.string(),
  launchMethod: Cmi5LaunchMethod,
  moveOn: Cmi5MoveOn,
  /** 0..1, null when the structure does not set one. */
  masteryScore: z.number().nullable(),
  launchParameters: z.string().nullable(),
  entitlementKey: z.string().nullable(),
  activityType: z.string().nullable(),
  objectives: z.array(z.string()),
})
export type Cmi5Au = z.infer<typeof Cmi5Au>

export interface Cmi5Block {
  kind: 'block'
  id: string
  title: string
  description: string | null
  objectives: string[]
  children: (Cmi5Block | Cmi5Au)[]
}
export const Cmi5Block: z.ZodType<Cmi5Block> = z.lazy(() =>
  z.object({
    kind: z.literal('block'),
    id: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    objectives: z.array(z.string()),
    children: z.array(z.union([Cmi5Block, Cmi5Au])),
  }),
)

/** A parsed `cmi5.xml`: the course and its blocks and AUs in document order. */
export const Cmi5Course = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  objectives: z.array(Cmi5Objective),
  children: z.array(z.union([Cmi5Block, Cmi5Au])),
})
export type Cmi5Course = z.infer<typeof Cmi5Course>

/** Every AU of a structure, in document order. */
export function cmi5Aus(nodes: readonly (Cmi5Block | Cmi5Au)[]): Cmi5Au[] {
  const out: Cmi5Au[] = []
  const walk = (list: readonly (Cmi5Block | Cmi5Au)[]) => {
    for (const n of list) {
      if (n.kind === 'au') out.push(n)
      else walk(n.children)
    }
  }
  walk(nodes)
  return out
}

/** POST /cmi5/{moduleId}/launch: which AU to open. */
export const Cmi5LaunchBody = z.object({ au_id: z.string().min(1).max(2048) })
export type Cmi5LaunchBody = z.infer<typeof Cmi5LaunchBody>

/** The answer of POST /cmi5/{moduleId}/launch: the AU's launch URL on the content origin. */
export const Cmi5Launch = z.object({
  /** The AU's URL with endpoint, fetch, actor, registration and activityId (cmi5 §8.1). */
  url: z.string(),
  launchMethod: Cmi5LaunchMethod,
  moduleId: z.number().int(),
  au_id: z.string(),
  registration: z.string(),
  session_id: z.string(),
  expiresAt: z.string(),
})
export type Cmi5Launch = z.infer<typeof Cmi5Launch>

/** One AU as the learner's registration has it. */
export const Cmi5AuStatus = z.object({
  id: z.string(),
  title: z.string(),
  moveOn: Cmi5MoveOn,
  launchMethod: Cmi5LaunchMethod,
  completed: z.boolean(),
  passed: z.boolean(),
  failed: z.boolean(),
  /** moveOn met (or NotApplicable, or waived). */
  satisfied: z.boolean(),
  waived: z.boolean(),
  /** The learner has launched this AU at least once (the viewer says In progress, Resume). */
  launched: z.boolean().optional(),
  /**
   * A session of this AU is open (launched, neither Terminated nor abandoned). The viewer closes
   * its "open in another window" view when it turns false: the portal's COOP (same-origin) cuts
   * an AU window on the content origin off from the portal's window, so no message comes back.
   */
  open: z.boolean().optional(),
  /** Scaled score 0..1 of the last Passed/Failed, null when none. */
  score: z.number().nullable(),
})
export type Cmi5AuStatus = z.infer<typeof Cmi5AuStatus>

/** GET /cmi5/{moduleId}/status (GET /cmi5/{moduleId}/status?user_id= for admins). */
export const Cmi5Status = z.object({
  moduleId: z.number().int(),
  registration: z.string().nullable(),
  satisfied: z.boolean(),
  aus: z.array(Cmi5AuStatus),
})
export type Cmi5Status = z.infer<typeof Cmi5Status>

/** POST /cmi5/{moduleId}/waive (admins). */
export const Cmi5WaiveBody = z.object({ user_id: z.string().uuid(), au_id: z.string().min(1).max(2048), reason: Cmi5WaiveReason })
export type Cmi5WaiveBody = z.infer<typeof Cmi5WaiveBody>

/** The messages admins read when a cmi5 package is refused (the module's processing error). */
export const CMI5_MESSAGES = {
  notXml: 'cmi5.xml is not well-formed XML',
  noCourse: 'cmi5.xml has no course element',
  noAus: 'The cmi5 course has no assignable unit (AU)',
  tooManyAus: `The cmi5 course has more than ${MAX_CMI5_AUS} assignable units`,
  duplicateId: (id: string) => `cmi5.xml uses the id ${id} twice`,
  notIri: (id: string) => `cmi5.xml id is not an IRI: ${id}`,
  missingUrl: (au: string) => `The AU ${au} has no url`,
  missingFile: (au: string, url: string) => `The AU ${au} points to ${url}, which is not in the package`,
  badMoveOn: (value: string) => `Unknown moveOn value: ${value}`,
  badLaunchMethod: (value: string) => `Unknown launchMethod value: ${value}`,
  badMasteryScore: (value: string) => `masteryScore must be a decimal between 0 and 1: ${value}`,
  relativeUrlAlone: (au: string) => `The AU ${au} has a relative url, but cmi5.xml was uploaded without its package: upload the zip`,
} as const
