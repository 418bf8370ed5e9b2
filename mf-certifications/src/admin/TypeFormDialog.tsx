import { CERT_MESSAGES, type CertificationType } from '@portal/contracts'
import { Alert, Button, errorMessage, focusFirstInvalid, Modal, Select, TextField } from '@portal/ui-kit'
import { useId, useRef, useState, type FormEvent } from 'react'
import { useSaveType } from './data/apiHooks.ts'
import { RenewedByField } from './RenewedByField.tsx'
import { DEPARTMENT_OPTIONS, emptyTypeForm, formFromType, TIER_OPTIONS, validateTypeForm, validityOptions, type DepartmentTab, type TypeForm } from './type-form.ts'

export type TypeEditing = { mode: 'add'; tab: DepartmentTab } | { mode: 'edit'; type: CertificationType }

/** Create or edit a certification type (admin §2, §3, §9): every field of the type, validated by the contracts. */
export const TypeFormDialog = ({
  editing,
  onSaved,
  onClose,
}: {
  editing: TypeEditing | null
  onSaved: (saved: CertificationType, created: boolean) => void
  onClose: () => void
}) => (
  <Modal open={editing !== null} title={editing?.mode === 'edit' ? 'Edit Certification' : 'Add Certification'} onClose={onClose}>
    {editing ? <TypeFormBody key={editing.mode === 'edit' ? editing.type.id : 'new'} editing={editing} onSaved={onSaved} onClose={onClose} /> : null}
  </Modal>
)

const TypeFormBody = ({ editing, onSaved, onClose }: { editing: TypeEditing; onSaved: (saved: CertificationType, created: boolean) => void; onClose: () => void }) => {
  const [form, setForm] = useState<TypeForm>(() => (editing.mode === 'edit' ? formFromType(editing.type) : emptyTypeForm(editing.tab)))
  const [errors, setErrors] = useState<Partial<Record<keyof TypeForm, string>>>({})
  const formRef = useRef<HTMLFormElement>(null)
  const descriptionId = useId()
  const save = useSaveType(editing.mode === 'edit' ? editing.type.id : null, (saved) => onSaved(saved, editing.mode === 'add'))
  const set = <K extends keyof TypeForm>(key: K, value: TypeForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }))
    setErrors((e) => ({ ...e, [key]: undefined }))
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (save.isPending) return
    const checked = validateTypeForm(form)
    if ('errors' in checked) {
      setErrors(checked.errors)
      queueMicrotask(() => focusFirstInvalid(formRef.current))
      return
    }
    save.mutate(checked.body)
  }
  const failed = editing.mode === 'edit' ? CERT_MESSAGES.updateType : CERT_MESSAGES.createType
  return (
    <form ref={formRef} className="pk-stack" onSubmit={submit} noValidate>
      <TextField label="Name" value={form.name} onChange={(e) => set('name', e.target.value)} error={errors.name} required />
      <TextField label="Code" value={form.code} onChange={(e) => set('code', e.target.value)} error={errors.code} required autoComplete="off" />
      <div className="pk-row pk-items-start">
        <Select label="Tier" options={TIER_OPTIONS} value={form.tier_level} onChange={(e) => set('tier_level', e.target.value)} error={errors.tier_level} />
        <Select label="Department" options={DEPARTMENT_OPTIONS} value={form.department} onChange={(e) => set('department', e.target.value)} error={errors.department} />
        <Select
          label="Validity"
          options={validityOptions(form.validity_period)}
          value={form.validity_period}
          onChange={(e) => set('validity_period', e.target.value)}
          error={errors.validity_period}
        />
      </div>
      <TextField
        label="Training Link"
        type="url"
        inputMode="url"
        placeholder="https://"
        value={form.training_link}
        onChange={(e) => set('training_link', e.target.value)}
        error={errors.training_link}
        hint="Optional: where technicians take the training."
      />
      <div className="pk-field">
        <label htmlFor={descriptionId}>Description</label>
        <textarea
          id={descriptionId}
          className="ct-textarea"
          value={form.description}
          onChange={(e) => set('description', e.target.value)}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={errors.description ? `${descriptionId}-error` : undefined}
        />
        {errors.description ? (
          <span id={`${descriptionId}-error`} className="pk-error">
            {errors.description}
          </span>
        ) : null}
      </div>
      <RenewedByField value={form.renewed_by} onChange={(next) => set('renewed_by', next)} error={errors.renewed_by} />
      <label className="pk-check">
        <input type="checkbox" checked={form.upload_required} onChange={(e) => set('upload_required', e.target.checked)} />
        Upload required (technicians upload a proof)
      </label>
      <label className="pk-check">
        <input type="checkbox" checked={form.is_active} onChange={(e) => set('is_active', e.target.checked)} />
        Active (technicians can add it)
      </label>
      {save.isError ? <Alert>{errorMessage(save.error, failed)}</Alert> : null}
      <div className="pk-row pk-justify-end">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" aria-disabled={save.isPending || undefined}>
          {editing.mode === 'edit' ? 'Update Certification' : 'Create Certification'}
        </Button>
      </div>
    </form>
  )
}
