import { NOTIFICATION_TYPES, NOTIFICATION_TYPE_LABELS, type AdminEmail } from '@portal/contracts'
import { Alert, Button, ConfirmDialog, DataTable, EmptyState, errorMessage, focusFirstInvalid, Modal, Spinner, Switch, TextField } from '@portal/ui-kit'
import { useId, useRef, useState, type FormEvent } from 'react'
import { checkForm, emptyForm, formOf, type AdminEmailField, type AdminEmailForm } from './admin-email-form.ts'
import { useAdminEmails, useDeleteAdminEmail, useSaveAdminEmail, useToggleAdminEmail } from './data/apiHooks.ts'

/** The Email Notification Management dialog (admin §2): add, edit, toggle active, delete with confirmation. */
export const AdminEmailsDialog = ({ onClose }: { onClose: () => void }) => {
  const emails = useAdminEmails()
  const [form, setForm] = useState<AdminEmailForm>(emptyForm)
  const [editing, setEditing] = useState<AdminEmail | null>(null)
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<AdminEmailField, string>>>({})
  const formRef = useRef<HTMLFormElement>(null)
  const typesErrorId = useId()
  const [notice, setNotice] = useState<string | null>(null)
  const [toDelete, setToDelete] = useState<AdminEmail | null>(null)
  const reset = () => {
    setForm(emptyForm())
    setEditing(null)
    setFieldErrors({})
  }

  const save = useSaveAdminEmail(editing, (saved) => {
    setNotice(editing ? `Updated ${saved.email}.` : `Added ${saved.email}.`)
    reset()
  })
  const toggle = useToggleAdminEmail((e) => setNotice(`${e.email} is now ${e.is_active ? 'active' : 'inactive'}.`))
  const remove = useDeleteAdminEmail((e) => {
    setToDelete(null)
    if (editing?.id === e.id) reset()
    setNotice(`Deleted ${e.email}.`)
  })

  const submit = (ev: FormEvent) => {
    ev.preventDefault()
    setNotice(null)
    save.reset()
    const checked = checkForm(form)
    if (!checked.ok) {
      setFieldErrors(checked.errors)
      // After the marks have rendered, focus goes to the first field in error (its message is read).
      requestAnimationFrame(() => focusFirstInvalid(formRef.current))
      return
    }
    setFieldErrors({})
    save.mutate(checked.body)
  }
  const setType = (type: (typeof NOTIFICATION_TYPES)[number], on: boolean) =>
    setForm((f) => ({ ...f, types: NOTIFICATION_TYPES.filter((t) => (t === type ? on : f.types.includes(t))) }))

  return (
    <Modal open title="Email Notification Management" onClose={onClose}>
      <div className="pk-stack pk-wide">
        <form ref={formRef} className="pk-stack" onSubmit={submit} noValidate aria-label={editing ? 'Edit admin email' : 'Add admin email'}>
          <h3 className="pk-m0">{editing ? `Edit ${editing.email}` : 'Add Admin Email'}</h3>
          <div className="pk-row pk-items-start">
            <div className="pk-grow-240">
              <TextField
                label="Email"
                type="email"
                required
                autoComplete="off"
                value={form.email}
                error={fieldErrors.email}
                onChange={(e) => setForm((f) => ({ ...f, email: e.target.value }))}
              />
            </div>
            <div className="pk-grow-200">
              <TextField label="Name (optional)" value={form.name} error={fieldErrors.name} onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))} />
            </div>
          </div>
          <fieldset className="pk-row pk-border-0 pk-p0 pk-m0" aria-describedby={fieldErrors.types ? typesErrorId : undefined}>
            <legend className="pk-fw-semibold">Notification types</legend>
            {NOTIFICATION_TYPES.map((t) => (
              <label key={t} className="pk-check">
                <input
                  type="checkbox"
                  checked={form.types.includes(t)}
                  aria-invalid={fieldErrors.types ? true : undefined}
                  aria-describedby={fieldErrors.types ? typesErrorId : undefined}
                  onChange={(e) => setType(t, e.target.checked)}
                />
                {NOTIFICATION_TYPE_LABELS[t]}
              </label>
            ))}
          </fieldset>
          {fieldErrors.types ? (
            <span id={typesErrorId} className="pk-error">
              {fieldErrors.types}
            </span>
          ) : null}
          {save.isError ? <Alert>{errorMessage(save.error, editing ? 'Failed to update email' : 'Failed to add email')}</Alert> : null}
          <div className="pk-row">
            <Button type="submit" disabled={save.isPending}>
              {editing ? 'Update Email' : 'Add Email'}
            </Button>
            {editing ? (
              <Button variant="secondary" onClick={reset}>
                Cancel Edit
              </Button>
            ) : null}
          </div>
        </form>
        <div role="status" className="pk-live">
          {notice}
        </div>
        {toggle.isError ? <Alert>{errorMessage(toggle.error, 'Failed to toggle email status')}</Alert> : null}
        {remove.isError ? <Alert>{errorMessage(remove.error, 'Failed to delete email')}</Alert> : null}
        {emails.isPending ? <Spinner label="Loading admin emails..." /> : null}
        {emails.isError ? <Alert>{errorMessage(emails.error, 'Failed to fetch admin emails')}</Alert> : null}
        {emails.data && emails.data.length === 0 ? <EmptyState>No admin emails configured yet</EmptyState> : null}
        {emails.data && emails.data.length > 0 ? (
          <DataTable>
            <caption className="pk-visually-hidden">Admin emails</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Name</th>
                <th scope="col">Notifications</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {emails.data.map((e) => (
                <tr key={e.id}>
                  <td>{e.email}</td>
                  <td>{e.name ?? <span className="pk-muted">None</span>}</td>
                  <td>{e.notification_types.map((t) => NOTIFICATION_TYPE_LABELS[t]).join(', ')}</td>
                  <td>
                    <Switch
                      text="Active"
                      aria-label={`Active: ${e.email}`}
                      checked={e.is_active}
                      busy={toggle.isPending && toggle.variables?.id === e.id}
                      onToggle={() => toggle.mutate(e)}
                    />
                  </td>
                  <td>
                    <div className="pk-row">
                      <Button
                        size="small"
                        variant="secondary"
                        aria-label={`Edit ${e.email}`}
                        onClick={() => {
                          setEditing(e)
                          setForm(formOf(e))
                          setFieldErrors({})
                          setNotice(null)
                        }}
                      >
                        Edit
                      </Button>
                      <Button size="small" variant="danger" aria-label={`Delete ${e.email}`} onClick={() => setToDelete(e)}>
                        Delete
                      </Button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        ) : null}
        <div className="pk-row pk-justify-end">
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete Admin Email"
        confirmLabel="Delete"
        busy={remove.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() => toDelete && remove.mutate(toDelete)}
      >
        Are you sure you want to delete {toDelete?.email}? It will no longer receive notifications.
      </ConfirmDialog>
    </Modal>
  )
}
