import { MESSAGES } from '@portal/contracts'
import { Alert, ApiError, Button, EmptyState, Spinner, TextField, errorMessage } from '@portal/ui-kit'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { createGroup, fetchGroups, groupKeys } from '../users/api.ts'

/** Groups tab ("User Groups & Notifications"): create and list groups. */
export const GroupsTab = () => {
  const queryClient = useQueryClient()
  const groups = useQuery({ queryKey: groupKeys.list(), queryFn: fetchGroups })
  const [name, setName] = useState('')
  const [fieldError, setFieldError] = useState<string | null>(null)
  const [created, setCreated] = useState<string | null>(null)
  const create = useMutation({
    mutationFn: (groupName: string) => createGroup(groupName),
    onSuccess: async (group) => {
      setName('')
      setCreated(`Group "${group.name}" created.`)
      await queryClient.invalidateQueries({ queryKey: groupKeys.all })
    },
  })

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setCreated(null)
    if (!name.trim()) {
      setFieldError(MESSAGES.groupNameRequired)
      return
    }
    setFieldError(null)
    create.mutate(name.trim())
  }

  const createError =
    create.error instanceof ApiError
      ? `Failed to create group: ${create.error.serverMessage ?? create.error.message}`
      : create.error
        ? `Failed to create group: ${create.error.message}`
        : null

  return (
    <div className="pk-stack">
      <h2>User Groups &amp; Notifications</h2>
      <form className="pk-row" onSubmit={submit} noValidate style={{ alignItems: 'flex-end' }}>
        <div style={{ flex: '1 1 260px', maxWidth: 400 }}>
          <TextField label="Group Name" value={name} onChange={(e) => setName(e.target.value)} error={fieldError} />
        </div>
        <Button type="submit" disabled={create.isPending}>
          Create Group
        </Button>
      </form>
      {createError ? <Alert>{createError}</Alert> : null}
      {created ? <Alert tone="success">{created}</Alert> : null}
      {groups.isPending ? <Spinner label="Loading groups..." /> : null}
      {groups.isError ? <Alert>{errorMessage(groups.error, 'Failed to fetch data')}</Alert> : null}
      {groups.data && groups.data.length === 0 ? <EmptyState>No user groups yet</EmptyState> : null}
      {groups.data && groups.data.length > 0 ? (
        <ul className="pk-stack" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="User groups">
          {groups.data.map((g) => (
            <li key={g.id} className="pk-card" style={{ padding: '.75rem 1rem' }}>
              <strong>{g.name}</strong>{' '}
              <span className="pk-muted">created {new Date(g.created_at).toLocaleDateString()}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="pk-muted">Per-group notification rules and reports are not available yet.</p>
    </div>
  )
}
