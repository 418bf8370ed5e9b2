import { PROGRESS_TRACKER as T, type LearnerModule, type ScormLaunch } from '@portal/contracts'
import { Alert, Button, Spinner, useToast } from '@portal/ui-kit'
import { useEffect, useId, useLayoutEffect, useRef, useState, type RefObject } from 'react'
import type { FlowButton, SequencedSession, SequencingView } from '../runtime/index.ts'
import { MODULE_TOASTS, type ModuleController } from './module-controller.ts'
import { ScoFrame } from './ScoFrame.tsx'
import { LeftLesson, ScormLayout } from './ScormLayout.tsx'
import { countLaunchable, findItem, LOCKED, ScoTree } from './ScoTree.tsx'

type Runtime = typeof import('../runtime/index.ts')

export interface SequencedScormProps {
  runtime: Runtime
  launch: ScormLaunch
  module: LearnerModule
  controller: ModuleController
  frameRef: RefObject<HTMLIFrameElement | null>
  edited: boolean
}

const LEFT: Record<NonNullable<SequencingView['idle']>, string> = {
  exited: 'You have left the lesson.',
  suspended: 'You have left the lesson. It resumes where you were.',
  ended: 'You have left the lesson.',
  unavailable: 'No lesson of this module can be opened now.',
}

/**
 * A sequenced SCORM 2004 package (the launch has `sequencing`): scorm-again's engine decides which
 * SCO is open and what the lesson tree and the Previous/Continue buttons may lead to; the content's
 * own navigation requests go through it too.
 */
export const SequencedScorm = ({ runtime, launch, module, controller, frameRef, edited }: SequencedScormProps) => {
  const toast = useToast()
  const [view, setView] = useState<SequencingView | null>(null)
  const [contentLoading, setContentLoading] = useState(true)
  const seqRef = useRef<SequencedSession | null>(null)
  const trackingIssueShown = useRef(false)

  // One engine for this visit of the module.
  useEffect(() => {
    const loaded = () => setContentLoading(false)
    const seq = runtime.startSequencedSession({
      launch,
      host: window,
      events: {
        onView: setView,
        onActivity: loaded,
        onInitialize: () => {
          loaded()
          controller.raise(T.scormInitialized)
        },
        onChange: (_element, _value, status) => {
          if (status.progressMeasure !== null && status.progressMeasure > 0) controller.contentProgress(status.progressMeasure * 100)
        },
        // The package's own rollup says the module is done (the commit carrying it completes it on the server).
        onRootDone: (atFinish) => controller.completeReported(atFinish ? 'scorm-finish' : 'scorm-status'),
        onCommitError: () => {
          if (trackingIssueShown.current) return
          trackingIssueShown.current = true
          toast.error(MODULE_TOASTS.trackingIssue)
        },
      },
    })
    seqRef.current = seq
    seq.start()
    const unflush = runtime.flushOnPageHide(window, () => seqRef.current)
    return () => {
      unflush()
      seq.destroy()
      if (seqRef.current === seq) seqRef.current = null
    }
    // Deliberately keyed: one engine per launch.
  }, [runtime, launch])

  // Closing the module with a SCO open suspends it; this runs before the SCO frame is removed (and
  // the content terminates in its unload handler).
  useLayoutEffect(() => () => seqRef.current?.leave(), [])

  // A navigation asked in the viewer removed the SCO frame: the engine ends what the content did not.
  useEffect(() => {
    if (view?.unloading) seqRef.current?.contentUnloaded()
  }, [view?.unloading])

  // Each delivered SCO loads anew.
  const delivered = view?.current ? view.delivery : null
  useEffect(() => {
    if (delivered === null) return undefined
    setContentLoading(true)
    const fallback = setTimeout(() => setContentLoading(false), T.contentLoadFallbackMs)
    return () => clearTimeout(fallback)
  }, [delivered])

  if (!view) return <Spinner label="Loading SCORM content..." />
  const seq = seqRef.current
  const multi = countLaunchable(launch.items) > 1
  const title = view.current ? (findItem(launch.items, view.current)?.title ?? module.title) : module.title
  const tree = multi ? (
    <ScoTree
      items={launch.items}
      activeId={view.current}
      access={view.access}
      // the open lesson stays open (choosing it again would start it anew)
      onPick={(id) => (id === view.current ? undefined : seq?.navigate({ kind: 'choice', target: id }))}
    />
  ) : null
  return (
    <ScormLayout title={launch.title} tree={tree}>
      {view.notice ? <Alert tone="info">{view.notice}</Alert> : null}
      {view.current && view.href ? (
        <>
          {contentLoading ? <Spinner label="Loading SCORM content..." /> : null}
          <ScoFrame key={view.delivery} frameRef={frameRef} title={title} src={view.href} edited={edited} controller={controller} />
        </>
      ) : view.unloading || !view.idle ? (
        <Spinner label="Loading SCORM content..." />
      ) : (
        <LeftLesson
          message={view.idle === 'exited' && multi ? `${LEFT.exited} Choose a lesson to continue.` : LEFT[view.idle]}
          onResume={view.idle === 'unavailable' ? null : () => seq?.resume()}
        />
      )}
      {view.previous.shown || view.continue.shown ? (
        <div role="group" aria-label="Lesson navigation" className="pk-row" style={{ justifyContent: 'space-between', alignItems: 'flex-start' }}>
          {view.previous.shown ? <FlowNav label="Previous" button={view.previous} onGo={() => seq?.navigate({ kind: 'previous' })} /> : <span />}
          {view.continue.shown ? <FlowNav label="Continue" button={view.continue} onGo={() => seq?.navigate({ kind: 'continue' })} /> : null}
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
        <span id={reasonId} className="pk-muted" style={{ fontSize: '.8125rem' }}>
          {button.reason}
        </span>
      ) : null}
    </div>
  )
}
