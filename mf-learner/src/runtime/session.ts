import type { ScormCommit, ScormItem, ScormLaunch, ScormVersion } from '@portal/contracts'
import { AICC_ERRORS, AICC_IDENTIFIER, AICC_IDENTIFIER_ELEMENTS, AiccError, AiccModel } from './aicc.ts'
import { refusal12, refusal2004, timespan12, TIMESPAN_READS_12, zonedTime2004 } from './data-model.ts'
import { COMMIT_FAILED, commitBody, nextSeq, sendCommit, wireJson, type AckedCommit, type CommitAnswer, type RenderedCommit } from './commit.ts'
import { DeferredCommit, type FetchLater } from './deferred-commit.ts'
import { scorm12Class, scorm2004Class } from './loader.ts'
import type { Api12 as Scorm12API, Api2004 as Scorm2004API, Api2004Sequenced as Scorm2004Sequenced } from './scorm-again-types.ts'
import { itemAfter, launchableItems, parseNavRequest, type NavRequest } from './navigation.ts'

export interface RuntimeStatus {
  lessonStatus: string | null
  completionStatus: string | null
  successStatus: string | null
  scoreRaw: number | null
  scoreScaled: number | null
  progressMeasure: number | null
}

export interface ScormSessionEvents {
  /** LMSInitialize / Initialize succeeded. */
  onInitialize?(): void
  /** After each successful Set. */
  onChange?(element: string, value: string, status: RuntimeStatus): void
  /** LMSFinish / Terminate succeeded (once per session). */
  onFinish?(e: { status: RuntimeStatus; navRequest: NavRequest | null }): void
  /** A commit failed. */
  onCommitError?(message: string): void
  /** The server accepted a commit sent by fetch (its answer, e.g. `moduleCompleted`); beacons have no answer. */
  onCommitted?(answer: CommitAnswer): void
  /** Any API call (activity tracker). */
  onActivity?(): void
}

export interface ScormSession {
  readonly itemId: string
  readonly version: ScormVersion
  readonly initialized: boolean
  readonly finished: boolean
  status(): RuntimeStatus
  /** Final commit now by beacon (page dismissal); harmless to call repeatedly or after finish. */
  flush(): void
  /** Flushes if needed and removes the API object(s) from the host window. */
  destroy(): void
  /**
   * The item is an asset (`scormtype="asset"`), which never talks to the runtime: it counts as
   * done once launched (as SCORM Cloud does). Initializes the session, reports it completed and commits.
   */
  assetLaunched(): void
}

export interface StartScormSessionOptions {
  launch: ScormLaunch
  itemId: string
  host: Window
  events?: ScormSessionEvents
  /** scorm-again log level (1 debug … 5 none); default 4 (errors). */
  logLevel?: 1 | 2 | 3 | 4 | 5
  /** Sequenced packages: the SCO runs on the visit's sequencing engine instead of an API of its own. */
  engine?: SessionEngine
  /** The browser's `fetchLater` (tests pass a fake; null: none). Default: the window's, where there is one. */
  fetchLater?: FetchLater | null
}

/** The visit's SCORM 2004 API with its sequencing engine (see sequenced-session.ts), as one SCO session uses it. */
export interface SessionEngine {
  api: Scorm2004Sequenced
  /**
   * The sequencing report a commit carries (engine state, root rollup), or undefined when there is
   * nothing new. `dryRun`: for a commit that may never be sent (the standing one), nothing is marked as reported.
   */
  report(final: boolean, dryRun?: boolean): ScormCommit['sequencing'] | undefined
}

/** What scorm-again's HTTP service hands a commit to. */
export interface CommitTarget {
  commitRendered(rendered: RenderedCommit, final: boolean): Promise<void>
}

/**
 * scorm-again's HTTP service: hands each rendered commit to `target()` (which builds the
 * `ScormCommit` body and sends it) and answers at once; the send reports its own failures.
 */
export function commitService(target: () => CommitTarget | null) {
  return {
    reportsRequestCompletion: true,
    processHttpRequest: (_url: string, params: unknown, immediate: boolean, _apiLog: unknown, _listeners: unknown, _metadata?: unknown, onRequestComplete?: () => void) => {
      const t = target()
      if (!t) onRequestComplete?.()
      else void t.commitRendered(params as RenderedCommit, immediate).finally(() => onRequestComplete?.())
      return { result: TRUE, errorCode: 0 }
    },
    updateSettings: () => {},
  }
}

