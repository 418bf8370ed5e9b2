import type { ScormItem, ScormLaunch, ScormVersion } from '@portal/contracts'
import type { RuntimeStatus, ScormSession, ScormSessionEvents, SequencedSession, SequencingView } from '../runtime/index.ts'
import type { PlayerEvent, ViewerCommand } from './protocol.ts'

/** What the player uses of the runtime. */
export type PlayerRuntime = Pick<typeof import('../runtime/index.ts'), 'flushOnPageHide' | 'startScormSession' | 'startSequencedSession'>

/** The frame the player shows the open SCO in (sco-frame.ts; a fake in tests). */
export interface ScoFrameHost {
  /** Shows `href` in a fresh frame (the one before is removed); its loads count from 0. */
  show(href: string, title: string): void
  /**
   * Navigates the open frame away, so that its content's beforeunload, pagehide and unload run as
   * on a page leave (content often sets its exit there, then finishes), then removes it. Resolves
   * once it is gone; nothing to do without a frame.
   */
  unload(): Promise<void>
}

export interface PlayerDeps {
  /** The player's window: the SCO finds the API on it (its parent). */
  win: Window
  frame: ScoFrameHost
  send(event: PlayerEvent): void
  /** The runtime with the scorm-again build of `version` loaded. */
  loadRuntime(version: ScormVersion): Promise<PlayerRuntime>
}

const findItem = (items: readonly ScormItem[], id: string): ScormItem | null => {
  for (const i of items) {
    if (i.identifier === id) return i
    const inner = findItem(i.children, id)
    if (inner) return inner
  }
  return null
}

/**
 * The content player: runs the SCORM runtime on the content origin for one launch, shows the SCO
 * the viewer (or, for sequenced packages, the engine) picks, and reports to the viewer what its
 * progress rules need. Commands run one after another (showing a SCO waits for the last one to unload).
 */
export class Player {
  private readonly deps: PlayerDeps
  private rt: PlayerRuntime | null = null
  private launch: ScormLaunch | null = null
  /** Packages without sequencing: the open SCO's session. */
  private session: ScormSession | null = null
  /** Sequenced packages: the visit's engine. */
  private seq: SequencedSession | null = null
  /** The delivery shown (sequenced). */
  private shown = 0
  private unloading = false
  private activitySeen = false
  private pendingStatus: RuntimeStatus | null = null
  private unflush: () => void = () => undefined
  private queue: Promise<void> = Promise.resolve()
  private closed = false

  constructor(deps: PlayerDeps) {
    this.deps = deps
  }

  /** Runs a command of the viewer after the ones before it. */
  handle(cmd: ViewerCommand): Promise<void> {
    this.queue = this.queue.then(() => this.run(cmd)).catch(() => undefined)
    return this.queue
  }

  private async run(cmd: ViewerCommand): Promise<void> {
    if (this.closed) return
    switch (cmd.t) {
      case 'init':
        return this.init(cmd.launch)
      case 'open':
        return this.open(cmd.itemId)
      case 'navigate':
        this.seq?.navigate(cmd.request)
        return
      case 'resume':
        this.seq?.resume()
        return
      case 'close':
        return this.close()
    }
  }

  private async init(launch: ScormLaunch): Promise<void> {
    if (this.launch) return
    let rt: PlayerRuntime
    try {
      rt = await this.deps.loadRuntime(launch.version)
    } catch {
      this.deps.send({ t: 'failed', message: 'Failed to initialize SCORM' })
      return
    }
    this.rt = rt
    this.launch = launch
    // Commits go out by beacon when the page is hidden or dismissed.
    this.unflush = rt.flushOnPageHide(this.deps.win, () => this.seq ?? this.session)
    this.deps.send({ t: 'ready' })
    if (!launch.sequencing) return
    this.seq = rt.startSequencedSession({
      launch,
      host: this.deps.win,
      events: {
        ...this.sessionEvents(),
        onView: (view) => this.onView(view),
        onRootDone: (atFinish) => this.deps.send({ t: 'root-done', atFinish }),
      },
    })
    this.seq.start()
  }

  private sessionEvents(): ScormSessionEvents {
    return {
      onActivity: () => {
        if (this.activitySeen) return
        this.activitySeen = true
        this.deps.send({ t: 'activity' })
      },
      onInitialize: () => this.deps.send({ t: 'initialize' }),
      onChange: (_element, _value, status) => this.statusChanged(status),
      onCommitError: () => this.deps.send({ t: 'commit-error' }),
    }
  }

  /** Many Sets in a row (interactions, objectives) give one status event. */
  private statusChanged(status: RuntimeStatus): void {
    const first = this.pendingStatus === null
    this.pendingStatus = status
    if (!first) return
    queueMicrotask(() => {
      const latest = this.pendingStatus
      this.pendingStatus = null
      if (latest) this.deps.send({ t: 'status', status: latest })
    })
  }

  /** Packages without sequencing: the open SCO unloads (and finishes) before the next one's session starts. */
  private async open(itemId: string | null): Promise<void> {
    const { rt, launch } = this
    if (!rt || !launch || launch.sequencing) return
    await this.endSession()
    const item = itemId ? findItem(launch.items, itemId) : null
    if (!itemId || !item?.href) return
    this.activitySeen = false
    const events = this.sessionEvents()
    this.session = rt.startScormSession({
      launch,
      itemId,
      host: this.deps.win,
      events: {
        ...events,
        onFinish: ({ status, navRequest }) => this.deps.send({ t: 'finish', itemId, status, navRequest }),
      },
    })
    // The API is installed before the SCO loads.
    this.deps.frame.show(item.href, item.title || launch.title)
    if (item.asset) this.session.assetLaunched()
  }

  private async endSession(): Promise<void> {
    await this.deps.frame.unload()
    this.session?.destroy()
    this.session = null
  }

  /** Sequenced packages: show what the engine delivered; unload the SCO for a navigation the viewer asked for. */
  private onView(view: SequencingView): void {
    this.deps.send({ t: 'view', view })
    if (this.closed) return
    if (view.unloading) {
      if (this.unloading) return
      this.unloading = true
      void this.deps.frame.unload().then(() => {
        this.unloading = false
        // content that did not terminate on unload is terminated now
        this.seq?.contentUnloaded()
      })
      return
    }
    if (view.current && view.href) {
      if (view.delivery === this.shown) return
      const { delivery, href } = view
      this.shown = delivery
      this.activitySeen = false
      const item = findItem(this.launch?.items ?? [], view.current)
      // After the task that delivered it (often the content's own Terminate): the SCO before is
      // not torn out from under the script that is still running in it.
      setTimeout(() => {
        if (this.shown === delivery && !this.closed) this.deps.frame.show(href, item?.title || (this.launch?.title ?? ''))
      }, 0)
    } else if (this.shown !== 0) {
      this.shown = 0
      void this.deps.frame.unload()
    }
  }

  /**
   * The viewer is closing (Close Course, another module): the SCO leaves as on a page leave — a
   * sequenced one suspended for the next visit — and its last commit is sent before `closed`.
   */
  private async close(): Promise<void> {
    this.seq?.leave()
    await this.deps.frame.unload()
    this.closed = true
    this.seq?.destroy()
    this.session?.destroy()
    this.seq = null
    this.session = null
    this.unflush()
    this.deps.send({ t: 'closed' })
  }
}
