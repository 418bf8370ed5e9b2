import { PROGRESS_TRACKER as T, type LearnerModule, type ScormLaunch } from '@portal/contracts'
import { Alert, Button, Spinner, useToast } from '@portal/ui-kit'
import { useEffect, useId, useRef, useState, type MutableRefObject } from 'react'
import { itemAfter, prerequisiteAccess, type FlowButton, type ItemAccess, type NavRequest, type SequencingView } from '../runtime/index.ts'
import { MODULE_TOASTS, type ModuleController } from './module-controller.ts'
import { PlayerConnection } from './player-connection.ts'
import { applyPlayerEvent } from './player-events.ts'
import { FRAME_STYLE, LeftLesson, ScormLayout } from './ScormLayout.tsx'
import { countLaunchable, findItem, LOCKED, ScoTree } from './ScoTree.tsx'

/**
 * `sandbox` of the player frame. Same origin for the player keeps it on the content origin (the
 * SCO it frames then finds window.parent.API); that origin is not the portal's, so this gives
 * content nothing of the portal. No top navigation, and no popups: a window the content opened
 * could go to any origin (no policy of ours governs it), taking what the content knows along.
 */
export const PLAYER_SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-modals allow-downloads'

const LEFT: Record<NonNullable<SequencingView['idle']>, string> = {
  exited: 'You have left the lesson.',
  suspended: 'You have left the lesson. It resumes where you were.',
  ended: 'You have left the lesson.',
  unavailable: 'No lesson of this module can be opened now.',
}

export interface ScormPlayerProps {
  launch: ScormLaunch
  /** The origin of `launch.playerUrl` (checked by the caller: never the portal's). */
  contentOrigin: string
  module: LearnerModule
  controller: ModuleController
  edited: boolean
  /** Where the tracker reads the content's URLs. */
  urls: MutableRefObject<readonly string[]>
  /** Lets the viewer end the SCO properly before it unmounts this (Close Course, another module). */
  registerClose: (close: (() => Promise<void>) | null) => void
  onFailed: (message: string) => void
}

/**
 * A SCORM module's content: the content player's frame (on the content origin, where the runtime
 * runs) and, around it, what the viewer shows of the package — its lesson tree, "you have left the
 * lesson", and for sequenced packages the engine's Previous and Continue. The frame stays mounted
 * for the whole launch; the player shows each SCO inside it.
 */