/** The settings every runtime API of a launch gets (commits go through `httpService`). */
export const runtimeSettings = (launch: ScormLaunch, logLevel: number, httpService: ReturnType<typeof commitService>) => ({
  lmsCommitUrl: launch.commitUrl,
  dataCommitFormat: 'json',
  renderCommonCommitFields: true,
  // every commit carries total_time (stored + this session) so a resume never loses or double-counts it
  alwaysSendTotalTime: true,
  autocommit: true,
  autocommitSeconds: 5,
  autoCompleteLessonStatus: true,
  mastery_override: false,
  logLevel,
  httpService,
})

type Api = Scorm12API | Scorm2004API
type Fn = (...args: never[]) => string
type StringKeyMap = Record<string, unknown>

const TRUE = 'true'
const FALSE = 'false'

/**
 * Values set and not yet committed, in characters, past which the session commits within
 * EARLY_COMMIT_MS instead of at the 5 s autocommit: large values (suspend data of up to 64,000
 * characters) reach the server early, so what a final commit must still carry stays small.
 */
export const EARLY_COMMIT_CHARS = 4_000
export const EARLY_COMMIT_MS = 500
/** SCORM 1.2 "General Exception": what LMSGetValue, LMSSetValue and LMSCommit answer after LMSFinish. */
const AFTER_TERMINATION_12 = 101

function findItem(items: ScormItem[], id: string): ScormItem | null {
  for (const i of items) {
    if (i.identifier === id) return i
    const found = findItem(i.children, id)
    if (found) return found
  }
  return null
}

const isObj = (v: unknown): v is StringKeyMap => typeof v === 'object' && v !== null && !Array.isArray(v)
const num = (v: unknown): number | null => {
  if (typeof v !== 'string' || v.trim() === '') return null
  const n = Number(v)
  return Number.isFinite(n) ? n : null
}
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)

/** Assigns an LMS-supplied value before Initialize; a value the data model refuses is left out. */
function preset(apply: () => void): void {
  try {
    apply()
  } catch {
    // invalid manifest value (e.g. a malformed mastery score): the element keeps its default
  }
}

/** The stored cmi without what must not carry over into a new session. */
function storedCmi(launch: ScormLaunch, itemId: string): StringKeyMap {
  const state = launch.state[itemId]
  if (!state) return {}
  const tree = isObj(state.cmi.cmi) ? state.cmi.cmi : state.cmi
  const cmi: StringKeyMap = { ...tree }
  // session values start fresh; identity, entry and launch facts come from this launch
  for (const k of ['session_time', 'exit', 'entry', 'learner_id', 'learner_name', 'credit', 'mode', 'launch_data']) delete cmi[k]
  if (isObj(cmi.core)) {
    const core: StringKeyMap = { ...cmi.core }
    for (const k of ['session_time', 'exit', 'entry', 'student_id', 'student_name', 'credit', 'lesson_mode']) delete core[k]
    cmi.core = core
  }
  return cmi
}

export class Session implements ScormSession, CommitTarget {
  readonly itemId: string
  readonly version: ScormVersion
  private readonly api: Api
  private readonly engine: SessionEngine | null
  /** While Terminate runs on the engine: final commits wait until its navigation is done (see finish). */
  private holding = false
  private held: { body: ScormCommit; done: () => void }[] = []
  private readonly aicc: AiccModel | null
  private readonly facade: Record<string, unknown>
  private readonly globalName: 'API' | 'API_1484_11'
  private readonly launch: ScormLaunch
  /** The adl.data stores as this session found them (what its commits' adlData are measured against). */
  private readonly sharedAtStart: Record<string, string>
  private readonly host: Window
  private events: ScormSessionEvents
  private isFinished = false
  private destroyed = false
  /** Destroyed on the engine: the facade answers nothing any more (see destroy). */
  private detached = false
  private statusSetByContent = false
  /** The engine suspends the activity at this Terminate (suspendAll): the attempt carries over whatever cmi.exit says. */
  private suspendedByNav = false
  /** 1.2 `cmi.core.exit` as last set by the content (the element is write-only). */
  private exit12 = ''
  /** Successful Sets so far, and how many there were at the last flush (-1: never flushed). */
  private changes = 0
  private changesFlushed = -1
  /** The last commit the server said it stored: a final commit too large for a beacon is the patch from it. */
  private acked: AckedCommit | null = null
  /** The final commit the browser sends if the page goes away with no script of ours running (fetchLater). */
  private readonly deferred: DeferredCommit
  private deferredQueued = false
  /** Characters set since the last commit went out, and whether an early commit is scheduled for them. */
  private unsentChars = 0
  private earlyCommit = false

