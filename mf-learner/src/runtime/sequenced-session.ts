import type { ScormCommit, ScormItem, ScormLaunch, SequencingState } from '@portal/contracts'
import { activityTreeOf, prerequisitesOf } from '@portal/contracts/scorm-sequencing'
import { scorm2004Class } from './loader.ts'
import { launchableItems, type NavRequest } from './navigation.ts'
import type { Api2004Sequenced, EngineActivity, EngineProcess } from './scorm-again-types.ts'
import { commitService, runtimeSettings, Session, type ScormSessionEvents } from './session.ts'

/*
 * A visit of a sequenced SCORM 2004 package (the launch answer has `sequencing`): one scorm-again
 * API with its sequencing engine for the whole visit, reset between SCOs, and one `Session` per
 * delivered SCO on it. The engine decides everything: the SCO to start with, what the content's
 * adl.nav.request and the viewer's lesson tree and Previous/Continue lead to, what is locked or
 * hidden. The viewer shows what `view()` says and asks through `navigate()`.
 */

/** How the lesson tree shows an item. */
/** `via: 'continue'`: the lesson Continue goes to, opened by a continue request (choice may not be allowed yet). */
export type ItemAccess = { kind: 'open' } | { kind: 'available'; via?: 'continue' } | { kind: 'disabled'; reason: string } | { kind: 'hidden' }

/** The viewer's own Previous or Continue button. */
export interface FlowButton {
  /** The package allows flow here and does not hide the button (adlnav hideLMSUI). */
  shown: boolean
  enabled: boolean
  /** Why it is disabled. */
  reason: string | null
}

export interface SequencingView {
  /** Increases with every delivery (the SCO frame is keyed by it). */
  delivery: number
  /** The delivered SCO, null when none is open. */
  current: string | null
  /** Launch URL of the delivered SCO. */
  href: string | null
  /**
   * Why no SCO is open: 'exited' (the SCO ended, the learner picks the next), 'suspended' (suspend
   * all: resumed next time), 'ended' (exit all, or the end of the course), 'unavailable' (the
   * package lets nothing be opened now).
   */
  idle: 'exited' | 'suspended' | 'ended' | 'unavailable' | null
  /** The delivered SCO is being unloaded for a navigation the viewer asked for. */
  unloading: boolean
  /** The engine refused the last navigation: what to tell the learner. */
  notice: string | null
  /** By item identifier. */
  access: Record<string, ItemAccess>
  previous: FlowButton
  continue: FlowButton
}

export interface SequencedSessionEvents extends ScormSessionEvents {
  /** What to show changed (a delivery, an exit, what may be chosen). */
  onView?(view: SequencingView): void
  /** The root activity's rollup says the package is completed or passed (once per visit); `atFinish` when a SCO's Terminate did it. */
  onRootDone?(atFinish: boolean): void
}

export interface StartSequencedSessionOptions {
  launch: ScormLaunch
  host: Window
  events?: SequencedSessionEvents
  logLevel?: 1 | 2 | 3 | 4 | 5
}

type Root = NonNullable<ScormCommit['sequencing']>['root']
const COMPLETION = new Set<Root['completionStatus']>(['completed', 'incomplete', 'not attempted', 'unknown'])
const SUCCESS = new Set<Root['successStatus']>(['passed', 'failed', 'unknown'])

/** The value of adl.nav.request for a request. */
export const navRequestValue = (r: NavRequest): string => (r.kind === 'choice' || r.kind === 'jump' ? `{target=${r.target}}${r.kind}` : r.kind)

/** CMI elements whose change can change what may be chosen or flowed to. */
const TRACKING = /^cmi\.(completion_status|success_status|score\.|objectives\.|progress_measure)/

function findItem(items: readonly ScormItem[], id: string): ScormItem | null {
  for (const i of items) {
    if (i.identifier === id) return i
    const found = findItem(i.children, id)
    if (found) return found
  }
  return null
}

function* activities(root: EngineActivity | null): Generator<EngineActivity> {
  for (const child of root?.children ?? []) {
    yield child
    yield* activities(child)
  }
}

const quoted = (titles: string[]) =>
  titles.length <= 1
    ? `“${titles[0] ?? ''}”`
    : `${titles
        .slice(0, -1)
        .map((t) => `“${t}”`)
        .join(', ')} and “${titles.at(-1)}”`

