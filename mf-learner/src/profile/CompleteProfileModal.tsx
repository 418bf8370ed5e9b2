import { ProfileResponse, type User } from '@portal/contracts'
import { Alert, Button, Modal, Select, api, errorMessage, focusFirstInvalid } from '@portal/ui-kit'
import { useMutation } from '@tanstack/react-query'
import { useRef, useState, type FormEvent } from 'react'
import { flushSync } from 'react-dom'
import { branchOptions, departmentAfterBranchChange, departmentOptions, validateProfile, type ProfileErrors } from './profile-form.ts'

export interface CompleteProfileModalProps {
  open: boolean
  user: User
  onSaved: (user: User) => void
  onDismiss: () => void
}

/** "Complete Your Profile": branch and department, saved with PUT /users/{id}/profile. */
export const CompleteProfileModal = ({ open, user, onSaved, onDismiss }: CompleteProfileModalProps) => {
  const [branch, setBranch] = useState<string>(user.branch ?? '')
  const [department, setDepartment] = useState<string>(user.department ?? '')
  const [errors, setErrors] = useState<ProfileErrors>({})
  const formRef = useRef<HTMLFormElement>(null)
  const save = useMutation({
    mutationFn: () => api.put(`/users/${encodeURIComponent(user.id)}/profile`, { branch, department }, ProfileResponse),
    onSuccess: ({ user: saved }) => onSaved(saved),
  })

  const submit = (e: FormEvent) => {
    e.preventDefault()
    const next = validateProfile(branch, department)
    // Each missing choice says so under itself, and focus goes to the first (WCAG 3.3.1).
    flushSync(() => setErrors(next))
    if (next.branch || next.department) focusFirstInvalid(formRef.current)
    else save.mutate()
  }

  return (
    <Modal open={open} title="Complete Your Profile" onClose={onDismiss}>
      <p className="pk-muted">Choose your branch and department. Certification features stay locked until your profile is complete.</p>
      {save.isError ? <Alert>{errorMessage(save.error, 'Failed to update profile')}</Alert> : null}
      <form ref={formRef} className="pk-stack" onSubmit={submit} noValidate>
        <Select
          label="Branch"
          placeholder="Select a branch"
          options={branchOptions}
          value={branch}
          error={errors.branch}
          onChange={(e) => {
            setBranch(e.target.value)
            setDepartment((d) => departmentAfterBranchChange(e.target.value, d))
          }}
          required
        />
        <Select
          label="Department"
          placeholder={branch ? 'Select a department' : 'Select a branch first'}
          options={departmentOptions(branch)}
          value={department}
          error={errors.department}
          onChange={(e) => setDepartment(e.target.value)}
          required
        />
        <div className="pk-row pk-justify-end">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving...' : 'Save'}
          </Button>
        </div>
      </form>
    </Modal>
  )
}
