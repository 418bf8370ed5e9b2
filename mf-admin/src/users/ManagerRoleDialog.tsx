import { BRANCHES, DEPARTMENTS, type Branch, type Department, type User } from '@portal/contracts'
import { Alert, Button, Modal, errorMessage } from '@portal/ui-kit'
import { useState } from 'react'
import { useUpdateUserRoles } from './data/apiHooks.ts'
import { toggleIn } from './filter.ts'

/** Grant or revoke the manager role and its scope (empty lists mean every branch/department). */
export const ManagerRoleDialog = ({ user, onClose }: { user: User; onClose: () => void }) => {
  const [isManager, setIsManager] = useState(user.is_manager)
  const [branches, setBranches] = useState<Branch[]>(user.manager_scope.branches)
  const [departments, setDepartments] = useState<Department[]>(user.manager_scope.departments)
  const save = useUpdateUserRoles(user.id, onClose)
  return (
    <Modal open title={`Manager Role: ${user.name}`} onClose={onClose}>
      {save.isError ? <Alert>{errorMessage(save.error, 'Failed to update user roles')}</Alert> : null}
      <label className="pk-check">
        <input type="checkbox" checked={isManager} onChange={(e) => setIsManager(e.target.checked)} />
        Manager
      </label>
      <fieldset disabled={!isManager} className="pk-stack pk-border-0 pk-p0 pk-m0">
        <p className="pk-muted">Scope: leave a list empty to cover all of it.</p>
        <fieldset className="pk-row pk-border-0 pk-p0">
          <legend className="pk-fw-semibold">Branches</legend>
          {BRANCHES.map((b) => (
            <label key={b} className="pk-check">
              <input type="checkbox" checked={branches.includes(b)} onChange={() => setBranches((l) => toggleIn(l, b))} />
              {b}
            </label>
          ))}
        </fieldset>
        <fieldset className="pk-row pk-border-0 pk-p0">
          <legend className="pk-fw-semibold">Departments</legend>
          {DEPARTMENTS.map((d) => (
            <label key={d} className="pk-check">
              <input type="checkbox" checked={departments.includes(d)} onChange={() => setDepartments((l) => toggleIn(l, d))} />
              {d}
            </label>
          ))}
        </fieldset>
      </fieldset>
      <div className="pk-row pk-justify-end">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={() => save.mutate({ isManager, scope: isManager ? { branches, departments } : { branches: [], departments: [] } })} disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save'}
        </Button>
      </div>
    </Modal>
  )
}
