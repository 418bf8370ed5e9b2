import { Cmi5Launch, Cmi5Status, type Cmi5AuStatus } from '@portal/contracts'
import { api } from '@portal/ui-kit'
import { CMI5_RETURN_TYPE } from '../player/index.ts'

/*
 * cmi5 modules in the viewer (issue 26, decision 0053): the learner's AU statuses, the launch of
 * one AU, where it plays, and the message the content player's return page sends when the AU
 * ends (its returnURL: `{contentOrigin}/player/?cmi5-return={moduleId}`).
 */

/** GET /cmi5/{moduleId}/status: the learner's registration and each AU's status. */
export const fetchCmi5Status = (moduleId: number) => api.get(`/cmi5/${moduleId}/status`, Cmi5Status)

/** POST /cmi5/{moduleId}/launch: a new session of one AU and its launch URL. */
export const launchCmi5Au = (moduleId: number, auId: string) => api.post(`/cmi5/${moduleId}/launch`, { au_id: auId }, Cmi5Launch)

/** How often the viewer asks for the statuses again while an AU is open. */
export const CMI5_STATUS_POLL_MS = 5_000

/** The type of the message the content player's return page posts to the viewer. */
export const CMI5_RETURN = CMI5_RETURN_TYPE

export interface Cmi5ReturnMessage {
  type: typeof CMI5_RETURN
  moduleId: number
}

export const cmi5ReturnMessage = (moduleId: number): Cmi5ReturnMessage => ({ type: CMI5_RETURN, moduleId })

/** Whether `data` is the return message of module `moduleId`. */
export function isCmi5Return(data: unknown, moduleId: number): boolean {
  if (!data || typeof data !== 'object') return false
  const m = data as Record<string, unknown>
  return m.type === CMI5_RETURN && m.moduleId === moduleId
}

export type Cmi5AuLabel = 'Not started' | 'In progress' | 'Completed' | 'Passed' | 'Failed' | 'Satisfied' | 'Waived'

/**
 * What the learner reads of an AU: Waived alone; else what it reached (Completed, then Passed or
 * Failed); else Satisfied (moveOn NotApplicable); else In progress once launched, or Not started.
 */
export function auStatusLabels(au: Cmi5AuStatus): Cmi5AuLabel[] {
  if (au.waived) return ['Waived']
  const out: Cmi5AuLabel[] = []
  if (au.completed) out.push('Completed')
  if (au.passed) out.push('Passed')
  else if (au.failed) out.push('Failed')
  if (out.length > 0) return out
  if (au.satisfied) return ['Satisfied']
  return [au.launched ? 'In progress' : 'Not started']
}

/**
 * The AU's button: Start before any launch (a NotApplicable or waived AU is satisfied before it),
 * Open again once satisfied, Resume in between.
 */
export function auActionLabel(au: Cmi5AuStatus): 'Start' | 'Resume' | 'Open again' {
  if (!au.launched && !au.completed && !au.passed && !au.failed) return 'Start'
  return au.satisfied || au.waived ? 'Open again' : 'Resume'
}

/** A score 0..1 as a whole percent ("Score 80%"), or null. */
export const scoreText = (score: number | null): string | null => (score === null || !Number.isFinite(score) ? null : `Score ${Math.round(score * 100)}%`)

/**
 * Where a launched AU plays. In the viewer's frame when it may be framed there: AnyWindow and on
 * the content origin (package files, which the content origin lets the portal frame). Else in a
 * window of its own: OwnWindow, an AU hosted on another origin, or a launch on another content
 * origin than this address of the portal's (it could not be framed).
 */
export type Cmi5Place = { kind: 'frame'; url: string; origin: string } | { kind: 'window'; url: string; origin: string | null; sameContentOrigin: boolean }

/**
 * `contentOrigin`: this page's content origin (the registry's); null when unknown, then a URL
 * under /api/content/ counts as on the content origin.
 */
export function cmi5PlaceOf(launch: Pick<Cmi5Launch, 'url' | 'launchMethod'>, contentOrigin: string | null): Cmi5Place {
  let url: URL
  try {
    url = new URL(launch.url)
  } catch {
    return { kind: 'window', url: launch.url, origin: null, sameContentOrigin: false }
  }
  const onContent = contentOrigin ? url.origin === contentOrigin : url.pathname.startsWith('/api/content/')
  if (onContent && launch.launchMethod === 'AnyWindow') return { kind: 'frame', url: url.href, origin: url.origin }
  return { kind: 'window', url: url.href, origin: url.origin, sameContentOrigin: onContent }
}
