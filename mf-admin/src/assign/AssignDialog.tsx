import { BRANCHES, COURSE_MESSAGES, DEPARTMENTS } from '@portal/contracts'
import { Alert, Button, Modal, Select, Spinner, TextField, errorMessage } from '@portal/ui-kit'
import { useId, useState } from 'react'
import { filterLearners, selectionSummary, toggleIn, useUserGroups, useUsers, type LearnerFilter } from '../users/index.ts'
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
  const shown = filterLearners(learners, filter)
  const set = (key: keyof LearnerFilter) => (e: { target: { value: string } }) => setFilter((f) => ({ ...f, [key]: e.target.value }))
  const error = assignError(tried, selected.length, assign.isError ? errorMessage(assign.error, errorFallback) : null)
  const errorId = useId()
  const submit = () => {
    setTried(true)
    // Not disabled while busy: a focused button that turns disabled drops focus to <body>.
    if (selected.length === 0 || assign.isPending) return
    assign.mutate(selected)
  }
  return (
    <Modal open title={title} onClose={onClose}>
      {users.isPending ? (
        <Spinner label="Loading users..." />
      ) : users.isError ? (
        <Alert>{errorMessage(users.error, 'Failed to fetch users')}</Alert>
      ) : (
        <div className="pk-stack">
          {assignedToAll ? (
            <Alert tone="info">
              This {what} is assigned to all users: every learner has it, whoever is selected here. The selection below is kept for when it is no longer assigned to all.
            </Alert>
          ) : null}
          <TextField
            label="Search users"
            type="search"
            placeholder="Search by name or email"
            // The dialog opens on Cancel while users load: move on to the search once it is there.
            autoFocus
            value={filter.search}
            onChange={set('search')}
          />
          <div className="pk-grid pk-grid-140 pk-gap-m">
            <Select label="Branch" placeholder={ANY.label} options={BRANCHES.map((b) => ({ value: b, label: b }))} value={filter.branch} onChange={set('branch')} />
            <Select label="Department" placeholder={ANY.label} options={DEPARTMENTS.map((d) => ({ value: d, label: d }))} value={filter.department} onChange={set('department')} />
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
            <span className="pk-muted" role="status">
              {selectionSummary(selected, initialSelected, assignedToAll)}
            </span>
          </div>
          <fieldset aria-describedby={error ? errorId : undefined} className="pk-border pk-rounded-sm pk-max-h280 pk-scroll-y pk-m0 pk-pad-s2">
            <legend className="pk-visually-hidden">Users</legend>
            {shown.length === 0 ? (
              <p className="pk-muted">No users found</p>
            ) : (
              shown.map((u) => (
                <label key={u.id} className="pk-check pk-fw-medium pk-py-xs">
                  <input type="checkbox" checked={selected.includes(u.id)} onChange={() => setSelected((s) => toggleIn(s, u.id))} />
                  <span>
                    {u.name} <span className="pk-muted">({u.email})</span>
                    {u.branch || u.department ? (
                      <span className="pk-muted pk-block pk-fw-normal pk-fs-13">{[u.branch, u.department, u.user_group].filter(Boolean).join(' · ')}</span>
                    ) : null}
                  </span>
                  {initialSelected.includes(u.id) ? <span className="pk-badge">Assigned</span> : null}
                </label>
              ))
            )}
          </fieldset>
        </div>
      )}
      {error ? <Alert id={errorId}>{error}</Alert> : null}
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
