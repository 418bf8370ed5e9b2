import type { Cmi5AuStatus } from '@portal/contracts'
import { Alert, Button, DataTable, EmptyState, LiveRegion, Spinner, errorMessage, useAnnouncement } from '@portal/ui-kit'
import { useEffect, useId, useRef, useState } from 'react'
import { useAdminCourses } from '../courses/index.ts'
import { useLearnerCmi5Status } from './data/apiHooks.ts'
import { auStatusText, isWaivable, learnerCmi5Modules, type LearnerCmi5Module } from './cmi5-units-view.ts'
import { WaiveDialog } from './WaiveDialog.tsx'

export interface Cmi5UnitsSectionProps {
  learner: { id: string; name: string }
  /** After a waiver (the learner's figures may have changed: a module or course completed). */
  onWaived?: () => void
}

/**
 * The learner's cmi5 units (issue 26): for every cmi5 module of the courses assigned to them, each
 * assignable unit with its status in the learner viewer's words, and Waive for a unit not yet
 * satisfied. Successes are announced in the section's live region (a toast outside an open modal
 * dialog would be inert).
 */
export const Cmi5UnitsSection = ({ learner, onWaived }: Cmi5UnitsSectionProps) => {
  const courses = useAdminCourses()
  const [announcement, announce] = useAnnouncement()
  const modules = courses.data ? learnerCmi5Modules(courses.data, learner.id) : []
  const headingId = useId()
  return (
    <section className="pk-stack" aria-labelledby={headingId}>
      <h3 id={headingId} className="pk-m0">
        cmi5 Units
      </h3>
      <LiveRegion message={announcement} />
      {courses.isPending ? <Spinner label="Loading cmi5 units..." /> : null}
      {courses.isError ? <Alert>{errorMessage(courses.error, 'Failed to fetch courses')}</Alert> : null}
      {courses.data && modules.length === 0 ? <EmptyState>No cmi5 courses assigned</EmptyState> : null}
      {modules.map((m) => (
        <ModuleUnits
          key={m.module.id}
          entry={m}
          learner={learner}
          onWaived={(au) => {
            announce(`“${au.title}” waived for ${learner.name}.`)
            onWaived?.()
          }}
        />
      ))}
    </section>
  )
}

/** One cmi5 module's units for the learner. */
const ModuleUnits = ({ entry, learner, onWaived }: { entry: LearnerCmi5Module; learner: { id: string; name: string }; onWaived: (au: Cmi5AuStatus) => void }) => {
  const { course, module } = entry
  const status = useLearnerCmi5Status(module.id, learner.id)
  const [waiving, setWaiving] = useState<Cmi5AuStatus | null>(null)
  /** The AU whose Waive button opened the dialog: focus goes back to it (or to its row when it is gone: waived). */
  const [returnTo, setReturnTo] = useState<string | null>(null)
  const buttons = useRef(new Map<string, HTMLButtonElement>())
  const rowHeads = useRef(new Map<string, HTMLTableCellElement>())
  useEffect(() => {
    if (waiving || returnTo === null) return
    // After the dialog's own clean-up (it refocuses the opener, which may no longer be there).
    const target = buttons.current.get(returnTo) ?? rowHeads.current.get(returnTo)
    target?.focus()
    setReturnTo(null)
  }, [waiving, returnTo, status.data])
  const heading = `${course.title}: ${module.title}`
  const aus = status.data?.aus ?? []
  return (
    <div className="pk-stack">
      <h4 className="pk-m0">{heading}</h4>
      {status.isPending ? <Spinner label={`Loading the units of ${module.title}...`} /> : null}
      {status.isError ? <Alert>{errorMessage(status.error, 'Failed to fetch the units')}</Alert> : null}
      {status.data && aus.length === 0 ? <EmptyState>This module has no units</EmptyState> : null}
      {aus.length > 0 ? (
        <DataTable>
          <caption className="pk-visually-hidden">{`Units of ${heading}`}</caption>
          <thead>
            <tr>
              <th scope="col">Unit</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="pk-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {aus.map((au) => (
              <tr key={au.id}>
                <th
                  scope="row"
                  tabIndex={-1}
                  ref={(el) => {
                    if (el) rowHeads.current.set(au.id, el)
                    else rowHeads.current.delete(au.id)
                  }}
                >
                  {au.title}
                </th>
                <td>{auStatusText(au)}</td>
                <td>
                  {isWaivable(au) ? (
                    <Button
                      size="small"
                      variant="secondary"
                      aria-label={`Waive ${au.title}`}
                      ref={(el) => {
                        if (el) buttons.current.set(au.id, el)
                        else buttons.current.delete(au.id)
                      }}
                      onClick={() => {
                        setReturnTo(au.id)
                        setWaiving(au)
                      }}
                    >
                      Waive
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      ) : null}
      {waiving ? (
        <WaiveDialog
          moduleId={module.id}
          moduleTitle={module.title}
          learner={learner}
          au={waiving}
          onClose={() => setWaiving(null)}
          onWaived={() => {
            onWaived(waiving)
            setWaiving(null)
          }}
        />
      ) : null}
    </div>
  )
}
