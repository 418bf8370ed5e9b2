/*
 * The parts of scorm-again 3.4's API objects this runtime uses. Its bundled declarations import
 * their base class without a file extension, which NodeNext resolution cannot follow, so the
 * inherited members would be missing; these structural types describe what the ESM builds have.
 */

export type Settings = Record<string, unknown>

/** Members shared by the 1.2 and 2004 API classes (scorm-again `BaseAPI`). */
export interface BaseApi {
  lastErrorCode: string
  isInitialized(): boolean
  isNotInitialized(): boolean
  isTerminated(): boolean
  loadFromJSON(json: Record<string, unknown>, CMIElement?: string): void
  renderCommitObject(terminateCommit: boolean, includeTotalTime?: boolean): unknown
  scheduleCommit(when: number, callback: string): void
  clearScheduledCommit(): void
  throwSCORMError(CMIElement: string | undefined, errorNumber: number, message?: string): void
  lmsInitialize(parameter?: string): string
  lmsFinish(parameter?: string): string
  lmsGetValue(CMIElement: string): string
  lmsSetValue(CMIElement: string, value: unknown): string
  lmsCommit(parameter?: string): string
  lmsGetLastError(): string
  lmsGetErrorString(code: string): string
  lmsGetDiagnostic(code: string): string
}

interface Score12 {
  raw: string
  min: string
  max: string
}

export interface Api12 extends BaseApi {
  statusSetByModule: boolean
  nav: { event: string }
  cmi: {
    launch_data: string
    core: {
      student_id: string
      student_name: string
      lesson_status: string
      entry: string
      credit: string
      lesson_mode: string
      score: Score12
    }
    student_data: { mastery_score: string; max_time_allowed: string; time_limit_action: string }
    /** The element is write-only in 1.2: its value is read from the field behind it. */
    interactions?: { childArray: { _type?: string }[] }
  }
}

interface NavTargets {
  getAll(): Record<string, string>
}

export interface Api2004 extends BaseApi {
  cmi: {
    learner_id: string
    learner_name: string
    entry: string
    credit: string
    mode: string
    launch_data: string
    completion_threshold: string
    scaled_passing_score: string
    max_time_allowed: string
    time_limit_action: string
    completion_status: string
    success_status: string
    progress_measure: string
    score: Score12 & { scaled: string }
    objectives: { childArray: { id: string }[] }
  }
  /** Sets an element as the LMS (no initialization needed: what loadFromJSON uses). */
  setCMIValue(CMIElement: string, value: unknown): string
  adl: {
    nav: {
      /** Writable by the LMS too: a request set before the SCO terminates is processed at Terminate. */
      request: string
      request_valid: {
        continue: string
        previous: string
        get choice(): NavTargets
        set choice(v: Record<string, string>)
        get jump(): NavTargets
        set jump(v: Record<string, string>)
      }
    }
    restoreSharedDataSnapshot(snapshot: Record<string, string>): void
    configureSharedDataMaps(maps: { targetID: string; readSharedData: boolean; writeSharedData: boolean }[]): void
    captureWritableSharedDataSnapshot(): Record<string, string>
  }
}

/** The sequencing engine's view of one activity (scorm-again `Activity`). */
export interface EngineActivity {
  readonly id: string
  readonly parent: EngineActivity | null
  readonly children: EngineActivity[]
  readonly isVisible: boolean
  readonly isHiddenFromChoice: boolean
  readonly completionStatus: string
  readonly successStatus: string
  readonly sequencingControls: { readonly choice: boolean; readonly flow: boolean }
  readonly sequencingRules: { readonly preConditionRules: { readonly action: string; evaluate(activity: EngineActivity): boolean }[] }
  hasAttemptLimitExceeded(): boolean
}

/** The parts of scorm-again's OverallSequencingProcess the viewer reads (choice look-ahead, hidden controls). */
export interface EngineProcess {
  predictChoiceEnabled(activityId: string): boolean
  getEffectiveHideLmsUi(activity: EngineActivity | null): string[]
}

/** Scorm2004API with a `sequencing` setting: one instance for the whole visit, reset between SCOs. */
export interface Api2004Sequenced extends Api2004 {
  reset(): void
  processNavigationRequest(request: string, targetActivityId?: string): boolean
  previewNavigationRequest(request: 'continue' | 'previous'): { outcome: 'allowed' | 'blocked' | 'unknown'; targetActivityId?: string | null }
  serializeSequencingState(): string
  deserializeSequencingState(state: string): boolean
  restoreGlobalObjectiveSnapshot(snapshot: Record<string, unknown>): void
  getSequencingState(): { currentActivity: EngineActivity | null; rootActivity: EngineActivity | null }
  getSequencingService(): { getOverallSequencingProcess(): EngineProcess | null } | null
}

export type Api12Class = new (settings: Settings) => Api12
export type Api2004Class = new (settings: Settings) => Api2004