export class SequencedSession {
  private api: Api2004Sequenced
  private readonly launch: ScormLaunch
  private readonly host: Window
  private readonly logLevel: 1 | 2 | 3 | 4 | 5
  private readonly multi: boolean
  private events: SequencedSessionEvents
  private current: Session | null = null
  private delivered: string | null = null
  private delivery = 0
  /** Set by the engine's delivery event during a navigation, taken by `afterNavigation`. */
  private pending: string | null = null
  private sessionEnd: string | null = null
  private idle: SequencingView['idle'] = null
  private unloading = false
  private notice: string | null = null
  /** The engine state as last reported (without its timestamps), to send it only when it changed. */
  private reported: string | null
  private rootWasDone: boolean
  private viewQueued = false
  private closed = false
  private readonly onLeave = () => this.leave()

  constructor(opts: StartSequencedSessionOptions) {
    const { launch, host } = opts
    const sequencing = launch.sequencing
    if (!sequencing) throw new Error('This package is not sequenced')
    this.launch = launch
    this.host = host
    this.events = opts.events ?? {}
    this.logLevel = opts.logLevel ?? 4
    this.multi = launchableItems(launch.items).length > 1
    this.api = this.createEngine(sequencing.state)
    this.reported = sequencing.state ? this.stateKey(JSON.stringify(sequencing.state)) : null
    this.rootWasDone = this.rootDone()
    // Leaving the page with a SCO open suspends the course (see leave); registered before the
    // content's own beforeunload, which usually terminates it.
    host.addEventListener('beforeunload', this.onLeave)
    host.addEventListener('pagehide', this.onLeave)
  }

  /** The visit's API with its sequencing engine, from the package's tree and `state` (the learner's stored one). */
  private createEngine(state: SequencingState | null): Api2004Sequenced {
    const { launch } = this
    const organization = launch.sequencing!.organization
    const Scorm2004 = scorm2004Class()
    const api = new Scorm2004({
      ...runtimeSettings(
        launch,
        this.logLevel,
        commitService(() => this.current),
      ),
      sequencing: {
        activityTree: activityTreeOf({ organization, title: launch.title, items: launch.items }),
        // Root and cluster statuses follow the content's reports as they come, so a finished package
        // completes without waiting for the SCO to end; global objectives are still written when an
        // attempt ends, as the spec says.
        autoRollupOnCMIChange: true,
        logLevel: 'error',
        eventListeners: {
          onActivityDelivery: (a: { id: string }) => {
            this.pending = a.id
          },
          onSequencingSessionEnd: (d: { reason: string }) => {
            this.sessionEnd = d.reason
          },
          onNavigationValidityUpdate: () => this.changed(),
        },
      },
    }) as Api2004Sequenced
    // The restored state, then its global objectives again: only that applies them to the objectives that read them.
    if (state && api.deserializeSequencingState(JSON.stringify(state))) {
      const map = state.globalObjectiveMap
      if (map && typeof map === 'object') api.restoreGlobalObjectiveSnapshot(map as Record<string, unknown>)
    }
    return api
  }

  /**
   * Initial delivery, as the engine allows it: the suspended activity (resume all), else the start
   * of the course (flow), else the activity the last visit was on, else the first SCO that may be
   * chosen (packages without flow).
   */
  start(): void {
    const tries: [string, string?][] = [['resumeAll'], ['start']]
    const last = this.api.getSequencingState().currentActivity?.id
    const ids = [last, this.launch.startItem, ...launchableItems(this.launch.items).map((i) => i.identifier)]
    for (const id of new Set(ids)) if (id) tries.push(['choice', id])
    for (const [request, target] of tries) {
      this.sessionEnd = null
      this.api.processNavigationRequest(request, target)
      if (this.pending) break
    }
    this.afterNavigation(null)
  }

  /** Starts again after the sequencing session ended or the learner left a SCO. */
  resume(): void {
    if (this.current?.initialized && !this.current.finished) return
    // The engine takes no navigation once its session ended (exit all, suspend all): a new one
    // carries on from its state, as the next visit would.
    if (this.idle === 'ended' || this.idle === 'suspended') this.api = this.createEngine(JSON.parse(this.api.serializeSequencingState()) as SequencingState)
    this.start()
  }

  /**
   * A navigation the learner asked for in the viewer (lesson tree, Previous, Continue). With a SCO
   * open, the request waits for its Terminate: the viewer unloads the SCO (`unloading` in the view)
   * and calls `contentUnloaded()` once its frame is gone.
   */
  navigate(request: NavRequest): void {
    const s = this.current
    if (s && s.initialized && !s.finished) {
      this.api.adl.nav.request = navRequestValue(request)
      this.unloading = true
      this.changed()
      return
    }
    // No SCO session runs (none open, or it never initialized): the engine carries it out now.
    this.current?.destroy()
    this.current = null
    this.sessionEnd = null
    if (request.kind === 'choice' || request.kind === 'jump') this.api.processNavigationRequest(request.kind, request.target)
    else this.api.processNavigationRequest(request.kind)
    this.afterNavigation(request)
  }

