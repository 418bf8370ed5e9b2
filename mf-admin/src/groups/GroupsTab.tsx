import { MESSAGES } from '@portal/contracts'
import { Alert, ApiError, Button, EmptyState, Spinner, TextField, errorMessage } from '@portal/ui-kit'
import { useRef, useState, type FormEvent } from 'react'
import { useCreateGroup, useUserGroups } from '../users/index.ts'
import { useNotificationRules, useRefreshRules } from './data/apiHooks.ts'
import { GroupRuleCard } from './GroupRuleCard.tsx'

/** Groups tab ("User Groups & Notifications"): create groups; each group's notification rule, tracking and test report. */
export const GroupsTab = () => {
  const groups = useUserGroups()
  // A new group's rule is made by notify from identity's event: asked for again until it is there.
  const rules = useNotificationRules(groups.data)
  const [notice, setNotice] = useState<string | null>(null)
  const [name, setName] = useState('')
  const [fieldError, setFieldError] = useState<string | null>(null)
  const nameRef = useRef<HTMLInputElement>(null)
  const [created, setCreated] = useState<string | null>(null)
  const refreshRules = useRefreshRules()
  const create = useCreateGroup((group) => {
    setName('')
    setCreated(`Group "${group.name}" created.`)
  }, refreshRules)

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setCreated(null)
    if (!name.trim()) {
      setFieldError(MESSAGES.groupNameRequired)
      // Focus goes to the field its message marks (read with it); the button pressed may be elsewhere.
      nameRef.current?.focus()
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
      <form className="pk-row pk-items-end" onSubmit={submit} noValidate>
        <div className="pk-grow-260 pk-max-w400">
          <TextField ref={nameRef} label="Group Name" value={name} onChange={(e) => setName(e.target.value)} error={fieldError} />
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
      {rules.isError ? <Alert>{errorMessage(rules.error, 'Failed to fetch data')}</Alert> : null}
      <div role="status" className="pk-live">
        {notice}
      </div>
      {groups.data && groups.data.length > 0 ? (
        <div className="pk-stack">
          {groups.data.map((g) => {
            const rule = rules.data?.find((r) => r.user_group === g.name)
            if (rule) return <GroupRuleCard key={g.id} rule={rule} onNotice={setNotice} />
            return (
              <section key={g.id} className="pk-card pk-pad" aria-label={g.name}>
                <h3 className="pk-m0">{g.name}</h3>
                <p className="pk-muted">{rules.isPending ? 'Loading notification rule...' : 'Setting up the notification rule...'}</p>
              </section>
            )
          })}
        </div>
      ) : null}
    </div>
  )
}
