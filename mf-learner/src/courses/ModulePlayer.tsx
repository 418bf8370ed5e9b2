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
import { useEffect, useRef, useState, type MutableRefObject } from 'react'
import { completeModule, completeModuleOnExit, fetchHasEdits, fetchModuleLaunch, fetchScormLaunch, LaunchUrlMissing, saveModuleProgress } from './api.ts'
import { moduleKind } from './course-view.ts'
import { ModuleController } from './module-controller.ts'
import { FRAME_STYLE } from './ScormLayout.tsx'
import { fetchContentPlace, onContentOrigin, type ContentPlace } from './content-place.ts'
import { contentOriginOf } from './player-connection.ts'
import { ScormPlayer } from './ScormPlayer.tsx'
import { Cmi5Player } from './Cmi5Player.tsx'
import { LoadError } from './LoadError.tsx'

export { LoadError }

/**
 * The portal was opened at an address content may not be framed by (decision 0018): the frames
 * would stay empty, so this names the address to use, with this page there.
 */
export const WrongAddress = ({ address, here, onGoBack }: { address: string; here: Pick<Location, 'origin' | 'pathname' | 'search' | 'hash'>; onGoBack: () => void }) => (
  <div role="alert" className="pk-stack pk-items-start">
    <h3 className="pk-m0">Course Content Is Not Available at This Address</h3>
    <p className="pk-m0">
      Course content plays only when the portal is opened at <strong>{address}</strong>. This page is open at {here.origin}.
    </p>
    <div className="pk-row">
      <a className="pk-btn pk-no-underline" href={`${address}${here.pathname}${here.search}${here.hash}`}>
        Open This Page at {address}
      </a>
      <Button variant="secondary" onClick={onGoBack}>
        Go Back
      </Button>
    </div>
    <p className="pk-muted pk-m0">You may need to sign in again there. Administrators can let content play at this address too by adding it to PORTAL_ORIGINS.</p>
  </div>
)

export interface ModulePlayerProps {
  module: LearnerModule
  courseId: number
  /** Progress as it rises in this load (for the sidebar). */
  onProgress: (moduleId: number, progress: number) => void
  onCompleted: (module: LearnerModule, result: CompleteModuleResponse, trigger: CompletionTrigger) => void
  onGoBack: () => void
  /**
   * Gets what the viewer calls before it unmounts this module (Close Course, another module): the
   * content then leaves as on a page leave and its last commit goes out (null: nothing to wait for).
   */
  registerClose?: (close: (() => Promise<void>) | null) => void
}

/** One load of one module: its content, its progress tracking and its completion (learner §4). */
export const ModulePlayer = ({ module, courseId, onProgress, onCompleted, onGoBack, registerClose = () => undefined }: ModulePlayerProps) => {
  const toast = useToast()
  // The content's URLs as last seen (the SCO frame's, reported by the player; the file's).
  const urls = useRef<readonly string[]>([])
  const latest = useRef({ onProgress, onCompleted })
  latest.current = { onProgress, onCompleted }
  const [completed, setCompleted] = useState(Boolean(module.completed_at))
  const [completing, setCompleting] = useState(false)
  const kind = moduleKind(module)
  const [controller] = useState(() => {
    const controller = new ModuleController({
      moduleId: module.id,
      courseId,
      progress: module.progress,
      startedAt: module.started_at,
      completedAt: module.completed_at,
      calls: { saveProgress: saveModuleProgress, complete: completeModule, completeOnExit: completeModuleOnExit },
      toast,
      readUrls: () => urls.current,
      onProgress: (p) => latest.current.onProgress(module.id, p),
      onCompleted: (result, trigger) => {
        setCompleted(true)
        latest.current.onCompleted(module, result, trigger)
      },
    })
    // A cmi5 module completes by its AUs' moveOn only (the server judges their statements): none of
    // the tracker's fallbacks (time, hidden page, leaving above 70 %) may complete it.
    if (kind === 'cmi5') controller.tracker.stop()
    return controller
  })
  // Where content plays for this address of the portal (the registry is in already: at once).
  const [place, setPlace] = useState<ContentPlace | null>(null)
  useEffect(() => {
    let cancelled = false
    void fetchContentPlace().then((p) => !cancelled && setPlace(p))
    return () => {
      cancelled = true
    }
  }, [])

  // Page lifecycle, for as long as this module is open (the content's own signals come from its player).
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') controller.pageHidden()
    }
    const onPageHide = () => controller.pageExit()
    const onPageShow = () => controller.pageShown()
    document.addEventListener('visibilitychange', onVisibility)
    window.addEventListener('pagehide', onPageHide)
    window.addEventListener('pageshow', onPageShow)
    return () => {
      document.removeEventListener('visibilitychange', onVisibility)
      window.removeEventListener('pagehide', onPageHide)
      window.removeEventListener('pageshow', onPageShow)
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
    <div className="pk-stack pk-gap-l">
      <div className="pk-row pk-between">
        <h3 className="pk-m0 pk-min-w0 pk-break">{module.title}</h3>
        {completed ? (
          <span className="pk-badge pk-bg-success pk-text-success">Completed</span>
        ) : kind !== 'scorm' && kind !== 'cmi5' ? (
          <Button variant="secondary" size="small" disabled={completing} onClick={() => void markComplete()}>
            Mark as Complete
          </Button>
        ) : null}
      </div>
      {!place ? (
        <Spinner label="Loading module..." />
      ) : place.kind === 'elsewhere' ? (
        <WrongAddress address={place.address} here={window.location} onGoBack={onGoBack} />
      ) : kind === 'cmi5' ? (
        <Cmi5Player module={module} contentOrigin={place.origin} onGoBack={onGoBack} onSatisfied={() => setCompleted(true)} />
      ) : kind === 'scorm' ? (
        <ScormContent module={module} controller={controller} urls={urls} onGoBack={onGoBack} registerClose={registerClose} contentOrigin={place.origin} />
      ) : (
        <FileContent module={module} controller={controller} urls={urls} onGoBack={onGoBack} contentOrigin={place.origin} />
      )}
    </div>
  )
}