  /** The SCO frame was removed for a navigation: content that did not terminate on unload is terminated now. */
  contentUnloaded(): void {
    if (!this.unloading) return
    const s = this.current
    if (s && s.initialized && !s.finished) s.terminate()
    else this.afterNavigation(null)
  }

  /** The visit is ending (viewer closed, page left): an open SCO is suspended for the next visit. */
  leave(): void {
    const s = this.current
    if (s && s.initialized && !s.finished && this.api.adl.nav.request === '_none_') this.api.adl.nav.request = 'suspendAll'
  }

  /** Final commit by beacon of the open SCO (page hidden or dismissed). */
  flush(): void {
    this.current?.flush()
  }

  /** Ends the visit: a SCO the content left open is suspended and terminated (its last commit goes out). */
  destroy(): void {
    if (this.closed) return
    this.leave()
    const s = this.current
    if (s && s.initialized && !s.finished) s.terminate()
    this.closed = true
    this.current?.destroy()
    this.current = null
    this.events = {}
    this.host.removeEventListener('beforeunload', this.onLeave)
    this.host.removeEventListener('pagehide', this.onLeave)
  }

  /** After the engine ran a navigation (start, a SCO's Terminate, the viewer's request). */
  private afterNavigation(request: NavRequest | null): void {
    const next = this.pending
    this.pending = null
    this.unloading = false
    this.notice = null
    if (this.closed) return
    const item = next ? findItem(this.launch.items, next) : null
    if (next && item?.href) {
      this.current?.destroy()
      // A fresh data model for the SCO; the engine keeps its tracking and applies the activity's launch data.
      this.api.reset()
      this.current = new Session({
        launch: this.launch,
        itemId: next,
        host: this.host,
        events: this.sessionEvents(),
        logLevel: this.logLevel,
        engine: { api: this.api, report: (final, dryRun) => this.report(final, dryRun) },
      })
      this.delivered = next
      this.delivery += 1
      this.idle = null
      if (item.asset) this.current.assetLaunched()
    } else {
      this.current?.destroy()
      this.current = null
      this.delivered = null
      const end = this.sessionEnd
      this.sessionEnd = null
      this.idle = end === 'suspend_all' ? 'suspended' : end ? 'ended' : this.api.getSequencingState().currentActivity ? 'exited' : 'unavailable'
      if (request && !end) this.notice = request.kind === 'continue' || request.kind === 'previous' ? 'That lesson is not available yet.' : 'That lesson cannot be opened now.'
    }
    this.checkRoot(true)
    this.changed()
  }

  private sessionEvents(): ScormSessionEvents {
    return {
      onInitialize: () => {
        this.events.onInitialize?.()
        // the engine previews Previous/Continue once the SCO runs
        this.changed()
      },
      onChange: (element, value, status) => {
        this.events.onChange?.(element, value, status)
        if (TRACKING.test(element)) {
          this.checkRoot(false)
          this.changed()
        }
      },
      onFinish: (e) => {
        this.events.onFinish?.(e)
        this.afterNavigation(null)
      },
      onCommitError: (message) => this.events.onCommitError?.(message),
      onCommitted: (answer) => this.events.onCommitted?.(answer),
      onActivity: () => this.events.onActivity?.(),
    }
  }

  /** The root activity's rollup as the commit contract has it. */
  private root(): Root {
    const root = this.api.getSequencingState().rootActivity
    const c = root?.completionStatus as Root['completionStatus'] | undefined
    const s = root?.successStatus as Root['successStatus'] | undefined
    return { completionStatus: c && COMPLETION.has(c) ? c : 'unknown', successStatus: s && SUCCESS.has(s) ? s : 'unknown' }
  }

  private rootDone(): boolean {
    const r = this.root()
    return r.completionStatus === 'completed' || r.successStatus === 'passed'
  }

  private checkRoot(atFinish: boolean): void {
    if (this.rootWasDone || !this.rootDone()) return
    this.rootWasDone = true
    this.events.onRootDone?.(atFinish)
  }

  private stateKey(json: string): string {
    return json.replace(/"timestamp":"[^"]*"/g, '')
  }

