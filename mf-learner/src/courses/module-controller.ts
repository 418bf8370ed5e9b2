import { COURSE_MESSAGES, PROGRESS_TRACKER as T, type CompleteModuleResponse, type CompletionTrigger } from '@portal/contracts'
import { ApiError, type ToastApi } from '@portal/ui-kit'
import { CompletionGuard } from './completion-guard.ts'
import { ProgressTracker, systemClock, type TrackerClock } from './tracker.ts'

/** A SCORM completion is asked for once the content's commit had time to arrive (autocommit every 5 s). */
export const REPORTED_STATUS_DELAY_MS = (T.scormAutocommitSeconds + 1) * 1000
/** After Finish/Terminate the final commit is already on its way. */
export const REPORTED_FINISH_DELAY_MS = 1_500

export type ReportedTrigger = 'scorm-status' | 'scorm-score' | 'scorm-finish'

/** The calls one module load makes (injected so the rules can be tested without a server). */
export interface ModuleCalls {
  saveProgress(moduleId: number, courseId: number, progress: number): Promise<unknown>
  complete(moduleId: number, courseId: number, trigger: CompletionTrigger): Promise<CompleteModuleResponse>
  /** Fire-and-forget completion that outlives the page (pagehide). */
  completeOnExit(moduleId: number, courseId: number, trigger: CompletionTrigger): void
}

export interface ModuleControllerOptions {
  moduleId: number
  courseId: number
  /** Stored progress and dates of the module when it was opened. */
  progress: number
  startedAt: string | null
  completedAt: string | null
  calls: ModuleCalls
  toast: Pick<ToastApi, 'success' | 'error' | 'info'>
  /** URLs of the content frame(s) for the tracker's completion-page and slide checks. */
  readUrls?: () => readonly string[]
  clock?: TrackerClock
  /** Progress as shown (after every raise and at completion). */
  onProgress?: (progress: number) => void
  /** A completion was recorded by the server (the viewer reloads the module list and shows toasts). */
  onCompleted?: (result: CompleteModuleResponse, trigger: CompletionTrigger) => void
}

export const MODULE_TOASTS = {
  saveFailed: 'Failed to save progress',
  completeFailed: 'Error recording course completion',
  trackingIssue: 'There was an issue with course tracking.',
  moduleCompleted: 'Module completed! You can now select any other module to continue.',
  courseCompleted: 'Course completed successfully!',
  congratulations: (title: string) => `Congratulations! You have completed every module of "${title}".`,
} as const

/**
 * One load of one module (learner §4): sends progress as it rises (1 when first opened, never down,
 * at most 99), asks for completion through the once-per-load guard, and runs the progress
 * tracker. The viewer feeds it signals (SCORM, frame, media, messages, page lifecycle).
 */
export class ModuleController {
  readonly tracker: ProgressTracker
  private readonly opts: ModuleControllerOptions
  private readonly clock: TrackerClock
  private reported: { trigger: ReportedTrigger; timer: unknown; tries: number } | null = null
  private readonly guard = new CompletionGuard()
  private sent: number
  private saving = false
  private queued: number | null = null
  private saveErrorShown = false
  private refusalShown = false
  private exiting = false
  private disposed = false

  constructor(opts: ModuleControllerOptions) {
    this.opts = opts
    this.clock = opts.clock ?? systemClock
    this.sent = opts.progress
    this.tracker = new ProgressTracker({
      edited: false,
      initialProgress: opts.progress,
      clock: opts.clock,
      readUrls: opts.readUrls,
      onProgress: (p) => this.progressed(p),
      onComplete: (trigger) => void this.complete(trigger),
    })
    if (opts.completedAt) {
      this.guard.succeeded()
      this.tracker.markCompleted()
    }
  }

  get completed(): boolean {
    return this.guard.done
  }

  /** The module was opened: progress 1 if it never was; then the tracker starts (later when edited). */
  open(edited: boolean): void {
    if (this.completed) return
    if (!this.opts.startedAt) this.tracker.raise(T.opened)
    this.tracker.start(edited)
  }

  /** The content talks to the SCORM runtime: its own status decides from now on (tracker.contentTalks). */
  contentTalks(): void {
    this.tracker.contentTalks()
  }

  get contentDecides(): boolean {
    return this.tracker.contentDecides
  }

  /** Raises progress (SCORM initialize 5, frame load 50, finish 95...). */
  raise(value: number): void {
    this.tracker.raise(value)
  }

  private progressed(progress: number): void {
    this.opts.onProgress?.(progress)
    if (progress <= this.sent) return
    this.queued = Math.max(this.queued ?? 0, progress)
    void this.flushProgress()
  }

