import type { Cmi5AuStatus, LearnerModule } from '@portal/contracts'
import { Alert, Button, EmptyState, errorMessage, Spinner, useToast } from '@portal/ui-kit'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState } from 'react'
import { refreshDashboard } from '../dashboard-keys.ts'
import { fromFrame } from '../player/index.ts'
import { auActionLabel, auStatusLabels, cmi5PlaceOf, isCmi5Return, launchCmi5Au, scoreText, type Cmi5Place } from './cmi5.ts'
import { useCmi5Status } from './data/apiHooks.ts'
import { MODULE_TOASTS } from './module-controller.ts'
import { LoadError } from './LoadError.tsx'
import { FRAME_STYLE } from './ScormLayout.tsx'
import { PLAYER_SANDBOX } from './ScormPlayer.tsx'

export interface Cmi5PlayerProps {
  module: LearnerModule
  /** This page's content origin (the registry's), null when it cannot tell. */
  contentOrigin: string | null
  onGoBack: () => void
  /** The module's moveOn is met (the status says satisfied): the viewer shows it completed. */
  onSatisfied: () => void
}

/** An open AU: in the viewer's frame, or in a window of its own (`win`: null when opened without a handle). */
interface OpenAu {
  au: Pick<Cmi5AuStatus, 'id' | 'title'>
  place: Cmi5Place
  win: Window | null
  /** When it was launched (statuses read before say nothing of this session). */
  since: number
}

/** The name of the window OwnWindow AUs of a module open in (one at a time). */
const windowName = (moduleId: number) => `cmi5-au-${moduleId}`

export const CMI5_TEXT = {
  otherWindow: 'This unit is open in another window.',
  blocked: 'Your browser blocked the window of this unit. Allow pop-ups for this site, then start the unit again.',
  noUnits: 'This module has no units.',
  done: 'You have completed this module.',
  todo: 'Complete the units below to finish this module.',
} as const

/**
 * A cmi5 module (issue 26): its assignable units (AUs) with the learner's status, each launched
 * by the server (a session, the launch URL with its one-time fetch URL). An AnyWindow AU on the
 * content origin plays in the viewer's frame, with the SCORM player frame's sandbox; any other in
 * a window of its own. The AU ends by going to its returnURL, the content player's return page,
 * which posts `portal:cmi5-return` here: the AU view closes and the statuses are read again.
 */
