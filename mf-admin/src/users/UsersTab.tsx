import type { User, UserGroup } from '@portal/contracts'
import { Alert, Button, ConfirmDialog, DataTable, errorMessage, Select, Spinner } from '@portal/ui-kit'
import { useState } from 'react'
import { Pager, SortHeader, TableSearch, useAdminTable } from '../table/index.ts'
import { USER_COLUMNS, roleLabel } from './filter.ts'
import { useDeleteUser, useUpdateUserGroup, useUserGroups, useUsers } from './data/apiHooks.ts'
import { ManagerRoleDialog } from './ManagerRoleDialog.tsx'
import { EmploymentDialog } from './EmploymentDialog.tsx'
import { UserStatsDialog } from './stats/UserStatsDialog.tsx'

const GroupCell = ({ user, groups }: { user: User; groups: readonly UserGroup[] }) => {
  const [editing, setEditing] = useState(false)
  const [value, setValue] = useState(user.user_group ?? '')
  const save = useUpdateUserGroup(user.id, () => setEditing(false))
  if (!editing) {
    return (
      <div className="pk-row">
        <span>{user.user_group ?? <span className="pk-muted">None</span>}</span>
        <Button
          variant="link"
          aria-label={`Edit user group of ${user.name}`}
          onClick={() => {
            setValue(user.user_group ?? '')
            setEditing(true)
          }}
        >
          Edit
        </Button>
      </div>
    )
  }
  const options = groups.map((g) => ({ value: g.name, label: g.name }))
  if (user.user_group && !groups.some((g) => g.name === user.user_group)) {
    options.push({ value: user.user_group, label: user.user_group })
  }
  return (
    <div className="pk-stack pk-gap-m">
      <Select label={`User group of ${user.name}`} hideLabel placeholder="None" options={options} value={value} onChange={(e) => setValue(e.target.value)} autoFocus />
      {save.isError ? <Alert>{errorMessage(save.error, 'Failed to update user group')}</Alert> : null}
      <div className="pk-row">
        <Button size="small" onClick={() => save.mutate(value || null)} disabled={save.isPending}>
          Save
        </Button>
        <Button size="small" variant="secondary" onClick={() => setEditing(false)}>
          Cancel
        </Button>
      </div>
    </div>
  )
}

/** Users tab: search, role, inline group edit, stats, manager role, delete with confirmation. */
export const UsersTab = ({ currentUserId }: { currentUserId: string }) => {
  const users = useUsers()
  const groups = useUserGroups()
  const table = useAdminTable(users.data ?? [], USER_COLUMNS)
  const [roleUser, setRoleUser] = useState<User | null>(null)
  const [employmentUser, setEmploymentUser] = useState<User | null>(null)
  const [statsUser, setStatsUser] = useState<User | null>(null)
  const [toDelete, setToDelete] = useState<User | null>(null)
  const remove = useDeleteUser(() => setToDelete(null))

  if (users.isPending) return <Spinner label="Loading users..." />
  if (users.isError) return <Alert>{errorMessage(users.error, 'Failed to fetch users')}</Alert>

  const shown = table.view.rows
  return (
    <div className="pk-stack">
      <TableSearch table={table} label="Search users" placeholder="Search by name or email" noun={{ one: 'user', many: 'users' }} />
      {remove.isError ? <Alert>{errorMessage(remove.error, 'Failed to delete user')}</Alert> : null}
      {groups.isError ? <Alert>{errorMessage(groups.error, 'Failed to fetch data')}</Alert> : null}
      <DataTable>
        <caption className="pk-visually-hidden">Users</caption>
        <thead>
          <tr>
            <SortHeader table={table} column="name">
              Name
            </SortHeader>
            <SortHeader table={table} column="email">
              Email
            </SortHeader>
            <SortHeader table={table} column="role">
              Role
            </SortHeader>
            <SortHeader table={table} column="branch">
              Branch
            </SortHeader>
            <SortHeader table={table} column="department">
              Department
            </SortHeader>
            <SortHeader table={table} column="group">
              User Group
            </SortHeader>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((u) => (
            <tr key={u.id}>
              <td>{u.name}</td>
              <td>{u.email}</td>
              <td>
                {roleLabel(u)}
                {u.is_manager ? <span className="pk-badge">Manager</span> : null}
              </td>
              <td>{u.branch ?? <span className="pk-muted">None</span>}</td>
              <td>{u.department ?? <span className="pk-muted">None</span>}</td>
              <td>
                <GroupCell user={u} groups={groups.data ?? []} />
              </td>
              <td>
                <div className="pk-row">
                  <Button size="small" variant="secondary" aria-label={`Stats of ${u.name}`} onClick={() => setStatsUser(u)}>
                    Stats
                  </Button>
                  <Button size="small" variant="secondary" aria-label={`Manager role of ${u.name}`} onClick={() => setRoleUser(u)}>
                    Manager Role
                  </Button>
                  <Button size="small" variant="secondary" aria-label={`Employment of ${u.name}`} onClick={() => setEmploymentUser(u)}>
                    Employment
                  </Button>
                  <Button
                    size="small"
                    variant="danger"
                    aria-label={`Delete ${u.name}`}
                    disabled={u.id === currentUserId}
                    title={u.id === currentUserId ? 'You cannot delete your own account' : undefined}
                    onClick={() => setToDelete(u)}
                  >
                    Delete
                  </Button>
                </div>
              </td>
            </tr>
          ))}
          {shown.length === 0 ? (
            <tr>
              <td colSpan={7} className="pk-muted">
                No users found
              </td>
            </tr>
          ) : null}
        </tbody>
      </DataTable>
      <Pager table={table} label="Users" />
      {statsUser ? <UserStatsDialog user={statsUser} onClose={() => setStatsUser(null)} /> : null}
      {roleUser ? <ManagerRoleDialog user={roleUser} onClose={() => setRoleUser(null)} /> : null}
      {employmentUser ? <EmploymentDialog user={employmentUser} onClose={() => setEmploymentUser(null)} /> : null}
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete User"
        confirmLabel="Delete"
        busy={remove.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={() => toDelete && remove.mutate(toDelete.id)}
      >
        Are you sure you want to delete {toDelete?.name}? This cannot be undone.
      </ConfirmDialog>
    </div>
  )
}
