/**
 * The in-browser SCORM 1.2 / AICC / SCORM 2004 runtime (scorm-again 3). It runs in the content
 * player (src/player), on the content origin beside the SCOs, never in the portal's page: the
 * remote's bundle does not carry it. The viewer (src/courses) takes only types, `itemAfter` and
 * `prerequisiteAccess` from here; package.json's `sideEffects` (the entry files only) lets the
 * bundler drop the rest of this index from the remote.
 *
 * Order of calls: `await preloadRuntime(launch.version)` → `startScormSession({launch, itemId, host: window})`
 * → set the SCO frame's src. On a SCO switch: `session.destroy()`, then start the next session.
 * Sequenced 2004 packages (`launch.sequencing`): `startSequencedSession({launch, host: window, events})`
 * → `start()`; show the SCO its views name (`onView`), ask for navigation with `navigate()`.
 */
export { preloadRuntime, runtimeLoaded } from './loader.ts'
export { itemAfter, launchableItems, parseNavRequest, type NavRequest } from './navigation.ts'
export { prerequisiteAccess } from './prerequisites.ts'
export { startScormSession, type RuntimeStatus, type ScormSession, type ScormSessionEvents, type StartScormSessionOptions } from './session.ts'
export {
  startSequencedSession,
  navRequestValue,
  type FlowButton,
  type ItemAccess,
  type SequencedSession,
  type SequencedSessionEvents,
  type SequencingView,
} from './sequenced-session.ts'
export { COMMIT_FAILED, type CommitAnswer } from './commit.ts'
export { flushOnPageHide } from './page-hide.ts'