export const Cmi5Player = ({ module, contentOrigin, onGoBack, onSatisfied }: Cmi5PlayerProps) => {
  const toast = useToast()
  const queryClient = useQueryClient()
  const [open, setOpen] = useState<OpenAu | null>(null)
  const [launching, setLaunching] = useState<string | null>(null)
  const [launchError, setLaunchError] = useState<string | null>(null)
  const status = useCmi5Status(module.id, open !== null)
  const frameRef = useRef<HTMLIFrameElement | null>(null)
  const buttons = useRef(new Map<string, HTMLButtonElement>())
  const focusAfterClose = useRef<string | null>(null)
  const latest = useRef({ onSatisfied })
  latest.current = { onSatisfied }
  const listId = useId()

  const closeAu = (closeWindow: boolean) => {
    setOpen((current) => {
      if (current) focusAfterClose.current = current.au.id
      if (closeWindow && current?.win && !current.win.closed) current.win.close()
      return null
    })
    void status.refetch()
  }

  // The learner coming back to this window (from an AU's own window, say): the statuses are read again.
  // (React Query's own focus refetch listens to visibilitychange, which another window's focus does not fire.)
  const refetch = status.refetch
  useEffect(() => {
    const onFocus = () => void refetch()
    window.addEventListener('focus', onFocus)
    return () => window.removeEventListener('focus', onFocus)
  }, [refetch])

  // Back in the list: focus returns to the button of the AU just left.
  useEffect(() => {
    if (open || !focusAfterClose.current) return
    buttons.current.get(focusAfterClose.current)?.focus()
    focusAfterClose.current = null
  }, [open, status.data])

  // The return page's message, from the open AU's frame or window, on the content origin. (A window
  // on the content origin gets it only without the portal's COOP, which cuts the two windows apart:
  // then the session's end, in the statuses, closes the view.)
  useEffect(() => {
    if (!open) return undefined
    const origins = [contentOrigin, open.place.kind === 'frame' || open.place.sameContentOrigin ? open.place.origin : null].filter((o): o is string => !!o)
    const onMessage = (e: MessageEvent) => {
      if (!isCmi5Return(e.data, module.id) || !origins.includes(e.origin)) return
      const fromAu = open.place.kind === 'frame' ? fromFrame(e.source, frameRef.current) : open.win !== null && e.source === open.win
      if (fromAu) closeAu(true)
    }
    window.addEventListener('message', onMessage)
    return () => window.removeEventListener('message', onMessage)
  }, [open, contentOrigin, module.id])

  // The open AU's session has ended (Terminated, or abandoned), as statuses read after its launch say.
  const ended = open !== null && status.dataUpdatedAt > open.since && status.data?.aus.find((a) => a.id === open.au.id)?.open === false
  useEffect(() => {
    if (ended) closeAu(true)
  }, [ended])

  // moveOn met: the module shows completed, the course's progress moves (the viewer's queries are read again).
  const satisfied = status.data?.satisfied ?? false
  const announced = useRef(Boolean(module.completed_at))
  useEffect(() => {
    if (!satisfied || announced.current) return
    announced.current = true
    latest.current.onSatisfied()
    void refreshDashboard(queryClient)
    toast.success(MODULE_TOASTS.moduleCompleted)
  }, [satisfied])

  /**
   * The AU is open: its statuses are read at once (the session's start shows), which also cancels
   * a reading sent before the launch, so every later one knows of this session.
   */
  const opened = (au: OpenAu) => {
    setOpen(au)
    void status.refetch()
  }

  const start = async (au: Cmi5AuStatus) => {
    if (launching) return
    setLaunchError(null)
    // OwnWindow: its window opens now, in the click (pop-up blockers allow that), and goes to the launch URL once known.
    const early = au.launchMethod === 'OwnWindow' ? window.open('about:blank', windowName(module.id)) : null
    setLaunching(au.id)
    try {
      const launch = await launchCmi5Au(module.id, au.id)
      const place = cmi5PlaceOf(launch, contentOrigin)
      if (place.kind === 'frame') {
        early?.close()
        opened({ au, place, win: null, since: Date.now() })
        return
      }
      let win: Window | null
      if (early && !early.closed) {
        // Another origin gets no handle on the portal's window.
        if (!place.sameContentOrigin) early.opener = null
        early.location.replace(place.url)
        win = early
      } else if (place.sameContentOrigin) {
        win = window.open(place.url, windowName(module.id))
        if (!win) {
          setLaunchError(CMI5_TEXT.blocked)
          return
        }
      } else {
        // An AU of another origin: no opener (its return page then cannot post; focus and the polling tell instead).
        window.open(place.url, windowName(module.id), 'noopener')
        win = null
      }
      win?.focus()
      opened({ au, place, win, since: Date.now() })
    } catch (err) {
      early?.close()
      setLaunchError(errorMessage(err, 'Failed to start the unit'))
    } finally {
      setLaunching(null)
    }
  }

  if (status.isPending) return <Spinner label="Loading units..." />
  if (status.isError) return <LoadError message={errorMessage(status.error, 'Failed to load the units of this module')} onGoBack={onGoBack} />
  const aus = status.data.aus

  if (open?.place.kind === 'frame')
    return (
      <div className="pk-stack pk-gap-m">
        <div className="pk-row pk-between">
          <h4 className="pk-m0 pk-min-w0 pk-break">{open.au.title}</h4>
          <Button variant="secondary" onClick={() => closeAu(false)}>
            Return to the course
          </Button>
        </div>
        <iframe ref={frameRef} title={open.au.title} src={open.place.url} sandbox={PLAYER_SANDBOX} allow="fullscreen; autoplay; deferred-fetch" style={FRAME_STYLE} />
      </div>
    )

  if (open)
    return (
      <div role="status" className="pk-stack pk-items-start pk-border pk-rounded-sm pk-pad-l">
        <h4 className="pk-m0 pk-break">{open.au.title}</h4>
        <p className="pk-m0">{CMI5_TEXT.otherWindow}</p>
        <p className="pk-m0 pk-muted">When you have finished it there, come back here. If no window opened, your browser may have blocked it.</p>
        <Button onClick={() => closeAu(false)}>Return to the course</Button>
      </div>
    )

  return (
    <div className="pk-stack pk-gap-m">
      {launchError ? <Alert>{launchError}</Alert> : null}
      {aus.length === 0 ? (
        <EmptyState>{CMI5_TEXT.noUnits}</EmptyState>
      ) : (
        <>
          <p className="pk-m0" aria-live="polite">
            {satisfied ? CMI5_TEXT.done : CMI5_TEXT.todo}
          </p>
          <h4 id={listId} className="pk-m0">
            Units
          </h4>
          <ul aria-labelledby={listId} className="pk-list-none pk-m0 pk-p0 pk-flex pk-col pk-gap-m">
            {aus.map((au) => (
              <AuRow
                key={au.id}
                au={au}
                busy={launching !== null}
                starting={launching === au.id}
                onStart={() => void start(au)}
                buttonRef={(el) => {
                  if (el) buttons.current.set(au.id, el)
                  else buttons.current.delete(au.id)
                }}
              />
            ))}
          </ul>
        </>
      )}
    </div>
  )
}

/** One AU: its title (the row's name), its status in words, its score, and its button (described by the title). */
const AuRow = ({
  au,
  busy,
  starting,
  onStart,
  buttonRef,
}: {
  au: Cmi5AuStatus
  busy: boolean
  starting: boolean
  onStart: () => void
  buttonRef: (el: HTMLButtonElement | null) => void
}) => {
  const titleId = useId()
  const score = scoreText(au.score)
  const words = auStatusLabels(au).join(', ')
  return (
    <li aria-labelledby={titleId} className="pk-row pk-between pk-border pk-rounded-sm pk-pad-m">
      <div className="pk-stack pk-gap-xs pk-min-w0">
        <span id={titleId} className="pk-fw-semibold pk-break">
          {au.title}
        </span>
        <span className="pk-muted pk-fs-13">
          {score ? `${words} · ${score}` : words}
          {au.launchMethod === 'OwnWindow' ? ' · Opens in a new window' : ''}
        </span>
      </div>
      <Button ref={buttonRef} variant={au.satisfied ? 'secondary' : undefined} aria-describedby={titleId} disabled={busy} onClick={onStart}>
        {starting ? 'Starting...' : auActionLabel(au)}
      </Button>
    </li>
  )
}