  constructor(opts: StartScormSessionOptions) {
    const { launch, itemId, host } = opts
    const item = findItem(launch.items, itemId)
    if (!item || !item.href) throw new Error(`No launchable item "${itemId}" in this package`)
    this.itemId = itemId
    this.version = launch.version
    this.launch = launch
    this.sharedAtStart = { ...launch.sharedData }
    this.host = host
    this.events = opts.events ?? {}
    this.engine = opts.engine ?? null
    this.deferred = new DeferredCommit(launch.commitUrl, opts.fetchLater)
    const settings = runtimeSettings(
      launch,
      opts.logLevel ?? 4,
      commitService(() => this),
    )
    if (this.engine) {
      this.api = this.engine.api
      this.aicc = null
      this.globalName = 'API_1484_11'
    } else if (launch.version === '2004') {
      const launchable = new Set(launchableItems(launch.items).map((i) => i.identifier))
      const Scorm2004 = scorm2004Class()
      this.api = new Scorm2004({ ...settings, scoItemIdValidator: (id: string) => launchable.has(id) })
      this.aicc = null
      this.globalName = 'API_1484_11'
    } else {
      const Scorm12 = scorm12Class()
      this.api = new Scorm12(settings)
      this.aicc = launch.version === 'AICC' ? new AiccModel() : null
      this.globalName = 'API'
    }
    this.loadState(item)
    this.facade = this.version === '2004' ? this.facade2004(this.api as Scorm2004API) : this.facade12(this.api as Scorm12API)
    ;(host as unknown as Record<string, unknown>)[this.globalName] = this.facade
  }

  get initialized(): boolean {
    return this.api.isInitialized() || this.isFinished
  }

  get finished(): boolean {
    return this.isFinished
  }

  status(): RuntimeStatus {
    if (this.version === '2004') {
      const cmi = (this.api as Scorm2004API).cmi
      return {
        lessonStatus: null,
        completionStatus: this.completionStatus2004() ?? text(cmi.completion_status),
        successStatus: text(cmi.success_status),
        scoreRaw: num(cmi.score.raw),
        scoreScaled: num(cmi.score.scaled),
        progressMeasure: num(cmi.progress_measure),
      }
    }
    const cmi = (this.api as Scorm12API).cmi
    return {
      lessonStatus: text(cmi.core.lesson_status),
      completionStatus: null,
      successStatus: null,
      scoreRaw: num(cmi.core.score.raw),
      scoreScaled: null,
      progressMeasure: null,
    }
  }

  flush(): void {
    if (this.isFinished || !this.api.isInitialized()) return
    // the first flush always tells the server the session ended; later ones only carry changes
    if (this.changesFlushed === this.changes) return
    this.changesFlushed = this.changes
    this.api.clearScheduledCommit()
    const rendered = this.api.renderCommitObject(true, true) as unknown as RenderedCommit
    this.send(rendered, true)
  }

  destroy(): void {
    if (this.destroyed) return
    this.flush()
    this.api.clearScheduledCommit()
    this.deferred.disarm()
    this.destroyed = true
    // a frame still unloading may call Finish later: it still saves, but the viewer hears nothing
    this.events = {}
    // ...except on the engine, whose API the next SCO's session now uses: this one's calls end here
    if (this.engine) this.detached = true
    const h = this.host as unknown as Record<string, unknown>
    if (h[this.globalName] === this.facade) delete h[this.globalName]
  }

  assetLaunched(): void {
    const api = this.facade as Record<string, (...args: string[]) => string>
    if (this.version === '2004') {
      api.Initialize!('')
      api.SetValue!('cmi.completion_status', 'completed')
      api.Commit!('')
    } else {
      api.LMSInitialize!('')
      api.LMSSetValue!('cmi.core.lesson_status', 'completed')
      api.LMSCommit!('')
    }
  }

