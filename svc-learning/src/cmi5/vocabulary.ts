import { createHash } from 'node:crypto'

/** The xAPI verbs cmi5 defines (cmi5 §9.3). */
export const VERB = {
  launched: 'http://adlnet.gov/expapi/verbs/launched',
  initialized: 'http://adlnet.gov/expapi/verbs/initialized',
  completed: 'http://adlnet.gov/expapi/verbs/completed',
  passed: 'http://adlnet.gov/expapi/verbs/passed',
  failed: 'http://adlnet.gov/expapi/verbs/failed',
  abandoned: 'https://w3id.org/xapi/adl/verbs/abandoned',
  waived: 'https://w3id.org/xapi/adl/verbs/waived',
  terminated: 'http://adlnet.gov/expapi/verbs/terminated',
  satisfied: 'https://w3id.org/xapi/adl/verbs/satisfied',
} as const

/** The display of each verb in the LMS's statements. */
export const VERB_DISPLAY: Record<string, string> = Object.fromEntries(Object.entries(VERB).map(([name, id]) => [id, name]))

/** Context extensions (cmi5 §9.6.3) and category activities (§9.6.2). */
export const EXT = {
  sessionId: 'https://w3id.org/xapi/cmi5/context/extensions/sessionid',
  masteryScore: 'https://w3id.org/xapi/cmi5/context/extensions/masteryscore',
  launchMode: 'https://w3id.org/xapi/cmi5/context/extensions/launchmode',
  launchUrl: 'https://w3id.org/xapi/cmi5/context/extensions/launchurl',
  moveOn: 'https://w3id.org/xapi/cmi5/context/extensions/moveon',
  launchParameters: 'https://w3id.org/xapi/cmi5/context/extensions/launchparameters',
  reason: 'https://w3id.org/xapi/cmi5/result/extensions/reason',
} as const

export const CATEGORY = {
  cmi5: 'https://w3id.org/xapi/cmi5/context/categories/cmi5',
  moveOn: 'https://w3id.org/xapi/cmi5/context/categories/moveon',
} as const

export const ACTIVITY_TYPE = {
  block: 'https://w3id.org/xapi/cmi5/activitytype/block',
  course: 'https://w3id.org/xapi/cmi5/activitytype/course',
} as const

/** The State document the LMS writes before each launch (cmi5 §10). */
export const LAUNCH_DATA_STATE_ID = 'LMS.LaunchData'

const digest = (id: string) => createHash('sha256').update(id).digest('hex').slice(0, 32)

/**
 * The LMS's own activity ids (cmi5 §8.1 activityId, §9.3.9 block and course ids): generated,
 * never the publisher's id, the same for every launch and every registration of a module's AU.
 * `{homePage}/xapi/cmi5/modules/{moduleId}/{au|block}/{sha256(publisher id), 32 hex}` and
 * `{homePage}/xapi/cmi5/modules/{moduleId}/course`: under the portal's stable account home page
 * (an IRI of this portal), one module's ids apart from another's even for the same package.
 */
export const lmsIds = (homePage: string, moduleId: number) => {
  const base = `${homePage.replace(/\/$/, '')}/xapi/cmi5/modules/${moduleId}`
  return {
    au: (publisherId: string) => `${base}/au/${digest(publisherId)}`,
    block: (publisherId: string) => `${base}/block/${digest(publisherId)}`,
    course: () => `${base}/course`,
  }
}
export type LmsIds = ReturnType<typeof lmsIds>
