import { PROGRESS_TRACKER as T, type CompletionTrigger } from '@portal/contracts'
import { completionUrl, urlSlideProgress } from './signals.ts'

/** Time and timers, injected so tests can drive the tracker with a fake clock. */
export interface TrackerClock {
  now(): number
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
  setInterval(fn: () => void, ms: number): unknown
  clearInterval(handle: unknown): void
}

export const systemClock: TrackerClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (h) => globalThis.clearInterval(h as ReturnType<typeof setInterval>),
}

export interface ProgressTrackerOptions {
  /** Whether the module's package has editor changes (the tracker then starts later). */
  edited: boolean
  /** The module's stored progress: the tracker never reports less. */
  initialProgress?: number
  clock?: TrackerClock
  /** Called with every new, higher progress (at most 99). */
  onProgress: (progress: number) => void
  /** Called when a rule decides the module is complete; each rule asks at most once. */
  onComplete: (trigger: CompletionTrigger) => void
  /** URLs of the content frame (and its inner frames), checked every 3 s once started. */
  readUrls?: () => readonly string[]
}

/** Time-based progress after `elapsedMs` of viewing (learner §9). */
export const timeProgress = (elapsedMs: number): number => {
  const minutes = elapsedMs / 60_000
  if (minutes < 5) return Math.min(Math.floor(T.perMinuteUnder5 * minutes), T.capUnder5)
  if (minutes < 10) return Math.min(Math.floor(T.capUnder5 + T.perMinute5To10 * (minutes - 5)), T.cap5To10)
  return T.cap5To10
}

/** Activity-based progress: 8 per 3 interactions, capped at 85. */
export const activityProgress = (interactions: number): number => Math.min(Math.floor(interactions / 3) * T.activityPer3Interactions, T.activityCap)

/**
 * The viewer's progress tracker (learner §4, §9): raises a module's progress from time spent,
 * interactions, content messages and the content frame's URL, and decides completion by the
 * spec's fallback rules. It only asks (`onComplete`); the viewer tells it when completion was
 * recorded (`markCompleted`), since the server may refuse a completion that came too early.
 */
export class ProgressTracker {
  private readonly clock: TrackerClock
  private readonly opts: ProgressTrackerOptions
  private value: number
  private startTimer: unknown = null
  private intervals: unknown[] = []
  private startedAt: number | null = null
  private interactions = 0
  private burst = 0
  private lastInteractionAt = 0
  private patterns = 0
  private hiddenAbove = 0
  private completed = false
  private stopped = false
  /** The content talks to the SCORM runtime: its own status decides (see contentTalks). */
  private talking = false
  private readonly asked = new Set<string>()

  constructor(opts: ProgressTrackerOptions) {
    this.opts = opts
    this.clock = opts.clock ?? systemClock
    this.value = Math.min(Math.max(0, Math.floor(opts.initialProgress ?? 0)), T.maxBeforeComplete)
  }

  /** Current progress as the tracker knows it (100 once completion was recorded). */
  get progress(): number {
    return this.completed ? 100 : this.value
  }

  get started(): boolean {
    return this.startedAt !== null
  }

  get isCompleted(): boolean {
    return this.completed
  }

  /** Schedules the start: 1.5 s after load for unedited modules, 2 s for edited ones. */
  start(edited: boolean = this.opts.edited): void {
    if (this.startTimer !== null || this.startedAt !== null || this.stopped) return
    const delay = edited ? T.startDelayEditedMs : T.startDelayUneditedMs
    this.startTimer = this.clock.setTimeout(() => {
      this.startTimer = null
      this.begin()
    }, delay)
  }

  private begin(): void {
    if (this.stopped || this.completed) return
    this.startedAt = this.clock.now()
    this.raise(T.startPercent)
    this.intervals.push(this.clock.setInterval(() => this.checkTime(), T.timeCheckMs))
    this.intervals.push(this.clock.setInterval(() => this.checkActivity(), T.activityCheckMs))
    if (this.opts.readUrls) this.intervals.push(this.clock.setInterval(() => this.checkUrls(), T.urlCheckMs))
  }

