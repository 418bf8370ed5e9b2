import { Cmi5WaiveReason, type Cmi5AuStatus } from '@portal/contracts'
import { Alert, Button, Modal, Select, errorMessage, focusFirstInvalid } from '@portal/ui-kit'
import { useRef, useState, type FormEvent } from 'react'
import { useWaiveCmi5Au } from './data/apiHooks.ts'
import { WAIVE_REASON_OPTIONS } from './cmi5-units-view.ts'

export interface WaiveDialogProps {
  moduleId: number
  moduleTitle: string
  learner: { id: string; name: string }
  au: Pick<Cmi5AuStatus, 'id' | 'title'>
  /** After the waiver, once the statuses are fetched again. */
  onWaived: () => void
  onClose: () => void
}

/**
 * An admin waives one AU for one learner (cmi5 §9.3.7, POST /cmi5/{moduleId}/waive): the unit
 * counts as done for them (its moveOn is met), which may complete the module and the course. The
 * reason goes into the Waived statement and, with the admin, into the audit trail.
 */
export const WaiveDialog = ({ moduleId, moduleTitle, learner, au, onWaived, onClose }: WaiveDialogProps) => {
  const [reason, setReason] = useState('')
  const [reasonError, setReasonError] = useState<string | null>(null)
  const formRef = useRef<HTMLFormElement>(null)
  const waive = useWaiveCmi5Au(moduleId, learner.id, onWaived)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    const checked = Cmi5WaiveReason.safeParse(reason)
    if (!checked.success) {
      setReasonError('Choose why the unit is waived')
      requestAnimationFrame(() => focusFirstInvalid(formRef.current))
      return
    }
    setReasonError(null)
    waive.mutate({ au_id: au.id, reason: checked.data })
  }
  return (
    <Modal open title={`Waive unit: ${au.title}`} onClose={onClose}>
      <form ref={formRef} className="pk-stack" onSubmit={submit} noValidate aria-label={`Waive ${au.title} for ${learner.name}`}>
        <p className="pk-m0">
          “{au.title}” of {moduleTitle} will count as done for {learner.name}, as if they had met its goal; this may complete the module and the course. The waiver, its reason and
          who gave it are recorded in the audit trail.
        </p>
        {waive.isError ? <Alert>{errorMessage(waive.error, 'Failed to waive the unit')}</Alert> : null}
        <Select label="Reason" placeholder="Select a reason" options={WAIVE_REASON_OPTIONS} value={reason} error={reasonError} onChange={(e) => setReason(e.target.value)} />
        <div className="pk-row pk-justify-end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={waive.isPending}>
            {waive.isPending ? 'Waiving...' : 'Waive unit'}
          </Button>
        </div>
      </form>
    </Modal>
  )
}
