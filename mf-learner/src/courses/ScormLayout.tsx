import { Button } from '@portal/ui-kit'
import type { ReactNode } from 'react'

/** How a content frame (the SCORM player, a PDF) sits in the viewer. */
export const FRAME_STYLE = { width: '100%', height: '75vh', minHeight: 420, border: '1px solid var(--c-border)', borderRadius: 6, background: '#fff' } as const

/** A SCORM module's layout: the lesson tree beside the content when the package has several SCOs. */
export const ScormLayout = ({ title, tree, children }: { title: string; tree: ReactNode | null; children: ReactNode }) => (
  <div style={{ display: 'grid', gap: '1rem', gridTemplateColumns: tree ? 'minmax(150px, 200px) minmax(0, 1fr)' : 'minmax(0, 1fr)' }}>
    {tree ? (
      <nav aria-label="Lessons in this module" className="pk-fs-15">
        <h4 className="pk-mb-m">{title || 'Lessons'}</h4>
        {tree}
      </nav>
    ) : null}
    <div className="pk-stack pk-gap-m">{children}</div>
  </div>
)

/** Shown when no SCO is open (the content exited): what happened and the way back in. */
export const LeftLesson = ({ message, onResume }: { message: string; onResume: (() => void) | null }) => (
  <div role="status" className="pk-stack pk-items-start pk-border pk-rounded-sm pk-pad-l">
    <p className="pk-m0">{message}</p>
    {onResume ? <Button onClick={onResume}>Resume Lesson</Button> : null}
  </div>
)