  // ---------- loading ----------

  private loadState(item: ScormItem): void {
    const launch = this.launch
    const entry = launch.state[this.itemId]?.entry ?? 'ab-initio'
    let cmi = storedCmi(launch, this.itemId)
    if (this.aicc) cmi = this.aicc.loadFrom(cmi)
    if (Object.keys(cmi).length > 0) this.api.loadFromJSON(cmi, 'cmi')
    if (this.version === '2004') {
      const api = this.api as Scorm2004API
      const c = api.cmi
      preset(() => (c.learner_id = launch.learner.id))
      preset(() => (c.learner_name = launch.learner.name))
      preset(() => (c.entry = entry))
      preset(() => (c.credit = 'credit'))
      preset(() => (c.mode = 'normal'))
      if (item.launch_data !== null) preset(() => (c.launch_data = item.launch_data ?? ''))
      if (item.completion_threshold !== null) preset(() => (c.completion_threshold = String(item.completion_threshold)))
      if (item.scaled_passing_score !== null) preset(() => (c.scaled_passing_score = String(item.scaled_passing_score)))
      if (item.max_time_allowed) preset(() => (c.max_time_allowed = item.max_time_allowed ?? ''))
      if (item.time_limit_action) preset(() => (c.time_limit_action = item.time_limit_action ?? ''))
      this.presetObjectives(api, item)
      // with the sequencing engine, adl.nav.request_valid is the engine's answer
      if (!this.engine) this.presetNavigation(api)
      this.presetSharedData(api, item)
    } else {
      const c = (this.api as Scorm12API).cmi
      preset(() => (c.core.student_id = launch.learner.id))
      preset(() => (c.core.student_name = launch.learner.name))
      preset(() => (c.core.entry = entry))
      preset(() => (c.core.credit = 'credit'))
      preset(() => (c.core.lesson_mode = 'normal'))
      if (item.launch_data !== null) preset(() => (c.launch_data = item.launch_data ?? ''))
      if (item.mastery_score !== null) preset(() => (c.student_data.mastery_score = String(item.mastery_score)))
      if (item.max_time_allowed) preset(() => (c.student_data.max_time_allowed = item.max_time_allowed ?? ''))
      if (item.time_limit_action) preset(() => (c.student_data.time_limit_action = item.time_limit_action ?? ''))
    }
  }

  /**
   * cmi.objectives starts with the objectives the item's sequencing declares (SCORM 2004 RTE:
   * content looks them up by id, e.g. the Golf advanced calls sample); stored ones keep their data.
   */
  private presetObjectives(api: Scorm2004API, item: ScormItem): void {
    const objectives = api.cmi.objectives
    const have = new Set(objectives.childArray.map((o) => o.id))
    for (const id of item.objective_ids ?? []) {
      if (have.has(id)) continue
      // appended at the end; an id the data model refuses leaves no gap
      preset(() => api.setCMIValue(`cmi.objectives.${objectives.childArray.length}.id`, id))
      have.add(id)
    }
  }

  /** adl.nav.request_valid answered from the item list (no sequencing engine). */
  private presetNavigation(api: Scorm2004API): void {
    const items = this.launch.items
    const valid = api.adl.nav.request_valid
    const yes = (b: boolean) => (b ? 'true' : 'false')
    preset(() => (valid.continue = yes(itemAfter(items, this.itemId, { kind: 'continue' }) !== null)))
    preset(() => (valid.previous = yes(itemAfter(items, this.itemId, { kind: 'previous' }) !== null)))
    // targets the data model's pattern refuses are answered by scoItemIdValidator alone
    for (const { identifier } of launchableItems(items)) {
      preset(() => (valid.choice = { ...valid.choice.getAll(), [identifier]: 'true' }))
      preset(() => (valid.jump = { ...valid.jump.getAll(), [identifier]: 'true' }))
    }
  }

  /** adl.data: the stores this SCO maps (manifest), preloaded with the package's shared data. */
  private presetSharedData(api: Scorm2004API, item: ScormItem): void {
    const shared = this.launch.sharedData
    const maps = item.data_maps ?? Object.keys(shared).map((targetID) => ({ targetID, readSharedData: true, writeSharedData: true }))
    api.adl.restoreSharedDataSnapshot(shared)
    api.adl.configureSharedDataMaps(maps)
  }

