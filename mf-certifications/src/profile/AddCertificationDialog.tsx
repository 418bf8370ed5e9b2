import { CERT_MESSAGES, tierLabel } from '@portal/contracts'
import { Alert, Button, errorMessage, focusFirstInvalid, Modal, Select, TextField } from '@portal/ui-kit'
import { useId, useRef, useState, type FormEvent } from 'react'
import { ExpirationPreview } from './ExpirationPreview.tsx'
import { explainExpiration, validateAdd, validityHint, type AddForm, type FieldErrors } from './certification-forms.ts'
import { useAddCertification, useAvailableCertifications } from './data/apiHooks.ts'

const EMPTY: AddForm = { certification_id: '', certification_number: '', obtained_date: '', expiration_date: '' }

/**
 * Add Certification (learner §5): a certification the technician may add, its number and optional
 * dates; the typical validity of the chosen type is shown, and the expiration the server will
 * store, with why, as the dates are entered (issue 23).
 */
export const AddCertificationDialog = ({
  open,
  userId,
  forOther,
  onAdded,
  onClose,
}: {
  open: boolean
  userId: string
  /** An admin adding for a technician: the call names the technician. */
  forOther: boolean
  onAdded: (name: string) => void
  onClose: () => void
}) => {
  const available = useAvailableCertifications(userId, open)
  const [form, setForm] = useState<AddForm>(EMPTY)
  const [errors, setErrors] = useState<FieldErrors<keyof AddForm>>({})
  const formRef = useRef<HTMLFormElement>(null)
  const hintId = useId()
  const previewId = useId()
  const add = useAddCertification()
  const chosen = available.data?.find((c) => String(c.id) === form.certification_id)
  const preview = chosen
    ? explainExpiration({ obtained: form.obtained_date, entered: form.expiration_date, validityMonths: chosen.validity_period })
    : 'Pick a certification to see when it expires.'
  const set = (key: keyof AddForm) => (value: string) => {
    setForm((f) => ({ ...f, [key]: value }))
    setErrors((e) => ({ ...e, [key]: undefined }))
  }
  const close = () => {
    setForm(EMPTY)
    setErrors({})
    add.reset()
    onClose()
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (add.isPending) return
    const checked = validateAdd(form, forOther ? userId : undefined)
    if ('errors' in checked) {
      setErrors(checked.errors)
      // After the render that marks the fields.
      queueMicrotask(() => focusFirstInvalid(formRef.current))
      return
    }
    add.mutate(checked.body, {
      onSuccess: () => {
        const name = chosen?.name ?? 'Certification'
        setForm(EMPTY)
        setErrors({})
        add.reset()
        onAdded(name)
      },
    })
  }
  const options = (available.data ?? []).map((c) => ({ value: String(c.id), label: `${c.name} (${c.code}) · ${tierLabel(c.tier_level)}` }))
  return (
    <Modal open={open} title="Add Certification" onClose={close}>
      <form ref={formRef} className="pk-stack" onSubmit={submit} noValidate>
        <div className="pk-stack pk-gap-xs">
          <Select
            label="Certification"
            placeholder={available.isPending ? 'Loading certifications…' : 'Select a certification'}
            options={options}
            value={form.certification_id}
            onChange={(e) => set('certification_id')(e.target.value)}
            error={errors.certification_id}
            // Given only without an error: the select's own message is its description then (a
            // given aria-describedby, even undefined, would replace it).
            {...(errors.certification_id ? {} : { 'aria-describedby': hintId })}
            required
          />
          <span id={hintId} className="pk-hint pk-muted pk-fs-13">
            {chosen
              ? validityHint(chosen.validity_period)
              : available.isError
                ? 'The list of certifications could not be loaded.'
                : available.data?.length === 0
                  ? 'You already hold every certification open to you.'
                  : 'Pick a certification to see its typical validity.'}
          </span>
        </div>
        {chosen?.training_link ? (
          <p className="pk-m0">
            <a href={chosen.training_link} target="_blank" rel="noopener noreferrer">
              Training for {chosen.name} (opens in a new tab)
            </a>
          </p>
        ) : null}
        <TextField
          label="Certification Number"
          value={form.certification_number}
          onChange={(e) => set('certification_number')(e.target.value)}
          error={errors.certification_number}
          autoComplete="off"
          required
        />
        <TextField
          label="Obtained Date"
          type="date"
          value={form.obtained_date}
          onChange={(e) => set('obtained_date')(e.target.value)}
          error={errors.obtained_date}
          aria-describedby={previewId}
        />
        <TextField
          label="Expiration Date"
          type="date"
          value={form.expiration_date}
          onChange={(e) => set('expiration_date')(e.target.value)}
          error={errors.expiration_date}
          hint={chosen?.validity_period === null ? 'Optional.' : 'Optional: leave it empty to count from the obtained date.'}
          aria-describedby={previewId}
        />
        <ExpirationPreview id={previewId} text={preview} />
        {add.isError ? <Alert>{errorMessage(add.error, CERT_MESSAGES.addFailed)}</Alert> : null}
        <div className="pk-row pk-justify-end">
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" aria-disabled={add.isPending || undefined}>
            {add.isPending ? 'Adding…' : 'Add Certification'}
          </Button>
        </div>
      </form>
    </Modal>
  )
}
