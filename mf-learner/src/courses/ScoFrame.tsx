import { useEffect, useRef, type RefObject } from 'react'
import { frameHref, watchInteractions } from './frame.ts'
import type { ModuleController } from './module-controller.ts'

/** `sandbox` of the SCO frame: same origin, so the SCO finds window.parent.API / API_1484_11. */
export const SCO_SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups allow-modals allow-downloads'

export const FRAME_STYLE = { width: '100%', height: '75vh', minHeight: 420, border: '1px solid var(--c-border)', borderRadius: 6, background: '#fff' } as const

export interface ScoFrameProps {
  frameRef: RefObject<HTMLIFrameElement | null>
  title: string
  /** Set here, or by the caller once the SCO's API is installed. */
  src?: string
  edited: boolean
  controller: ModuleController
}

/**
 * The frame of one SCO (give it a key per SCO): counts the learner's interactions in it and, for
 * unedited packages, takes a second load of the frame as completion (learner §4).
 */
export const ScoFrame = ({ frameRef, title, src, edited, controller }: ScoFrameProps) => {
  const loads = useRef(0)
  const unwatch = useRef<() => void>(() => undefined)
  useEffect(() => () => unwatch.current(), [])
  return (
    <iframe
      ref={frameRef}
      title={title}
      src={src}
      sandbox={SCO_SANDBOX}
      allow="fullscreen; autoplay"
      style={FRAME_STYLE}
      onLoad={() => {
        const frame = frameRef.current
        if (!frameHref(frame)) return
        loads.current += 1
        unwatch.current()
        unwatch.current = watchInteractions(frame, () => controller.interaction())
        if (loads.current >= 2 && !edited) void controller.complete('frame-reload')
      }}
    />
  )
}
