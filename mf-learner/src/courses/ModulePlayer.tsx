import {
  COURSE_MESSAGES,
  PROGRESS_TRACKER as T,
  type CompleteModuleResponse,
  type CompletionTrigger,
  type LearnerModule,
  type ModuleLaunch,
  type ScormLaunch,
} from '@portal/contracts'
import { Alert, Button, errorMessage, Spinner, useToast } from '@portal/ui-kit'
import { useEffect, useRef, useState, type RefObject } from 'react'
import type { NavRequest, ScormSession } from '../runtime/index.ts'
import { completeModule, completeModuleOnExit, fetchHasEdits, fetchModuleLaunch, fetchScormLaunch, LaunchUrlMissing, saveModuleProgress } from './api.ts'
import { moduleKind } from './course-view.ts'
import { frameHref, frameUrls, fromFrame, watchInteractions } from './frame.ts'
import { FRAME_STYLE, ScoFrame } from './ScoFrame.tsx'
import { LeftLesson, ScormLayout } from './ScormLayout.tsx'
import { countLaunchable, findItem, ScoTree } from './ScoTree.tsx'
import { SequencedScorm } from './SequencedScorm.tsx'
import { ModuleController, MODULE_TOASTS } from './module-controller.ts'
import { contentSignal, finishWithoutCompletionProgress, scormCompletion } from './signals.ts'

type Runtime = typeof import('../runtime/index.ts')

/** "Error Loading Course" with Go Back and Try Again (which reloads the page). */
export const LoadError = ({ message, onGoBack }: { message: string; onGoBack: () => void }) => (
  <div role="alert" className="pk-stack" style={{ alignItems: 'flex-start' }}>
    <h3 style={{ margin: 0 }}>Error Loading Course</h3>
    <p style={{ margin: 0, color: 'var(--c-danger)' }}>{message}</p>
    <div className="pk-row">
      <Button variant="secondary" onClick={onGoBack}>
        Go Back
      </Button>
      <Button onClick={() => window.location.reload()}>Try Again</Button>
    </div>
  </div>
)

export interface ModulePlayerProps {
  module: LearnerModule
  courseId: number
  /** Progress as it rises in this load (for the sidebar). */
  onProgress: (moduleId: number, progress: number) => void
  onCompleted: (module: LearnerModule, result: CompleteModuleResponse, trigger: CompletionTrigger) => void
  onGoBack: () => void
}