  /** One save in flight at a time; the latest value wins. */
  private async flushProgress(): Promise<void> {
    if (this.saving || this.queued === null || this.exiting) return
    const value = this.queued
    this.queued = null
    this.saving = true
    try {
      await this.opts.calls.saveProgress(this.opts.moduleId, this.opts.courseId, value)
      this.sent = Math.max(this.sent, value)
    } catch {
      if (!this.saveErrorShown && !this.disposed) this.opts.toast.error(MODULE_TOASTS.saveFailed)
      this.saveErrorShown = true
    } finally {
      this.saving = false
    }
    if (this.queued !== null) await this.flushProgress()
  }

  /**
   * A completion reported by the SCORM content. The server accepts it once the content's commit
   * shows it, so it is asked for a little later (and once more if the commit was still on its way).
   */
  completeReported(trigger: ReportedTrigger, delayMs: number = trigger === 'scorm-finish' ? REPORTED_FINISH_DELAY_MS : REPORTED_STATUS_DELAY_MS): void {
    if (this.guard.done || this.disposed) return
    if (this.reported) {
      if (trigger !== 'scorm-finish') return
      this.clock.clearTimeout(this.reported.timer) // Finish: the final commit is out, ask sooner
    }
    const tries = this.reported?.tries ?? 0
    const timer = this.clock.setTimeout(() => void this.askReported(), delayMs)
    this.reported = { trigger, timer, tries }
  }

  private async askReported(): Promise<void> {
    const pending = this.reported
    if (!pending) return
    const last = pending.tries >= 1
    const ok = await this.complete(pending.trigger, { quietRefusal: !last })
    if (ok || last || this.guard.done || this.reported !== pending) {
      if (this.reported === pending) this.reported = null
      return
    }
    pending.tries += 1
    pending.timer = this.clock.setTimeout(() => void this.askReported(), REPORTED_STATUS_DELAY_MS)
  }

  /** A reported completion still waiting is asked for now (the module is being closed). */
  private flushReported(): void {
    const pending = this.reported
    if (!pending) return
    this.clock.clearTimeout(pending.timer)
    this.reported = null
    void this.complete(pending.trigger)
  }

  /**
   * Asks the server to record completion; true when it did (now). With `quietRefusal` a refusal
   * by the engagement rule is neither shown nor remembered (the commit may still be on its way).
   */
  async complete(trigger: CompletionTrigger, opts: { quietRefusal?: boolean } = {}): Promise<boolean> {
    if (!this.guard.begin(trigger)) return false
    if (this.exiting) {
      this.opts.calls.completeOnExit(this.opts.moduleId, this.opts.courseId, trigger)
      this.guard.succeeded()
      this.tracker.markCompleted()
      return true
    }
    try {
      const result = await this.opts.calls.complete(this.opts.moduleId, this.opts.courseId, trigger)
      this.guard.succeeded()
      this.tracker.markCompleted()
      this.opts.onProgress?.(100)
      this.opts.onCompleted?.(result, trigger)
      return true
    } catch (err) {
      if (err instanceof ApiError && err.status === 422 && opts.quietRefusal) {
        this.guard.failed()
      } else if (err instanceof ApiError && err.status === 422) {
        this.guard.refusedBy(trigger)
        // The learner's own click always gets an answer; automatic triggers say it once per load.
        if (trigger === 'manual') this.opts.toast.error(err.serverMessage ?? COURSE_MESSAGES.engageMoreManual)
        else if (!this.refusalShown) this.opts.toast.info(err.serverMessage ?? COURSE_MESSAGES.engageMore)
        if (trigger !== 'manual') this.refusalShown = true
      } else {
        this.guard.failed()
        this.opts.toast.error(MODULE_TOASTS.completeFailed)
      }
      return false
    }
  }

  /** A user interaction with the content. */
  interaction(): void {
    this.tracker.interaction()
  }

  /** Progress reported by the content (capped at 99). */
  contentProgress(value: number): void {
    this.tracker.messageProgress(value)
  }

  realActivity(): void {
    this.tracker.realActivity()
  }

  /** The page became hidden. */
  pageHidden(): void {
    this.tracker.pageHidden()
  }

  /** The page is going away (pagehide): the module-close fallback goes out as a keepalive request. */
  pageExit(): void {
    this.exiting = true
    this.flushReported()
    this.tracker.unload()
  }

  /** The page came back (from the back/forward cache): requests go out normally again. */
  pageShown(): void {
    this.exiting = false
  }

  /** The module is closed in the viewer (another module, Close Course): module-close fallback, then stop. */
  close(): void {
    if (this.disposed) return
    this.flushReported()
    this.tracker.unload()
    this.disposed = true
    this.tracker.stop()
  }
}