  /** The engine's state for a commit: with every final commit, and with others when it changed. */
  private report(final: boolean, dryRun = false): ScormCommit['sequencing'] | undefined {
    const json = this.api.serializeSequencingState()
    const key = this.stateKey(json)
    if (!final && key === this.reported) return undefined
    if (!dryRun) this.reported = key
    return { state: JSON.parse(json) as SequencingState, root: this.root() }
  }

  /** Tells the viewer once per turn of the event loop (a navigation fires many engine events). */
  private changed(): void {
    if (this.viewQueued || this.closed) return
    this.viewQueued = true
    queueMicrotask(() => {
      this.viewQueued = false
      if (!this.closed) this.events.onView?.(this.view())
    })
  }

  private process(): EngineProcess | null {
    return this.api.getSequencingService()?.getOverallSequencingProcess() ?? null
  }

  /** What the viewer shows: the open SCO, the lesson tree's access, the Previous and Continue buttons. */
  view(): SequencingView {
    const process = this.process()
    const { currentActivity, rootActivity } = this.api.getSequencingState()
    const open = this.delivered !== null && !this.unloading
    // With a SCO open, the engine previews the requests on what the SCO reported so far.
    const live = Boolean(this.current?.initialized && !this.current.finished)
    const preview = (which: 'previous' | 'continue') => (live ? this.api.previewNavigationRequest(which) : null)
    const next = this.api.adl.nav.request_valid.continue === 'true' ? preview('continue') : null
    // The tree agrees with the flow after each rollup (issue 17 item 8): the lesson Continue would
    // open is open to the learner too, though choosing it may wait for the objective written when
    // this attempt ends (it is then asked for as a continue).
    const flowTarget = next?.outcome === 'allowed' ? (next.targetActivityId ?? null) : null
    const access: Record<string, ItemAccess> = {}
    for (const a of activities(rootActivity)) access[a.id] = this.accessOf(a, process, flowTarget)
    const hide = process?.getEffectiveHideLmsUi(currentActivity) ?? []
    const flows = this.multi && currentActivity?.parent?.sequencingControls.flow === true
    const button = (which: 'previous' | 'continue'): FlowButton => {
      const shown = flows && !hide.includes(which)
      if (!shown || this.unloading) return { shown, enabled: false, reason: null }
      if (this.api.adl.nav.request_valid[which] !== 'true')
        return { shown, enabled: false, reason: which === 'continue' ? 'There is no next lesson to continue to.' : 'There is no earlier lesson to go back to.' }
      if ((which === 'continue' ? next : preview(which))?.outcome === 'blocked')
        return { shown, enabled: false, reason: which === 'continue' ? 'Finish this lesson to continue.' : 'The lesson before is not available.' }
      return { shown, enabled: true, reason: null }
    }
    return {
      delivery: this.delivery,
      current: open ? this.delivered : null,
      href: open && this.delivered ? (findItem(this.launch.items, this.delivered)?.href ?? null) : null,
      idle: this.idle,
      unloading: this.unloading,
      notice: this.notice,
      access,
      previous: button('previous'),
      continue: button('continue'),
    }
  }

  private accessOf(a: EngineActivity, process: EngineProcess | null, flowTarget: string | null): ItemAccess {
    const hidden = !a.isVisible || a.isHiddenFromChoice || a.sequencingRules.preConditionRules.some((r) => r.action === 'hiddenFromChoice' && r.evaluate(a))
    if (hidden) return { kind: 'hidden' }
    if (a.id === this.delivered) return { kind: 'open' }
    if (this.idle === 'suspended' || this.idle === 'ended') return { kind: 'disabled', reason: 'Resume the lesson first.' }
    if (process?.predictChoiceEnabled(a.id)) return { kind: 'available' }
    if (a.id === flowTarget) return { kind: 'available', via: 'continue' }
    const before = prerequisitesOf(this.launch.items, a.id).map((i) => i.title)
    if (before.length) return { kind: 'disabled', reason: `Available after ${quoted(before)}.` }
    if (a.parent && !a.parent.sequencingControls.choice) return { kind: 'disabled', reason: 'Reached with Continue and Previous only.' }
    if (a.hasAttemptLimitExceeded()) return { kind: 'disabled', reason: 'No attempts left.' }
    return { kind: 'disabled', reason: 'Not available yet.' }
  }
}

/** Creates the visit's engine with its stored state restored; call `start()` to deliver the first SCO. */
export function startSequencedSession(opts: StartSequencedSessionOptions): SequencedSession {
  return new SequencedSession(opts)
}
