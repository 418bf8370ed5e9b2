import { UpdateEmploymentBody, type User } from '@portal/contracts'
import { Alert, Button, Modal, TextField, errorMessage, focusFirstInvalid } from '@portal/ui-kit'
import { useRef, useState, type FormEvent } from 'react'
import { useUpdateEmployment } from './data/apiHooks.ts'

/**
 * An admin sets a user's employee id and hire date (PUT /users/{id}/employment). The hire date
 * drives due dates "N days after hire" of assignment rules (issue 24); an empty field clears it.
 */
export const EmploymentDialog = ({ user, onClose }: { user: User; onClose: () => void }) => {
  const [employeeId, setEmployeeId] = useState(user.employee_id ?? '')
  const [hireDate, setHireDate] = useState(user.hire_date ?? '')
  const [errors, setErrors] = useState<Partial<Record<'employee_id' | 'hire_date', string>>>({})
  const formRef = useRef<HTMLFormElement>(null)
  const save = useUpdateEmployment(user.id, onClose)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const body = { employee_id: employeeId.trim() || null, hire_date: hireDate || null }
    const checked = UpdateEmploymentBody.safeParse(body)
    if (!checked.success) {
      // Each field its first message; then focus goes to the first field in error (its message is read).
      const found: typeof errors = {}
      for (const issue of checked.error.issues) {
        const field = issue.path[0] === 'employee_id' ? 'employee_id' : 'hire_date'
        found[field] ??= issue.message
      }
      setErrors(found)
      requestAnimationFrame(() => focusFirstInvalid(formRef.current))
      return
    }
    setErrors({})
    save.mutate(body)
  }
  return (
    <Modal open title={`Employment: ${user.name}`} onClose={onClose}>
      <form ref={formRef} className="pk-stack" onSubmit={submit} noValidate aria-label={`Employment of ${user.name}`}>
        {save.isError ? <Alert>{errorMessage(save.error, 'Failed to update employment details')}</Alert> : null}
        <TextField label="Employee ID" value={employeeId} maxLength={50} error={errors.employee_id} onChange={(e) => setEmployeeId(e.target.value)} />
        <TextField
          label="Hire date"
          type="date"
          value={hireDate}
          error={errors.hire_date}
          hint="Due dates set as days after hire count from it."
          onChange={(e) => setHireDate(e.target.value)}
        />
        <div className="pk-row pk-justify-end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save'}
          </Button>
        </div>
      </form>
    </Modal>
  )
}
