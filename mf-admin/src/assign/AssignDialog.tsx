import { BRANCHES, COURSE_MESSAGES, DEPARTMENTS } from '@portal/contracts'
import { Alert, Button, Modal, PeoplePicker, Select, Spinner, errorMessage, filterPeople, focusFirstInvalid } from '@portal/ui-kit'
import { useRef, useState } from 'react'
import { filterLearners, personOf, selectionSummary, useUserGroups, useUsers, type LearnerFilter } from '../users/index.ts'
import { useAssign } from './data/apiHooks.ts'

export interface AssignDialogProps {
  /** "Assign Exam: {name}" / "Assign Course: {title}". */
  title: string
  /** Users already assigned (ticked at the start, marked in the list). */
  initialSelected: readonly string[]
  /** The exam or course is assigned to all users (Assign then only keeps a selection by name). */
  assignedToAll: boolean
  /** "exam" or "course", for the words of the dialog. */
  what: string
  assign: (userIds: string[]) => Promise<unknown>
  /** Shown when the call fails without a server message ("Failed to assign exam"). */
  errorFallback: string
  onClose: () => void
  onAssigned: () => void
}

/**
 * The dialog's error: after a try with nobody ticked, "Please select at least one user" for as long
 * as the selection is empty (it goes as soon as someone is ticked); else a failed call's message.
 */
export const assignError = (tried: boolean, selectedCount: number, callError: string | null): string | null =>
  tried && selectedCount === 0 ? COURSE_MESSAGES.selectAtLeastOneUser : callError

const ANY = { value: '', label: 'Any' }
const NO_FILTER: LearnerFilter = { search: '', branch: '', department: '', group: '' }

/**
 * Assign an exam or a course to selected non-admin users: search, filters by branch, department and
 * group, Select All / Deselect All (of those shown); who is assigned now is marked, and the count
 * says what Assign changes.
 */
export const AssignDialog = ({ title, initialSelected, assignedToAll, what, assign: assignTo, errorFallback, onClose, onAssigned }: AssignDialogProps) => {
  const users = useUsers()
  const groups = useUserGroups()
  const [filter, setFilter] = useState<LearnerFilter>(NO_FILTER)
  const [selected, setSelected] = useState<string[]>(() => [...initialSelected])
  const [tried, setTried] = useState(false)
  const assign = useAssign(assignTo, onAssigned)
  const learners = (users.data ?? []).filter((u) => !u.is_admin)
  // The branch, department and group filters here; the picker searches name, e-mail and employee id.
  const people = filterLearners(learners, { ...filter, search: '' }).map((u) => ({
    ...personOf(u),
    detail: [u.branch, u.department, u.user_group].filter(Boolean).join(' · ') || null,
    badge: initialSelected.includes(u.id) ? 'Assigned' : null,
  }))
  const shown = filterPeople(people, filter.search)
  const set = (key: keyof LearnerFilter) => (e: { target: { value: string } }) => setFilter((f) => ({ ...f, [key]: e.target.value }))
  const callError = assign.isError ? errorMessage(assign.error, errorFallback) : null
  const error = assignError(tried, selected.length, callError)
  // The refused choice marks the picker; a failed call is said under it.
  const choiceError = error !== callError ? error : null
  const pickerRef = useRef<HTMLDivElement>(null)
  const submit = () => {
    setTried(true)
    if (selected.length === 0) {
      // After the refusal has rendered, focus goes to the search field it marks (its message is read).
      requestAnimationFrame(() => focusFirstInvalid(pickerRef.current))
      return
    }
    // Not disabled while busy: a focused button that turns disabled drops focus to <body>.
    if (assign.isPending) return
    assign.mutate(selected)
  }
  return (
    <Modal open title={title} onClose={onClose}>
      {users.isPending ? (
        <Spinner label="Loading users..." />
      ) : users.isError ? (
        <Alert>{errorMessage(users.error, 'Failed to fetch users')}</Alert>
      ) : (
        <div className="pk-stack" ref={pickerRef}>
          {assignedToAll ? (
            <Alert tone="info">
              This {what} is assigned to all users: every learner has it, whoever is selected here. The selection below is kept for when it is no longer assigned to all.
            </Alert>
          ) : null}
          <PeoplePicker
            legend="Users"
            searchLabel="Search users"
            people={people}
            selected={selected}
            onChange={setSelected}
            search={filter.search}
            onSearch={(search) => setFilter((f) => ({ ...f, search }))}
            error={choiceError}
            summary={selectionSummary(selected, initialSelected, assignedToAll)}
            // The dialog opens on Cancel while users load: move on to the search once it is there.
            autoFocus
          >
            <div className="pk-grid pk-grid-140 pk-gap-m">
              <Select label="Branch" placeholder={ANY.label} options={BRANCHES.map((b) => ({ value: b, label: b }))} value={filter.branch} onChange={set('branch')} />
              <Select
                label="Department"
                placeholder={ANY.label}
                options={DEPARTMENTS.map((d) => ({ value: d, label: d }))}
                value={filter.department}
                onChange={set('department')}
              />
              <Select
                label="User Group"
                placeholder={ANY.label}
                options={(groups.data ?? []).map((g) => ({ value: g.name, label: g.name }))}
                value={filter.group}
                onChange={set('group')}
              />
            </div>
            <div className="pk-row">
              <Button size="small" variant="secondary" onClick={() => setSelected((s) => [...new Set([...s, ...shown.map((u) => u.id)])])}>
                Select All
              </Button>
              <Button size="small" variant="secondary" onClick={() => setSelected((s) => s.filter((id) => !shown.some((u) => u.id === id)))}>
                Deselect All
              </Button>
            </div>
          </PeoplePicker>
        </div>
      )}
      {callError && !choiceError ? <Alert>{callError}</Alert> : null}
      <div className="pk-row pk-justify-end">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={submit} disabled={!users.isSuccess} aria-disabled={assign.isPending || undefined}>
          Assign
        </Button>
      </div>
    </Modal>
  )
}