interface ContentProps {
  module: LearnerModule
  controller: ModuleController
  urls: MutableRefObject<readonly string[]>
  onGoBack: () => void
  /** The content origin of this address of the portal (null: the launch's own). */
  contentOrigin: string | null
}

interface ScormContentProps extends ContentProps {
  registerClose: (close: (() => Promise<void>) | null) => void
}

/**
 * Video, audio, PDF and slides (GET /modules/{id}/launch: a signed URL on the content origin). The
 * PDF frame is of another origin: its loads count, what happens inside the PDF viewer does not
 * reach the portal (it never reached a same-origin frame's document either).
 */
const FileContent = ({ module, controller, urls, onGoBack, contentOrigin }: ContentProps) => {
  const [state, setState] = useState<{ phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; launch: ModuleLaunch }>({
    phase: 'loading',
  })
  const loads = useRef(0)
  const kind = moduleKind(module)

  useEffect(() => {
    let cancelled = false
    controller.open(false)
    fetchModuleLaunch(module.id).then(
      (answer) => {
        if (cancelled) return
        const launch = { ...answer, url: onContentOrigin(answer.url, contentOrigin) }
        urls.current = [launch.url]
        setState({ phase: 'ready', launch })
      },
      (err: unknown) => !cancelled && setState({ phase: 'error', message: errorMessage(err, 'Failed to load module') }),
    )
    return () => {
      cancelled = true
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
    return kind === 'video' ? <video {...media} style={{ width: '100%', maxHeight: '75vh', background: '#000', borderRadius: 6 }} /> : <audio {...media} className="pk-w-full" />
  }

  if (kind === 'pdf') {
    return (
      <iframe
        title={module.title}
        src={url}
        style={FRAME_STYLE}
        onLoad={() => {
          loads.current += 1
          if (loads.current === 1) controller.raise(T.nonScormFrameLoaded)
          else void controller.complete('frame-reload')
        }}
      />
    )
  }

  // Slides (pptx) and other files: browsers cannot show them in a frame, so they are downloaded.
  return (
    <div className="pk-stack pk-items-start pk-border pk-rounded-sm pk-pad-l">
      <p className="pk-m0">
        {kind === 'slides'
          ? 'This module is a slide presentation. Download it and open it in PowerPoint or a compatible viewer, then mark it as complete.'
          : 'Download this module to view it, then mark it as complete.'}
      </p>
      <a
        className="pk-btn pk-no-underline"
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

/** A SCORM module: the launch (retried while the package is processed), then its player. */
const ScormContent = ({ module, controller, urls, onGoBack, registerClose, contentOrigin: placeOrigin }: ScormContentProps) => {
  const toast = useToast()
  const [phase, setPhase] = useState<ScormPhase>({ kind: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const [launch, setLaunch] = useState<{ launch: ScormLaunch; contentOrigin: string } | null>(null)
  const [edited, setEdited] = useState(false)

  // Launch (retried after 30 s while the package is processing).
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
        if (!cancelled) setPhase({ kind: 'error', message: err instanceof LaunchUrlMissing ? err.message : errorMessage(err, 'Failed to load SCORM content') })
        return
      }
      if (cancelled) return
      if (result.kind === 'processing') {
        toast.info(COURSE_MESSAGES.processing)
        setPhase({ kind: 'processing', message: result.message || COURSE_MESSAGES.processing })
        retry = setTimeout(() => setAttempt((a) => a + 1), T.launchRetryMs)
        return
      }
      const launch = { ...result.launch, playerUrl: onContentOrigin(result.launch.playerUrl, placeOrigin) }
      const contentOrigin = contentOriginOf(launch, window.location.origin)
      if (!contentOrigin) {
        setPhase({ kind: 'error', message: 'Failed to initialize SCORM' })
        return
      }
      controller.open(hasEdits)
      setEdited(hasEdits)
      setLaunch({ launch, contentOrigin })
      setPhase({ kind: 'ready' })
    })()
    return () => {
      cancelled = true
      if (retry) clearTimeout(retry)
    }
    // Deliberately keyed: one launch per module load and per retry.
  }, [module.id, attempt])

  if (phase.kind === 'loading') return <Spinner label="Loading SCORM content..." />
  if (phase.kind === 'error') return <LoadError message={phase.message} onGoBack={onGoBack} />
  if (phase.kind === 'processing')
    return (
      <div className="pk-stack pk-items-start">
        <Alert tone="info">{phase.message}</Alert>
        <p className="pk-muted pk-m0">This module will be tried again automatically in 30 seconds.</p>
        <Button variant="secondary" onClick={() => setAttempt((a) => a + 1)}>
          Check Again Now
        </Button>
      </div>
    )
  if (!launch) return null
  return (
    <ScormPlayer
      launch={launch.launch}
      contentOrigin={launch.contentOrigin}
      module={module}
      controller={controller}
      edited={edited}
      urls={urls}
      registerClose={registerClose}
      onFailed={(message) => setPhase({ kind: 'error', message })}
    />
  )
}
