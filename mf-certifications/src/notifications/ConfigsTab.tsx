import { CERT_NOTIFICATION_MESSAGES as M, type NotificationConfig } from '@portal/contracts'
import { Alert, Button, DataTable, errorMessage, Spinner, Switch, TableHead } from '@portal/ui-kit'
import { useState } from 'react'
import { ConfigDialog } from './ConfigDialog.tsx'
import { useNotificationConfigs, useToggleConfig } from './data/apiHooks.ts'
import { configLabel } from './notification-view.ts'
import { LoadFailure } from '../shared/index.ts'

const email = (value: string | null) => value ?? <span className="pk-muted">Not set</span>

/** The active switch of a configuration row; aria-disabled while saving (focus stays on it). */
const ActiveSwitch = ({ config, busy, onToggle }: { config: NotificationConfig; busy: boolean; onToggle: () => void }) => (
  <Switch checked={config.is_active} text={config.is_active ? 'Active' : 'Inactive'} aria-label={`Active: ${configLabel(config)}`} busy={busy} onToggle={onToggle} />
)

/** Email Configurations (admin §2): every branch and department, its recipients, the active switch and the edit dialog. */
export const ConfigsTab = ({ announce }: { announce: (text: string) => void }) => {
  const [editing, setEditing] = useState<NotificationConfig | null>(null)
  const configs = useNotificationConfigs()
  // A saved row (switched here or edited in the dialog) takes the place of the cached one.
  const toggle = useToggleConfig((saved) => announce(`${configLabel(saved)} is now ${saved.is_active ? 'active' : 'inactive'}.`))
  if (configs.isPending) return <Spinner label="Loading configurations..." />
  if (configs.isError) return <LoadFailure error={configs.error} text={errorMessage(configs.error, 'Failed to load configurations')} onRetry={() => void configs.refetch()} />
  return (
    <div className="pk-stack">
      <p className="pk-muted pk-m0">One configuration per branch and department; an inactive one sends no escalations.</p>
      {toggle.isError ? <Alert>{errorMessage(toggle.error, M.statusFailed)}</Alert> : null}
      <DataTable className="pk-table--stack">
        <caption className="pk-visually-hidden">Email configurations</caption>
        <TableHead columns={['Branch', 'Department', 'Manager Email', 'Operations Manager Email', 'Additional Emails', 'Active', 'Actions']} />
        <tbody>
          {configs.data.map((c) => (
            <tr key={c.id}>
              <td>{c.branch}</td>
              <td data-label="Department">{c.department}</td>
              <td data-label="Manager Email">{email(c.manager_email)}</td>
              <td data-label="Operations Manager Email">{email(c.operations_manager_email)}</td>
              <td data-label="Additional Emails">
                {c.additional_email_1 || c.additional_email_2 ? [c.additional_email_1, c.additional_email_2].filter(Boolean).join(', ') : <span className="pk-muted">None</span>}
              </td>
              <td data-label="Active">
                <ActiveSwitch config={c} busy={toggle.isPending && toggle.variables?.id === c.id} onToggle={() => toggle.mutate(c)} />
              </td>
              <td>
                <Button size="small" variant="secondary" aria-label={`Edit ${configLabel(c)}`} onClick={() => setEditing(c)}>
                  Edit
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </DataTable>
      <ConfigDialog
        config={editing}
        onClose={() => setEditing(null)}
        onSaved={(_saved, message) => {
          setEditing(null)
          announce(message)
        }}
      />
    </div>
  )
}
