import { PROGRESS_TRACKER as T } from '@portal/contracts'
import type { PlayerEvent } from '../player/index.ts'
import type { NavRequest, SequencingView } from '../runtime/index.ts'
import type { ModuleController } from './module-controller.ts'
import { contentSignal, scormCompletion } from './signals.ts'

/** What the viewer does with the player's events (learner §4 and §9, as when the runtime ran in the viewer). */
export interface PlayerEventContext {
  controller: Pick<ModuleController, 'raise' | 'completeReported' | 'contentProgress' | 'complete' | 'interaction' | 'realActivity' | 'contentTalks' | 'contentDecides'>
  /** The launch is sequenced: the package's rollup completes it, the engine navigates. */
  sequenced: boolean
  /** The package has editor changes (a second load of its frame then does not complete it). */
  edited: boolean
  /** Where the tracker reads the content's URLs. */
  urls: { current: readonly string[] }
  /** The SCO shows something (its first API call, or its Initialize). */
  loaded(): void
  /** Sequenced packages: what to show. */
  view(view: SequencingView): void
  /** Packages without sequencing: the SCO finished, asking for `navRequest` (or not). */
  finished(itemId: string, navRequest: NavRequest | null): void
  /** A commit failed (said once per load). */
  trackingIssue(): void
}

export function applyPlayerEvent(e: PlayerEvent, ctx: PlayerEventContext): void {
  const { controller } = ctx
  switch (e.t) {
    case 'activity':
      return ctx.loaded()
    case 'initialize':
      ctx.loaded()
      // Content that talks to the runtime decides its own completion (issue 15): fallbacks stop.
      controller.contentTalks()
      return controller.raise(T.scormInitialized)
    case 'status': {
      // Sequenced packages complete by their rollup; a SCO's own status only raises the progress shown.
      const trigger = ctx.sequenced ? null : scormCompletion(e.status)
      if (trigger) return controller.completeReported(trigger)
      if (e.status.progressMeasure !== null && e.status.progressMeasure > 0) controller.contentProgress(e.status.progressMeasure * 100)
      return
    }
    case 'finish':
      if (scormCompletion(e.status)) controller.completeReported('scorm-finish')
      // Finished without completion: progress goes no further than the content's own measure.
      else if (e.status.progressMeasure !== null && e.status.progressMeasure > 0) controller.contentProgress(e.status.progressMeasure * 100)
      return ctx.finished(e.itemId, e.navRequest)
    case 'root-done':
      // The package's own rollup says the module is done (the commit carrying it completes it on the server).
      return controller.completeReported(e.atFinish ? 'scorm-finish' : 'scorm-status')
    case 'view':
      return ctx.view(e.view)
    case 'commit-error':
      return ctx.trackingIssue()
    case 'frame-load':
      // learner §4: for unedited modules a second load of the content frame completes it
      if (e.count >= 2 && !ctx.edited && !controller.contentDecides) void controller.complete('frame-reload')
      return
    case 'interaction':
      return controller.interaction()
    case 'urls':
      ctx.urls.current = e.urls
      return
    case 'content-message': {
      const signal = contentSignal(e.data)
      if (!signal) return
      if (controller.contentDecides) return
      if (signal.kind === 'complete') void controller.complete('content-message')
      else if (signal.kind === 'progress') controller.contentProgress(signal.progress)
      else controller.realActivity()
      return
    }
    case 'ready':
    case 'failed':
    case 'closed':
      return
  }
}