export const ScormPlayer = ({ launch, contentOrigin, module, controller, edited, urls, registerClose, onFailed }: ScormPlayerProps) => {
  const toast = useToast()
  const sequenced = Boolean(launch.sequencing)
  const frameRef = useRef<HTMLIFrameElement | null>(null)
  const connRef = useRef<PlayerConnection | null>(null)
  const [activeItem, setActiveItem] = useState<string | null>(sequenced ? null : launch.startItem)
  const [view, setView] = useState<SequencingView | null>(null)
  const [contentLoading, setContentLoading] = useState(true)
  const activeRef = useRef(activeItem)
  const lastItem = useRef<string | null>(activeItem)
  const trackingIssueShown = useRef(false)
  // SCORM 1.2 prerequisites: each SCO's lesson_status as stored, then as the content reports it.
  const [statuses, setStatuses] = useState<Record<string, string>>(() => storedStatuses(launch))
  const lockedRef = useRef<Record<string, ItemAccess>>({})
  const reported = (itemId: string | null, status: string | null) => {
    if (itemId && status) setStatuses((s) => (s[itemId] === status ? s : { ...s, [itemId]: status }))
  }
  const latest = useRef({ onFailed })
  latest.current = { onFailed }

  const go = (itemId: string | null) => {
    activeRef.current = itemId
    if (itemId) lastItem.current = itemId
    setActiveItem(itemId)
  }

  // One player per launch; its events feed the module's progress rules.
  useEffect(() => {
    const conn = new PlayerConnection({
      win: window,
      frame: () => frameRef.current,
      contentOrigin,
      launch,
      onFailed: (message) => latest.current.onFailed(message),
      onEvent: (event) => {
        if (event.t === 'status') reported(activeRef.current, event.status.lessonStatus)
        if (event.t === 'finish') reported(event.itemId, event.status.lessonStatus)
        applyPlayerEvent(event, {
          controller,
          sequenced,
          edited,
          urls,
          loaded: () => setContentLoading(false),
          view: setView,
          finished: (itemId, navRequest) => {
            if (navRequest && activeRef.current === itemId) follow(itemId, navRequest)
          },
          trackingIssue: () => {
            if (trackingIssueShown.current) return
            trackingIssueShown.current = true
            // A commit the server did not store (failed, or refused because another tab saved newer work): say so.
            toast.error(MODULE_TOASTS.saveFailed)
          },
        })
      },
    })
    connRef.current = conn
    registerClose(() => conn.close())
    return () => {
      registerClose(null)
      conn.dispose()
      if (connRef.current === conn) connRef.current = null
    }
    // Deliberately keyed: one player per launch.
  }, [launch])

  /** Packages without sequencing: the content's own navigation request, as far as the item list allows. */
  const follow = (itemId: string, request: NavRequest) => {
    if (request.kind === 'continue' || request.kind === 'previous' || request.kind === 'choice' || request.kind === 'jump') {
      const next = itemAfter(launch.items, itemId, request)
      // the events' handlers outlive renders: the lock as of now
      if (next && !lockedRef.current[next.identifier]) return go(next.identifier)
    }
    go(null) // exit, exitAll, suspendAll, abandon...: back to the module view
  }

  // Packages without sequencing: the viewer picks the SCO; each one loads anew.
  useEffect(() => {
    if (sequenced) return undefined
    connRef.current?.send({ t: 'open', itemId: activeItem })
    if (!activeItem) return undefined
    setContentLoading(true)
    const fallback = setTimeout(() => setContentLoading(false), T.contentLoadFallbackMs)
    return () => clearTimeout(fallback)
  }, [activeItem])

  // Sequenced packages: each delivered SCO loads anew.
  const delivered = view?.current ? view.delivery : null
  useEffect(() => {
    if (delivered === null) return undefined
    setContentLoading(true)
    const fallback = setTimeout(() => setContentLoading(false), T.contentLoadFallbackMs)
    return () => clearTimeout(fallback)
  }, [delivered])

  const multi = countLaunchable(launch.items) > 1
  const locked = sequenced || launch.version === '2004' ? {} : prerequisiteAccess(launch.items, (id) => statuses[id])
  lockedRef.current = locked
  const openItem = sequenced ? (view?.current && view.href ? view.current : null) : activeItem
  const title = openItem ? (findItem(launch.items, openItem)?.title ?? module.title) : module.title
  const navigate = (request: NavRequest) => connRef.current?.send({ t: 'navigate', request })

  const tree = !multi ? null : sequenced ? (
    view ? (
      <ScoTree
        items={launch.items}
        activeId={view.current}
        access={view.access}
        // the open lesson stays open (choosing it again would start it anew)
        onPick={(id) => {
          if (id === view.current) return
          const access = view.access[id]
          navigate(access?.kind === 'available' && access.via === 'continue' ? { kind: 'continue' } : { kind: 'choice', target: id })
        }}
      />
    ) : null
  ) : (
    <ScoTree items={launch.items} activeId={activeItem} access={locked} onPick={(id) => go(id)} />
  )

  let left: { message: string; onResume: (() => void) | null } | null = null
  if (!sequenced && !activeItem)
    left = { message: multi ? 'You have left the lesson. Choose a lesson to continue.' : 'You have left the lesson.', onResume: () => go(lastItem.current ?? launch.startItem) }
  else if (sequenced && view && !openItem && !view.unloading && view.idle)
    left = {
      message: view.idle === 'exited' && multi ? `${LEFT.exited} Choose a lesson to continue.` : LEFT[view.idle],
      onResume: view.idle === 'unavailable' ? null : () => connRef.current?.send({ t: 'resume' }),
    }
  const loading = openItem ? contentLoading : !left

  return (
    <ScormLayout title={launch.title} tree={tree}>
      {view?.notice ? <Alert tone="info">{view.notice}</Alert> : null}
      {loading ? <Spinner label="Loading SCORM content..." /> : null}
      <iframe
        ref={frameRef}
        title={title}
        src={launch.playerUrl}
        sandbox={PLAYER_SANDBOX}
        // deferred-fetch: the player's share of the page's fetchLater quota is 64 KiB, not 8 KiB, so
        // the final commit it has the browser hold (sent when the tab closes) fits a whole cmi tree.
        allow="fullscreen; autoplay; deferred-fetch"
        // Hidden only while the learner is out of the lesson: a hidden frame's timers are throttled,
        // and the player is at work while a SCO loads or unloads.
        style={left ? { ...FRAME_STYLE, display: 'none' } : FRAME_STYLE}
      />
      {left ? <LeftLesson message={left.message} onResume={left.onResume} /> : null}
      {view && (view.previous.shown || view.continue.shown) ? (
        <div role="group" aria-label="Lesson navigation" className="pk-row pk-between pk-items-start">
          {view.previous.shown ? <FlowNav label="Previous" button={view.previous} onGo={() => navigate({ kind: 'previous' })} /> : <span />}
          {view.continue.shown ? <FlowNav label="Continue" button={view.continue} onGo={() => navigate({ kind: 'continue' })} /> : null}
        </div>
      ) : null}
    </ScormLayout>
  )
}

/** The viewer's Previous or Continue: focusable when unavailable, marked aria-disabled and described by why. */
const FlowNav = ({ label, button, onGo }: { label: string; button: FlowButton; onGo: () => void }) => {
  const reasonId = useId()
  return (
    <div className="pk-stack" style={{ gap: '.25rem', alignItems: label === 'Continue' ? 'flex-end' : 'flex-start' }}>
      <Button
        variant="secondary"
        aria-disabled={button.enabled ? undefined : 'true'}
        aria-describedby={button.reason ? reasonId : undefined}
        style={button.enabled ? undefined : LOCKED}
        onClick={() => {
          if (button.enabled) onGo()
        }}
      >
        {label}
      </Button>
      {button.reason ? (
        <span id={reasonId} className="pk-muted pk-fs-13">
          {button.reason}
        </span>
      ) : null}
    </div>
  )
}

/** SCORM 1.2 / AICC: each SCO's stored lesson_status (cmi.core.lesson_status of its stored tree). */
function storedStatuses(launch: ScormLaunch): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [id, state] of Object.entries(launch.state)) {
    const cmi = state.cmi.cmi as { core?: { lesson_status?: unknown } } | undefined
    if (typeof cmi?.core?.lesson_status === 'string') out[id] = cmi.core.lesson_status
  }
  return out
}