  // ---------- commits ----------

  /** A commit scorm-again rendered (autocommit, Commit, Terminate): see `commitService`. */
  commitRendered(rendered: RenderedCommit, final: boolean): Promise<void> {
    return this.send(rendered, final)
  }

  private send(rendered: RenderedCommit, final: boolean): Promise<void> {
    const body = this.bodyOf(rendered, final)
    this.remember(body)
    // what was set is on its way: the next early commit waits for new values
    this.unsentChars = 0
    this.earlyCommit = false
    if (this.holding && final) return new Promise((done) => this.held.push({ body, done }))
    return this.post(body)
  }

  /** The `ScormCommit` of a rendered commit, with the next seq of the launch. */
  private bodyOf(rendered: RenderedCommit, final: boolean): ScormCommit {
    const runtimeData = isObj(rendered.runtimeData) ? { ...rendered.runtimeData } : {}
    if (this.aicc && isObj(runtimeData.cmi)) runtimeData.cmi = mergeAicc(runtimeData.cmi, this.aicc.toJSON())
    // SN: a suspendAll suspends the SCO's attempt; stored as an exit of suspend (unless the content set another exit)
    if (final && this.suspendedByNav && isObj(runtimeData.cmi) && !runtimeData.cmi.exit) runtimeData.cmi = { ...runtimeData.cmi, exit: 'suspend' }
    return commitBody(
      { ...rendered, runtimeData },
      {
        itemId: this.itemId,
        seq: nextSeq(this.launch.launchToken),
        terminated: final,
        adlData: this.changedSharedData(rendered),
        // the server stores it only while no other launch (tab) stored newer work since this one began
        revision: this.launch.revision,
      },
    )
  }

  private post(body: ScormCommit): Promise<void> {
    const sequencing = this.engine?.report(body.terminated)
    const json = wireJson(sequencing ? { ...body, sequencing } : body, this.acked)
    // A final commit going out replaces the standing one; after any other, the standing one
    // needs a later seq than this (the server keeps a launch's highest).
    if (body.terminated) this.deferred.disarm()
    else this.queueDeferred()
    return sendCommit(this.launch.commitUrl, json, body.terminated).then((answer) => {
      if (!answer) this.events.onCommitError?.(COMMIT_FAILED)
      else if (!answer.beacon) {
        if (answer.applied) this.acknowledged(body)
        this.events.onCommitted?.(answer)
      }
    })
  }

  /** The server stored `body`: later final commits may be patches from it. */
  private acknowledged(body: ScormCommit): void {
    if (this.acked && this.acked.seq >= body.seq) return
    this.acked = { seq: body.seq, runtimeData: body.runtimeData }
    this.queueDeferred()
  }

  /** Renews the standing final commit once the current task is done (many Sets give one renewal). */
  private queueDeferred(): void {
    if (!this.deferred.available || this.deferredQueued) return
    this.deferredQueued = true
    queueMicrotask(() => {
      this.deferredQueued = false
      this.renewDeferred()
    })
  }

  /**
   * Has the browser hold the final commit of the session as it stands now (the whole tree, else
   * the patch from the last stored commit), to be sent if the page goes away without our
   * dismissal handlers running; nothing once the session is over.
   */
  private renewDeferred(): void {
    // Nothing since the last dismissal commit (or the session is over): nothing to hold.
    if (this.isFinished || this.destroyed || !this.api.isInitialized() || this.changesFlushed === this.changes) return this.deferred.disarm()
    const body = this.bodyOf(this.api.renderCommitObject(true, true) as unknown as RenderedCommit, true)
    const sequencing = this.engine?.report(true, true)
    const whole = sequencing ? { ...body, sequencing } : body
    if (this.deferred.arm(JSON.stringify(whole))) return
    const patch = wireJson(whole, this.acked, 0)
    if (!this.acked || !this.deferred.arm(patch)) this.deferred.disarm()
  }