  /**
   * The content talks to the SCORM runtime (issue 15): from now on its own reports decide. The
   * fallback rules for silent content — time, interactions, page hide, unload, completion pages,
   * slide numbers in URLs — neither complete the module nor raise its progress any more; what the
   * content reports (`messageProgress`, and the viewer's SCORM milestones) still does.
   */
  contentTalks(): void {
    this.talking = true
  }

  get contentDecides(): boolean {
    return this.talking
  }

  /** Stops every timer; the tracker then ignores everything. */
  stop(): void {
    this.stopped = true
    if (this.startTimer !== null) this.clock.clearTimeout(this.startTimer)
    this.startTimer = null
    for (const h of this.intervals) this.clock.clearInterval(h)
    this.intervals = []
  }

  /** The module's completion was recorded (by any trigger): nothing more to track. */
  markCompleted(): void {
    this.completed = true
    this.stop()
  }

  /** Raises progress to at least `value` (capped at 99: only completion makes 100). */
  raise(value: number): void {
    if (this.completed || this.stopped || !Number.isFinite(value)) return
    const next = Math.min(Math.floor(value), T.maxBeforeComplete)
    if (next <= this.value) return
    this.value = next
    this.opts.onProgress(next)
  }

  /** Progress reported by the content (postMessage, progress_measure, media position): capped at 99. */
  messageProgress(value: number): void {
    this.raise(Math.min(value, T.messageCap))
  }

  /** A user interaction with the content (click, key, scroll...). */
  interaction(): void {
    if (this.completed || this.stopped || this.talking) return
    this.interactions += 1
    this.burst += 1
    this.lastInteractionAt = this.clock.now()
    this.raise(activityProgress(this.interactions))
  }

  /** A real-user-activity signal: lifts progress below 50 to 60. */
  realActivity(): void {
    if (this.talking) return
    if (this.value < T.realActivityBelow) this.raise(T.realActivityFloor)
  }

  /** The page was hidden: the third time above 60 % completes the module. */
  pageHidden(): void {
    if (this.completed || this.stopped || this.talking || this.value <= T.hiddenMinProgress) return
    this.hiddenAbove += 1
    if (this.hiddenAbove >= T.hiddenTimesToComplete) this.ask('hidden', 'module-close')
  }

  /** The module is being closed (page unload, Close Course, another module): above 70 % that completes it. */
  unload(): boolean {
    if (this.completed || this.stopped || this.talking || this.value <= T.unloadMinProgress) return false
    return this.ask('unload', 'module-close')
  }

  /** Every 15 s: time-based progress; after 20 minutes the module completes. */
  checkTime(): void {
    if (this.startedAt === null || this.completed || this.stopped || this.talking) return
    const elapsed = this.clock.now() - this.startedAt
    if (elapsed >= T.autoCompleteMinutes * 60_000) {
      this.raise(T.cap5To10)
      this.ask('time', 'tracker')
      return
    }
    this.raise(timeProgress(elapsed))
  }

  /**
   * Every 10 s: a burst of more than 10 interactions followed by 30 s without any counts once;
   * the third such pattern, with progress above 50, completes the module.
   */
  checkActivity(): void {
    if (this.startedAt === null || this.completed || this.stopped || this.talking) return
    const idle = this.clock.now() - this.lastInteractionAt
    if (this.burst > T.activityPatternInteractions && idle >= T.activityPatternIdleMs) {
      this.patterns += 1
      this.burst = 0
    }
    if (this.patterns >= T.activityPatternRepeats && this.value > T.activityPatternMinProgress) this.ask('pattern', 'tracker')
  }

  /** Every 3 s: a completion page completes the module; slide and page numbers raise progress. */
  checkUrls(): void {
    if (this.startedAt === null || this.completed || this.stopped || this.talking || !this.opts.readUrls) return
    for (const url of this.opts.readUrls()) {
      if (completionUrl(url)) {
        this.ask(`url:${url}`, 'completion-url')
        return
      }
      const fromUrl = urlSlideProgress(url)
      if (fromUrl !== null) this.raise(fromUrl)
    }
  }

  /** Asks for completion once per rule (and once per completion URL). */
  private ask(rule: string, trigger: CompletionTrigger): boolean {
    if (this.asked.has(rule)) return false
    this.asked.add(rule)
    this.opts.onComplete(trigger)
    return true
  }
}
