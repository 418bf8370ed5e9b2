import type { CompleteModuleResponse, LearnerModule } from '@portal/contracts'
import { ApiError, Button, EmptyState, errorMessage, Spinner, useToast } from '@portal/ui-kit'
import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState } from 'react'
import { refreshDashboard } from '../dashboard-keys.ts'
import { useCourseModules } from './data/apiHooks.ts'
import { completedByText, completedOnText, completedText, initialModule, modulePositionText, moduleStatusLabel, moduleTypeLabel, percent, sortModules } from './course-view.ts'
import { MODULE_TOASTS } from './module-controller.ts'
import { LoadError, ModulePlayer } from './ModulePlayer.tsx'
import { ProgressBar } from './ProgressBar.tsx'

export interface CourseViewerProps {
  courseId: number
  /** Module to open first (if unlocked). */
  requestedModuleId?: number | null
  onClose: () => void
  /** The host's page announcement (the viewer opens in place of the dashboard). */
  announcePage?: (title: string) => void
}

const STATUS_COLOR: Record<ReturnType<typeof moduleStatusLabel>, string> = {
  Completed: 'var(--c-success)',
  Current: 'var(--c-primary)',
  Available: 'var(--c-muted)',
  Locked: 'var(--c-muted)',
}

/** The course viewer (learner §2): module sidebar, "Module X of Y", Close Course, the selected module. */
const CourseViewer = ({ courseId, requestedModuleId = null, onClose, announcePage }: CourseViewerProps) => {
  const toast = useToast()
  const queryClient = useQueryClient()
  const modules = useCourseModules(courseId)
  const [selectedId, setSelectedId] = useState<number | null>(null)
  const [loadNo, setLoadNo] = useState(0)
  const [live, setLive] = useState<Record<number, number>>({})
  const headingRef = useRef<HTMLHeadingElement>(null)
  // What the open module needs before it unmounts (its content leaves as on a page leave, its last commit goes out).
  const closeModule = useRef<(() => Promise<void>) | null>(null)
  const leaving = useRef(false)
  const registerClose = useCallback((close: (() => Promise<void>) | null) => {
    closeModule.current = close
  }, [])
  /** Runs `then` once the open module has let its content leave (never twice at once). */
  const leaveModule = async (then: () => void) => {
    if (leaving.current) return
    leaving.current = true
    try {
      await closeModule.current?.()
    } finally {
      leaving.current = false
    }
    then()
  }

  useEffect(() => headingRef.current?.focus(), [])

  const list = modules.data ? sortModules(modules.data.modules) : []
  useEffect(() => {
    if (selectedId === null && modules.data) setSelectedId(initialModule(modules.data.modules, requestedModuleId)?.id ?? null)
  }, [modules.data, requestedModuleId, selectedId])

  const title = modules.data?.title ?? ''
  useEffect(() => announcePage?.(title || 'Course'), [announcePage, title])
  const onProgress = useCallback((moduleId: number, progress: number) => setLive((l) => ({ ...l, [moduleId]: progress })), [])
  const onCompleted = useCallback(
    (_module: LearnerModule, result: CompleteModuleResponse) => {
      // After a completion the module list (and the dashboard behind it) is reloaded.
      void refreshDashboard(queryClient)
      // Only a module not completed when it was opened asks, so this is news to the learner even when
      // the content's own commit recorded it a moment earlier (newly_completed false).
      if (result.course_completed) {
        toast.success(MODULE_TOASTS.courseCompleted)
        toast.success(MODULE_TOASTS.congratulations(title))
      } else toast.success(MODULE_TOASTS.moduleCompleted)
    },
    [queryClient, toast, title],
  )

  const select = (id: number) => {
    if (id === selectedId) return
    void leaveModule(() => {
      setSelectedId(id)
      setLoadNo((n) => n + 1)
    })
  }
  const close = () => void leaveModule(onClose)

  const validCourse = Number.isInteger(courseId) && courseId > 0
  const selected = list.find((m) => m.id === selectedId) ?? null
  const position = modulePositionText(list, selectedId)
  const shownProgress = (m: LearnerModule) => (m.completed_at ? 100 : Math.max(m.progress, live[m.id] ?? 0))
  // The course's progress is the mean of its modules' (as the server computes it), live while the learner works.
  const courseProgress = list.length > 0 ? percent(list.reduce((sum, m) => sum + shownProgress(m), 0) / list.length) : percent(modules.data?.progress ?? 0)

  return (
    <section className="pk-card pk-stack" aria-labelledby="course-viewer-title">
      <div className="pk-row pk-between">
        <div>
          <h1 id="course-viewer-title" ref={headingRef} tabIndex={-1} className="pk-mb-xs pk-fs-24">
            {title || 'Course'}
          </h1>
          {position ? (
            <p className="pk-muted pk-m0" aria-live="polite">
              {position}
            </p>
          ) : null}
        </div>
        <Button variant="secondary" onClick={close}>
          Close Course
        </Button>
      </div>

      {!validCourse ? (
        <LoadError message="Course ID not available" onGoBack={onClose} />
      ) : modules.isPending ? (
        <Spinner label="Loading course modules..." />
      ) : modules.isError ? (
        <LoadError
          message={
            modules.error instanceof ApiError && modules.error.status === 401
              ? 'Authentication failed. Please log in again.'
              : errorMessage(modules.error, 'Failed to load course modules')
          }
          onGoBack={onClose}
        />
      ) : (
        <div className="pk-split">
          <nav aria-label="Course modules" className="pk-stack pk-split__side pk-gap-l">
            <div className="pk-stack pk-gap-xs">
              <p className="pk-m0 pk-fw-semibold" aria-live="polite">
                {completedText(list)}
              </p>
              <ProgressBar value={courseProgress} label="Course progress" showText />
            </div>
            <ol className="pk-list-none pk-m0 pk-p0 pk-flex pk-col pk-gap-m">
              {list.map((m, index) => {
                const status = moduleStatusLabel(m, selectedId)
                const progress = shownProgress(m)
                const done = completedOnText(m.completed_at)
                const by = done ? completedByText(m.completed_by) : null
                return (
                  <li key={m.id}>
                    <button
                      type="button"
                      onClick={() => select(m.id)}
                      disabled={status === 'Locked'}
                      aria-current={m.id === selectedId ? 'true' : undefined}
                      style={{
                        width: '100%',
                        textAlign: 'left',
                        font: 'inherit',
                        color: 'inherit',
                        cursor: status === 'Locked' ? 'not-allowed' : 'pointer',
                        background: m.id === selectedId ? 'var(--c-info-bg)' : '#fff',
                        border: `1px solid ${m.id === selectedId ? 'var(--c-primary)' : 'var(--c-border)'}`,
                        borderRadius: 6,
                        padding: '.625rem .75rem',
                        display: 'flex',
                        flexDirection: 'column',
                        gap: '.375rem',
                      }}
                    >
                      {/* Named by what it shows, in its order (a voice user says what they see); the bar's percent as text. */}
                      <span className="pk-flex pk-gap-m pk-items-baseline">
                        <span style={{ fontWeight: 700, minWidth: '1.5rem' }}>{index + 1}.</span> <span className="pk-fw-semibold pk-flex-1 pk-min-w0 pk-break">{m.title}</span>{' '}
                        <span className="pk-badge">{moduleTypeLabel(m)}</span>
                      </span>{' '}
                      <span style={{ fontSize: '.8125rem', fontWeight: 600, color: STATUS_COLOR[status] }}>
                        {status}
                        <span className="pk-visually-hidden">, {progress}%</span>
                      </span>{' '}
                      <span aria-hidden="true" className="pk-block">
                        <ProgressBar value={progress} label={`${m.title} progress`} />
                      </span>
                      {done ? <span className="pk-muted pk-fs-13">{by ? `${done} · ${by}` : done}</span> : null}
                    </button>
                  </li>
                )
              })}
            </ol>
          </nav>
          <div className="pk-split__main">
            {selected ? (
              <ModulePlayer
                key={`${selected.id}:${loadNo}`}
                module={{
                  ...selected,
                  // What this viewer already sent counts even before the list is reloaded.
                  progress: shownProgress(selected),
                  started_at: selected.started_at ?? (live[selected.id] ? new Date().toISOString() : null),
                }}
                courseId={courseId}
                onProgress={onProgress}
                onCompleted={onCompleted}
                onGoBack={close}
                registerClose={registerClose}
              />
            ) : selectedId !== null ? (
              <div role="alert" className="pk-alert pk-alert--error">
                Module not found
              </div>
            ) : (
              <EmptyState>No module selected</EmptyState>
            )}
          </div>
        </div>
      )}
    </section>
  )
}

export default CourseViewer