  /**
   * Keeps the launch answer current with what was sent, as the server stores it: a later session of
   * this launch (another SCO, or this one again in the same visit) then starts from this state and
   * these adl.data stores, not from the ones the module was opened with.
   */
  private remember(body: ScormCommit): void {
    const cmi = isObj(body.runtimeData.cmi) ? body.runtimeData.cmi : {}
    const exit = this.version === '2004' ? cmi.exit : isObj(cmi.core) ? cmi.core.exit : undefined
    // SCORM 2004 RTE 4.2.9: an attempt that ended with any exit but suspend is not resumed; the
    // SCO's next session in this visit starts a new one from nothing, as the next launch does.
    if (this.version === '2004' && body.terminated && exit !== 'suspend') delete this.launch.state[this.itemId]
    else this.launch.state[this.itemId] = { cmi: body.runtimeData, entry: exit === 'suspend' ? 'resume' : '', updated_at: new Date().toISOString() }
    for (const { id, store } of body.adlData ?? []) this.launch.sharedData[id] = store
  }

  /** adl.data stores whose value differs from what this session preloaded. */
  private changedSharedData(rendered: RenderedCommit): { id: string; store: string }[] | undefined {
    if (this.version !== '2004') return undefined
    const snapshot = rendered.sharedData ?? (this.api as Scorm2004API).adl.captureWritableSharedDataSnapshot()
    const changed = Object.entries(snapshot)
      .filter(([id, store]) => this.sharedAtStart[id] !== store)
      .map(([id, store]) => ({ id, store }))
    return changed.length > 0 ? changed : undefined
  }

  // ---------- the API objects the content calls ----------

  private activity(): void {
    this.events.onActivity?.()
  }

  private initialize(call: () => string): string {
    this.activity()
    const result = call()
    if (result === TRUE) {
      this.events.onInitialize?.()
      // from now on the session's end reaches the server even if the page dies
      this.queueDeferred()
    }
    return result
  }

  private finish(call: () => string, navRequest: () => NavRequest | null): string {
    this.activity()
    if (this.isFinished) {
      call() // records the spec's error (1.2: 101, 2004: 113)
      return FALSE
    }
    if (this.version !== '2004') {
      const api = this.api as Scorm12API
      // learner §4: never set by the content and still 'not attempted' → completed on finish
      if (!this.statusSetByContent && api.cmi.core.lesson_status === 'not attempted') api.statusSetByModule = false
    }
    const request = this.api.isInitialized() ? navRequest() : null
    if (this.engine && request?.kind === 'suspendAll') this.suspendedByNav = true
    // On the engine, Terminate's commit is rendered before the navigation it carries out: it goes
    // out after, with the engine state that navigation left (a suspended activity, the next SCO).
    this.holding = this.engine !== null
    let result: string
    try {
      result = call()
    } finally {
      this.holding = false
      for (const { body, done } of this.held.splice(0)) void this.post(body).finally(done)
    }
    if (result === TRUE) {
      this.isFinished = true
      this.events.onFinish?.({ status: this.status(), navRequest: request })
    }
    return result
  }

  private setValue(element: string, value: unknown, set: (value: unknown) => string): string {
    this.activity()
    const finished = this.afterFinish12(element, FALSE)
    if (finished !== null) return finished
    const v = value === undefined || value === null ? '' : String(value)
    const call = () => set(value)
    let result: string
    if (this.aicc && (this.aicc.handles(element) || AICC_IDENTIFIER_ELEMENTS.test(element))) {
      result = this.aiccSet(element, v, call)
    } else if (this.api.isInitialized() && this.refuses(element, v)) {
      result = FALSE
    } else {
      if (element === 'cmi.core.lesson_status') this.statusSetByContent = true
      const zoned = this.version === '2004' ? zonedTime2004(element, v) : null
      result = zoned ? this.setZonedTime(element, zoned, set) : call()
    }
    if (result === TRUE) {
      if (element === 'cmi.core.exit') this.exit12 = v
      this.changes++
      this.commitLargeValuesEarly(v.length)
      this.queueDeferred()
      this.events.onChange?.(element, v, this.status())
    }
    return result
  }

  /** Large values set and not yet committed go out within EARLY_COMMIT_MS (the autocommit's schedule, sooner). */
  private commitLargeValuesEarly(chars: number): void {
    this.unsentChars += chars
    if (this.earlyCommit || this.unsentChars < EARLY_COMMIT_CHARS || !this.api.isInitialized()) return
    this.earlyCommit = true
    this.api.clearScheduledCommit()
    this.api.scheduleCommit(EARLY_COMMIT_MS, this.version === '2004' ? 'Commit' : 'LMSCommit')
  }

