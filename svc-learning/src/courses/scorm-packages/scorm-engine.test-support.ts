/**
 * scorm-again's SCORM 2004 API with its sequencing engine, for tests (its ESM build runs in Node):
 * the real engine decides what a package lets a learner open.
 */
import type { EngineActivity } from '@portal/contracts/scorm-sequencing'
import * as scorm2004 from 'scorm-again/scorm2004'
import { expect, vi } from 'vitest'

/** What the tests use of Scorm2004API (its bundled declarations do not resolve under NodeNext). */
interface Engine {
  lmsInitialize(p?: string): string
  lmsFinish(p?: string): string
  lmsSetValue(el: string, v: string): string
  lmsGetValue(el: string): string
  reset(): void
  processNavigationRequest(request: string, target?: string): boolean
  serializeSequencingState(): string
  deserializeSequencingState(state: string): boolean
  restoreGlobalObjectiveSnapshot(snapshot: Record<string, unknown>): void
  getActivityTrackingData(id: string): { completionStatus: string; successStatus: string } | null
}
type EngineClass = new (settings: Record<string, unknown>) => Engine
const Scorm2004API = (scorm2004 as unknown as { Scorm2004API: EngineClass }).Scorm2004API

/** An engine for `tree` that records the activities it delivers. */
export function engine(tree: EngineActivity) {
  // The engine notes each delivery and restore with console.debug whatever its log level.
  vi.spyOn(console, 'debug').mockImplementation(() => {})
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
  /**
   * Restores a serialized state as the runtime does before the first delivery: the state, then its
   * global objectives again (only that applies them to the objectives that read them).
   */
  const restore = (state: string) => {
    expect(api.deserializeSequencingState(state)).toBe(true)
    api.restoreGlobalObjectiveSnapshot((JSON.parse(state) as { globalObjectiveMap: Record<string, unknown> }).globalObjectiveMap)
  }
  return { api, delivered, choiceValid, session, restore }
}