/** One load of one module: its content, its progress tracking and its completion (learner §4). */
export const ModulePlayer = ({ module, courseId, onProgress, onCompleted, onGoBack }: ModulePlayerProps) => {
  const toast = useToast()
  const frameRef = useRef<HTMLIFrameElement | null>(null)
  const latest = useRef({ onProgress, onCompleted })
  latest.current = { onProgress, onCompleted }
  const [completed, setCompleted] = useState(Boolean(module.completed_at))
  const [completing, setCompleting] = useState(false)
  const [controller] = useState(
    () =>
      new ModuleController({
        moduleId: module.id,
        courseId,
        progress: module.progress,
        startedAt: module.started_at,
        completedAt: module.completed_at,
        calls: { saveProgress: saveModuleProgress, complete: completeModule, completeOnExit: completeModuleOnExit },
        toast,
        readUrls: () => frameUrls(frameRef.current),
        onProgress: (p) => latest.current.onProgress(module.id, p),
        onCompleted: (result, trigger) => {
          setCompleted(true)
          latest.current.onCompleted(module, result, trigger)
        },
      }),
  )
  const kind = moduleKind(module)

  // Page lifecycle and messages from the content, for as long as this module is open.
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') controller.pageHidden()
    }
    const onPageHide = () => controller.pageExit()
    const onPageShow = () => controller.pageShown()
    const onMessage = (e: MessageEvent) => {
      if (e.origin !== window.location.origin || !fromFrame(e.source, frameRef.current)) return
      const signal = contentSignal(e.data)
      if (!signal) return
      if (signal.kind === 'complete') void controller.complete('content-message')
      else if (signal.kind === 'progress') controller.contentProgress(signal.progress)
      else controller.realActivity()
    }
    document.addEventListener('visibilitychange', onVisibility)
    window.addEventListener('pagehide', onPageHide)
    window.addEventListener('pageshow', onPageShow)
    window.addEventListener('message', onMessage)
    return () => {
      document.removeEventListener('visibilitychange', onVisibility)
      window.removeEventListener('pagehide', onPageHide)
      window.removeEventListener('pageshow', onPageShow)
      window.removeEventListener('message', onMessage)
      controller.close()
    }
  }, [controller])

  const markComplete = async () => {
    setCompleting(true)
    try {
      await controller.complete('manual')
    } finally {
      setCompleting(false)
    }
  }

  return (
    <div className="pk-stack" style={{ gap: '.75rem' }}>
      <div className="pk-row" style={{ justifyContent: 'space-between' }}>
        <h3 style={{ margin: 0, minWidth: 0, overflowWrap: 'anywhere' }}>{module.title}</h3>
        {completed ? (
          <span className="pk-badge" style={{ background: 'var(--c-success-bg)', color: 'var(--c-success)' }}>
            Completed
          </span>
        ) : kind !== 'scorm' ? (
          <Button variant="secondary" size="small" disabled={completing} onClick={() => void markComplete()}>
            Mark as Complete
          </Button>
        ) : null}
      </div>
      {kind === 'scorm' ? (
        <ScormContent module={module} controller={controller} frameRef={frameRef} onGoBack={onGoBack} />
      ) : (
        <FileContent module={module} controller={controller} frameRef={frameRef} onGoBack={onGoBack} />
      )}
    </div>
  )
}

interface ContentProps {
  module: LearnerModule
  controller: ModuleController
  frameRef: RefObject<HTMLIFrameElement | null>
  onGoBack: () => void
}

/** Video, audio, PDF and slides (GET /modules/{id}/launch: a signed same-origin URL). */
const FileContent = ({ module, controller, frameRef, onGoBack }: ContentProps) => {
  const [state, setState] = useState<{ phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; launch: ModuleLaunch }>({
    phase: 'loading',
  })
  const loads = useRef(0)
  const unwatch = useRef<() => void>(() => undefined)
  const kind = moduleKind(module)

  useEffect(() => {
    let cancelled = false
    controller.open(false)
    fetchModuleLaunch(module.id).then(
      (launch) => !cancelled && setState({ phase: 'ready', launch }),
      (err: unknown) => !cancelled && setState({ phase: 'error', message: errorMessage(err, 'Failed to load module') }),
    )
    return () => {
      cancelled = true
      unwatch.current()
    }
  }, [controller, module.id])

  if (state.phase === 'loading') return <Spinner label="Loading module..." />
  if (state.phase === 'error') return <LoadError message={state.message} onGoBack={onGoBack} />
  const { url } = state.launch

  if (kind === 'video' || kind === 'audio') {
    const media = {
      src: url,
      controls: true,
      preload: 'metadata' as const,
      'aria-label': module.title,
      onLoadedData: () => controller.raise(T.nonScormFrameLoaded),
      onTimeUpdate: (e: { currentTarget: HTMLMediaElement }) => {
        const m = e.currentTarget
        if (m.duration > 0 && Number.isFinite(m.duration)) controller.contentProgress((m.currentTime / m.duration) * 100)
      },
      onPlay: () => controller.interaction(),
      onSeeked: () => controller.interaction(),
      onEnded: () => void controller.complete('media-ended'),
    }
    return kind === 'video' ? (
      <video {...media} style={{ width: '100%', maxHeight: '75vh', background: '#000', borderRadius: 6 }} />
    ) : (
      <audio {...media} style={{ width: '100%' }} />
    )
  }

  if (kind === 'pdf') {
    return (
      <iframe
        ref={frameRef}
        title={module.title}
        src={url}
        style={FRAME_STYLE}
        onLoad={() => {
          if (!frameHref(frameRef.current)) return
          loads.current += 1
          unwatch.current()
          unwatch.current = watchInteractions(frameRef.current, () => controller.interaction())
          if (loads.current === 1) controller.raise(T.nonScormFrameLoaded)
          else void controller.complete('frame-reload')
        }}
      />
    )
  }

  // Slides (pptx) and other files: browsers cannot show them in a frame, so they are downloaded.
  return (
    <div className="pk-stack" style={{ alignItems: 'flex-start', border: '1px solid var(--c-border)', borderRadius: 6, padding: '1.25rem' }}>
      <p style={{ margin: 0 }}>
        {kind === 'slides'
          ? 'This module is a slide presentation. Download it and open it in PowerPoint or a compatible viewer, then mark it as complete.'
          : 'Download this module to view it, then mark it as complete.'}
      </p>
      <a
        className="pk-btn"
        style={{ textDecoration: 'none' }}
        href={url}
        download={module.file_path || undefined}
        onClick={() => {
          controller.interaction()
          controller.raise(T.nonScormFrameLoaded)
        }}
      >
        Download {module.file_path || module.title}
      </a>
    </div>
  )
}

