import { COURSE_MESSAGES } from '@portal/contracts'
import { Alert, Button, Modal, Spinner, TextField, errorMessage } from '@portal/ui-kit'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { fetchUsers, userKeys } from '../users/api.ts'
import { filterUsers, toggleIn } from '../users/filter.ts'

export interface AssignDialogProps {
  /** "Assign Exam: {name}" / "Assign Course: {title}". */
  title: string
  /** Users already assigned (ticked at the start). */
  initialSelected: readonly string[]
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

/** Assign an exam or a course to selected non-admin users: search, Select All / Deselect All (of those shown). */
export const AssignDialog = ({ title, initialSelected, assign: assignTo, errorFallback, onClose, onAssigned }: AssignDialogProps) => {
  const users = useQuery({ queryKey: userKeys.list(), queryFn: fetchUsers })
  const [search, setSearch] = useState('')
  const [selected, setSelected] = useState<string[]>(() => [...initialSelected])
  const [tried, setTried] = useState(false)
  const assign = useMutation({ mutationFn: () => assignTo(selected), onSuccess: onAssigned })
  const learners = (users.data ?? []).filter((u) => !u.is_admin)
  const shown = filterUsers(learners, search)
  const error = assignError(tried, selected.length, assign.isError ? errorMessage(assign.error, errorFallback) : null)
  const errorId = useId()
  const submit = () => {
    setTried(true)
    // Not disabled while busy: a focused button that turns disabled drops focus to <body>.
    if (selected.length === 0 || assign.isPending) return
    assign.mutate()
  }
  return (
    <Modal open title={title} onClose={onClose}>
      {users.isPending ? (
        <Spinner label="Loading users..." />
      ) : users.isError ? (
        <Alert>{errorMessage(users.error, 'Failed to fetch users')}</Alert>
      ) : (
        <div className="pk-stack">
          <TextField
            label="Search users"
            type="search"
            placeholder="Search by name or email"
            // The dialog opens on Cancel while users load: move on to the search once it is there.
            autoFocus
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <div className="pk-row">
            <Button
              size="small"
              variant="secondary"
              onClick={() => setSelected((s) => [...new Set([...s, ...shown.map((u) => u.id)])])}
            >
              Select All
            </Button>
            <Button
              size="small"
              variant="secondary"
              onClick={() => setSelected((s) => s.filter((id) => !shown.some((u) => u.id === id)))}
            >
              Deselect All
            </Button>
            <span className="pk-muted" role="status">
              {selected.length} selected
            </span>
          </div>
          <fieldset
            aria-describedby={error ? errorId : undefined}
            style={{ border: '1px solid var(--c-border)', borderRadius: 6, maxHeight: 280, overflowY: 'auto', margin: 0, padding: '.5rem .75rem' }}
          >
            <legend className="pk-visually-hidden">Users</legend>
            {shown.length === 0 ? (
              <p className="pk-muted">No users found</p>
            ) : (
              shown.map((u) => (
                <label key={u.id} className="pk-check" style={{ fontWeight: 500, padding: '.25rem 0' }}>
                  <input type="checkbox" checked={selected.includes(u.id)} onChange={() => setSelected((s) => toggleIn(s, u.id))} />
                  <span>
                    {u.name} <span className="pk-muted">({u.email})</span>
                  </span>
                </label>
              ))
            )}
          </fieldset>
        </div>
      )}
      {error ? <Alert id={errorId}>{error}</Alert> : null}
      <div className="pk-row" style={{ justifyContent: 'flex-end' }}>
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
