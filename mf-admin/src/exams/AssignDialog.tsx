import type { Exam } from '@portal/contracts'
import { EXAM_MESSAGES } from '@portal/contracts'
import { Alert, Button, Modal, Spinner, TextField, errorMessage } from '@portal/ui-kit'
import { useMutation, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { fetchUsers, userKeys } from '../users/api.ts'
import { filterUsers, toggleIn } from '../users/filter.ts'
import { assignExam } from './api.ts'

/** Assign an exam to selected non-admin users: search, Select All / Deselect All (of those shown). */
export const AssignDialog = ({ exam, onClose, onAssigned }: { exam: Exam; onClose: () => void; onAssigned: () => void }) => {
  const users = useQuery({ queryKey: userKeys.list(), queryFn: fetchUsers })
  const [search, setSearch] = useState('')
  const [selected, setSelected] = useState<string[]>(() => [...exam.assigned_user_ids])
  const [error, setError] = useState<string | null>(null)
  const assign = useMutation({
    mutationFn: () => assignExam(exam.id, selected),
    onSuccess: onAssigned,
    onError: (err) => setError(errorMessage(err, 'Failed to assign exam')),
  })
  const learners = (users.data ?? []).filter((u) => !u.is_admin)
  const shown = filterUsers(learners, search)
  const submit = () => {
    if (selected.length === 0) {
      setError(EXAM_MESSAGES.selectAtLeastOneUser)
      return
    }
    setError(null)
    assign.mutate()
  }
  return (
    <Modal open title={`Assign Exam: ${exam.name}`} onClose={onClose}>
      {users.isPending ? (
        <Spinner label="Loading users..." />
      ) : users.isError ? (
        <Alert>{errorMessage(users.error, 'Failed to fetch users')}</Alert>
      ) : (
        <div className="pk-stack">
          <TextField label="Search users" type="search" placeholder="Search by name or email" value={search} onChange={(e) => setSearch(e.target.value)} />
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
          <fieldset style={{ border: '1px solid var(--c-border)', borderRadius: 6, maxHeight: 280, overflowY: 'auto', margin: 0, padding: '.5rem .75rem' }}>
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
      {error ? <Alert>{error}</Alert> : null}
      <div className="pk-row" style={{ justifyContent: 'flex-end' }}>
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={submit} disabled={assign.isPending || !users.isSuccess}>
          Assign
        </Button>
      </div>
    </Modal>
  )
}