type ScormPhase = { kind: 'loading' } | { kind: 'processing'; message: string } | { kind: 'error'; message: string } | { kind: 'ready' }

/** A SCORM module: launch, runtime session per SCO, the SCO frame and the package's item tree. */
const ScormContent = ({ module, controller, frameRef, onGoBack }: ContentProps) => {
  const toast = useToast()
  const [phase, setPhase] = useState<ScormPhase>({ kind: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const [runtime, setRuntime] = useState<Runtime | null>(null)
  const [launch, setLaunch] = useState<ScormLaunch | null>(null)
  const [edited, setEdited] = useState(false)
  const [activeItem, setActiveItem] = useState<string | null>(null)
  const [contentLoading, setContentLoading] = useState(true)
  const activeRef = useRef<string | null>(null)
  const lastItem = useRef<string | null>(null)
  const sessionRef = useRef<ScormSession | null>(null)
  const trackingIssueShown = useRef(false)

  const go = (itemId: string | null) => {
    activeRef.current = itemId
    if (itemId) lastItem.current = itemId
    setActiveItem(itemId)
  }

  // Launch (retried after 30 s while the package is processing), then the runtime build it needs.
  useEffect(() => {
    let cancelled = false
    let retry: ReturnType<typeof setTimeout> | null = null
    setPhase({ kind: 'loading' })
    void (async () => {
      let hasEdits: boolean
      let result: Awaited<ReturnType<typeof fetchScormLaunch>>
      try {
        ;[hasEdits, result] = await Promise.all([fetchHasEdits(module.id), fetchScormLaunch(module.id)])
      } catch (err) {
        if (!cancelled)
          setPhase({ kind: 'error', message: err instanceof LaunchUrlMissing ? err.message : errorMessage(err, 'Failed to load SCORM content') })
        return
      }
      if (cancelled) return
      if (result.kind === 'processing') {
        toast.info(COURSE_MESSAGES.processing)
        setPhase({ kind: 'processing', message: result.message || COURSE_MESSAGES.processing })
        retry = setTimeout(() => setAttempt((a) => a + 1), T.launchRetryMs)
        return
      }
      let rt: Runtime
      try {
        rt = await import('../runtime/index.ts')
        await rt.preloadRuntime(result.launch.version)
      } catch {
        if (!cancelled) setPhase({ kind: 'error', message: 'Failed to initialize SCORM' })
        return
      }
      if (cancelled) return
      controller.open(hasEdits)
      setEdited(hasEdits)
      setRuntime(rt)
      setLaunch(result.launch)
      // A sequenced package's engine picks the SCO to open (SequencedScorm).
      if (!result.launch.sequencing) go(result.launch.startItem)
      setPhase({ kind: 'ready' })
    })()
    return () => {
      cancelled = true
      if (retry) clearTimeout(retry)
    }
    // Deliberately keyed: one launch per module load and per retry.
  }, [module.id, attempt])

  // Commits go out by beacon when the page is hidden or dismissed.
  useEffect(() => (runtime ? runtime.flushOnPageHide(window, () => sessionRef.current) : undefined), [runtime])

  // One runtime session per SCO: the API is installed before the frame's src is set. The frame has
  // a key per SCO, so on a switch the old SCO unloads (and finishes) before its session is destroyed.
  useEffect(() => {
    const frame = frameRef.current
    if (!runtime || !launch || !activeItem || !frame) return undefined
    const itemId = activeItem
    let active = false
    const loaded = () => setContentLoading(false)
    setContentLoading(true)
    const fallback = setTimeout(loaded, T.contentLoadFallbackMs)
    const navigate = (request: NavRequest) => {
      if (request.kind === 'continue' || request.kind === 'previous' || request.kind === 'choice' || request.kind === 'jump') {
        const next = runtime.itemAfter(launch.items, itemId, request)
        if (next) return go(next.identifier)
      }
      go(null) // exit, exitAll, suspendAll, abandon...: back to the module view
    }
    const session = runtime.startScormSession({
      launch,
      itemId,
      host: window,
      events: {
        onActivity: () => {
          if (active) return
          active = true
          loaded()
        },
        onInitialize: () => {
          loaded()
          controller.raise(T.scormInitialized)
        },
        onChange: (_element, _value, status) => {
          const trigger = scormCompletion(status)
          if (trigger) controller.completeReported(trigger)
          else if (status.progressMeasure !== null && status.progressMeasure > 0) controller.contentProgress(status.progressMeasure * 100)
        },
        onFinish: ({ status, navRequest }) => {
          if (scormCompletion(status)) controller.completeReported('scorm-finish')
          else controller.raise(finishWithoutCompletionProgress(status))
          if (navRequest && activeRef.current === itemId) navigate(navRequest)
        },
        onCommitError: () => {
          if (trackingIssueShown.current) return
          trackingIssueShown.current = true
          toast.error(MODULE_TOASTS.trackingIssue)
        },
      },
    })
    sessionRef.current = session
    frame.src = findItem(launch.items, itemId)?.href ?? launch.url
    return () => {
      clearTimeout(fallback)
      session.destroy()
      if (sessionRef.current === session) sessionRef.current = null
    }
    // Deliberately keyed: one session per (launch, SCO).
  }, [runtime, launch, activeItem])

  if (phase.kind === 'loading') return <Spinner label="Loading SCORM content..." />
  if (phase.kind === 'error') return <LoadError message={phase.message} onGoBack={onGoBack} />
  if (phase.kind === 'processing')
    return (
      <div className="pk-stack" style={{ alignItems: 'flex-start' }}>
        <Alert tone="info">{phase.message}</Alert>
        <p className="pk-muted" style={{ margin: 0 }}>
          This module will be tried again automatically in 30 seconds.
        </p>
        <Button variant="secondary" onClick={() => setAttempt((a) => a + 1)}>
          Check Again Now
        </Button>
      </div>
    )
  if (!launch || !runtime) return null
  if (launch.sequencing)
    return <SequencedScorm runtime={runtime} launch={launch} module={module} controller={controller} frameRef={frameRef} edited={edited} />

  const multi = countLaunchable(launch.items) > 1
  const activeTitle = activeItem ? (findItem(launch.items, activeItem)?.title ?? module.title) : module.title
  return (
    <ScormLayout title={launch.title} tree={multi ? <ScoTree items={launch.items} activeId={activeItem} onPick={(id) => go(id)} /> : null}>
      {activeItem ? (
        <>
          {contentLoading ? <Spinner label="Loading SCORM content..." /> : null}
          <ScoFrame key={activeItem} frameRef={frameRef} title={activeTitle} edited={edited} controller={controller} />
        </>
      ) : (
        <LeftLesson
          message={multi ? 'You have left the lesson. Choose a lesson to continue.' : 'You have left the lesson.'}
          onResume={() => go(lastItem.current ?? launch.startItem)}
        />
      )}
    </ScormLayout>
  )
}