  /** A value the data model refuses though scorm-again would take it (data-model.ts): the error is recorded. */
  private refuses(element: string, value: string): boolean {
    const code =
      this.version === '1.2'
        ? refusal12(element, value, { interactionType: (n) => (this.api as Scorm12API).cmi.interactions?.childArray[n]?._type ?? '' })
        : this.version === '2004'
          ? refusal2004(element, value)
          : null
    if (code === null) return false
    this.api.throwSCORMError(element, code)
    return true
  }

  /** A 2004 time with a time zone designator: scorm-again checks the time, the element keeps the whole value. */
  private setZonedTime(element: string, zoned: { check: string; keep: string }, set: (value: unknown) => string): string {
    const result = set(zoned.check)
    if (result !== TRUE) return result
    const [, list, index] = /^cmi\.(interactions|comments_from_learner)\.(\d+)\./.exec(element) ?? []
    const cmi = (this.api as Scorm2004API).cmi as unknown as Record<string, { childArray: Record<string, unknown>[] }>
    const entry = list ? cmi[list]?.childArray[Number(index)] : undefined
    if (entry) entry._timestamp = zoned.keep
    return result
  }

  private aiccSet(element: string, value: string, call: () => string): string {
    const api = this.api as Scorm12API
    const aicc = this.aicc as AiccModel
    if (api.isNotInitialized()) {
      api.throwSCORMError(element, AICC_ERRORS.notInitialized)
      return FALSE
    }
    if (!aicc.handles(element)) {
      // a 1.2 identifier element: AICC allows word characters only
      if (!AICC_IDENTIFIER.test(value)) {
        api.throwSCORMError(element, AICC_ERRORS.typeMismatch)
        return FALSE
      }
      return call()
    }
    try {
      aicc.set(element, value, true)
    } catch (e) {
      api.throwSCORMError(element, e instanceof AiccError ? e.code : 101)
      return FALSE
    }
    api.lastErrorCode = '0'
    if (api.isInitialized()) api.scheduleCommit(5_000, 'LMSCommit')
    return TRUE
  }

  /**
   * SCORM 1.2 after LMSFinish: LMSGetValue, LMSSetValue and LMSCommit fail with 101 and change
   * nothing (scorm-again's 1.2 API does not check termination for them: it answers and stores).
   * Answers the call's failure value, or null to let the call run.
   */
  private afterFinish12(element: string, failure: string): string | null {
    if (this.version === '2004' || !this.isFinished) return null
    ;(this.api as Scorm12API).throwSCORMError(element, AFTER_TERMINATION_12)
    return failure
  }

  private getValue(element: string, call: () => string): string {
    this.activity()
    const finished = this.afterFinish12(element, '')
    if (finished !== null) return finished
    const aicc = this.aicc
    if (!aicc || !aicc.handles(element)) return this.read(element, call)
    const api = this.api as Scorm12API
    if (api.isNotInitialized()) {
      api.throwSCORMError(element, AICC_ERRORS.notInitialized)
      return ''
    }
    try {
      const value = aicc.get(element)
      api.lastErrorCode = '0'
      return value
    } catch (e) {
      api.throwSCORMError(element, e instanceof AiccError ? e.code : 101)
      return ''
    }
  }

  /**
   * RTE 4.2.4.1: with a completion threshold and a progress measure, the measure decides the
   * completion status, whatever the content set (null: the stored status stands).
   */
  private completionStatus2004(): string | null {
    const cmi = (this.api as Scorm2004API).cmi as unknown as { completion_threshold?: unknown; progress_measure?: unknown }
    const threshold = num(cmi.completion_threshold)
    const measure = num(cmi.progress_measure)
    return threshold === null || measure === null ? null : measure >= threshold ? 'completed' : 'incomplete'
  }

  /** A read through scorm-again, with the data model's own format where it differs (data-model.ts). */
  private read(element: string, call: () => string): string {
    if (this.version === '2004' && element === 'cmi.completion_status') {
      const value = call()
      return this.api.lastErrorCode === '0' ? (this.completionStatus2004() ?? value) : value
    }
    if (this.version === '2004' && element === 'adl.nav.request' && this.api.isInitialized()) {
      this.api.lastErrorCode = '0'
      return (this.api as Scorm2004API).adl.nav.request
    }
    const value = call()
    const empty = this.version === '2004' ? undefined : TIMESPAN_READS_12[element]
    if (empty === undefined || this.api.lastErrorCode !== '0') return value
    return value === '' ? empty : timespan12(value)
  }

  private wrap<F extends Fn>(f: F): F {
    return ((...args: never[]) => {
      this.activity()
      return f(...args)
    }) as F
  }

  private facade12(api: Scorm12API): Record<string, unknown> {
    const param = (p: unknown) => (p === undefined || p === null ? '' : String(p))
    return {
      LMSInitialize: (p?: unknown) => this.initialize(() => api.lmsInitialize(param(p))),
      LMSFinish: (p?: unknown) =>
        this.finish(
          () => api.lmsFinish(param(p)),
          () => this.navRequest12(api),
        ),
      LMSGetValue: (el: string) => this.getValue(String(el), () => api.lmsGetValue(navAlias(String(el)))),
      LMSSetValue: (el: string, v: unknown) => this.setValue(String(el), v, (value) => api.lmsSetValue(navAlias(String(el)), value)),
      LMSCommit: (p?: unknown) => {
        this.activity()
        return this.afterFinish12('', FALSE) ?? api.lmsCommit(param(p))
      },
      LMSGetLastError: this.wrap(() => api.lmsGetLastError()),
      LMSGetErrorString: this.wrap((code: string) => api.lmsGetErrorString(String(code))),
      LMSGetDiagnostic: this.wrap((code: string) => api.lmsGetDiagnostic(String(code))),
    }
  }

  private facade2004(api: Scorm2004API): Record<string, unknown> {
    const param = (p: unknown) => (p === undefined || p === null ? '' : String(p))
    const live = <F extends Fn>(f: F, dead: string): F => ((...args: never[]) => (this.detached ? dead : f(...args))) as F
    return {
      version: '1.0',
      Initialize: live((p?: unknown) => this.initialize(() => api.lmsInitialize(param(p))), FALSE),
      Terminate: live((p?: unknown) => this.terminate(param(p)), FALSE),
      GetValue: live((el: string) => this.getValue(String(el), () => api.lmsGetValue(String(el))), ''),
      SetValue: live((el: string, v: unknown) => this.setValue(String(el), v, (value) => api.lmsSetValue(String(el), value)), FALSE),
      Commit: live((p?: unknown) => {
        this.activity()
        return api.lmsCommit(param(p))
      }, FALSE),
      GetLastError: live(
        this.wrap(() => api.lmsGetLastError()),
        '0',
      ),
      GetErrorString: this.wrap((code: string) => api.lmsGetErrorString(String(code))),
      GetDiagnostic: this.wrap((code: string) => api.lmsGetDiagnostic(String(code))),
    }
  }

  /** Terminate (2004), as the content calls it or as the viewer does for content that never does. */
  terminate(parameter = ''): string {
    const api = this.api as Scorm2004API
    return this.finish(
      () => api.lmsFinish(parameter),
      () => parseNavRequest(api.adl.nav.request),
    )
  }

  /** 1.2: `cmi.nav.event` (continue/previous) first, else what `cmi.core.exit` asks for. */
  private navRequest12(api: Scorm12API): NavRequest | null {
    const event = api.nav.event
    if (event === 'continue' || event === 'previous') return { kind: event }
    const exit = this.exit12
    if (exit === 'suspend') return { kind: 'suspendAll' }
    if (exit === 'logout') return { kind: 'exitAll' }
    if (exit === 'time-out') return { kind: 'exit' }
    return null
  }
}

/** scorm-again's 1.2 navigation element is `nav.event`; content also writes it as `cmi.nav.event`. */
const navAlias = (el: string) => (el === 'cmi.nav.event' ? 'nav.event' : el)

/** Merges the AICC elements into the 1.2 cmi rendered by scorm-again. */
function mergeAicc(cmi: StringKeyMap, extras: StringKeyMap): StringKeyMap {
  const out: StringKeyMap = { ...cmi }
  for (const [k, v] of Object.entries(extras)) {
    out[k] = isObj(out[k]) && isObj(v) ? { ...out[k], ...v } : v
  }
  return out
}

/** Installs the API object on `host` with the stored state of `itemId` loaded (see index.ts). */
export function startScormSession(opts: StartScormSessionOptions): ScormSession {
  return new Session(opts)
}
