import { tierLabel, type PromotionRequest } from '@portal/contracts'
import { Alert, Button, EmptyState, errorMessage, formatDate, Modal, Spinner, useAnnouncement } from '@portal/ui-kit'
import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { Notice, LoadFailure } from '../shared/index.ts'
import { useDecidePromotion, usePendingPromotions } from './data/apiHooks.ts'

export const DECISION_FAILED = 'Failed to save the decision'
export const LOAD_PROMOTIONS_FAILED = 'Failed to load promotion requests'

/** What the admin is about to do with a request. */
interface Deciding {
  request: PromotionRequest
  approve: boolean
}

/** Approve or Deny with an optional note: the admin's answer to a manager's promotion request. */
const DecisionDialog = ({ deciding, onClose, onDone }: { deciding: Deciding | null; onClose: () => void; onDone: (text: string) => void }) => {
  const [note, setNote] = useState('')
  const noteId = useId()
  // Once decided, the team screens are fetched again: the tier shows in the team table and on the member's page.
  const decide = useDecidePromotion(({ request, approve }) => {
    setNote('')
    onDone(
      approve ? `Promotion approved: ${request.user.name} is now ${tierLabel(request.to_tier)}.` : `Promotion of ${request.user.name} to ${tierLabel(request.to_tier)} denied.`,
    )
  })
  const close = () => {
    setNote('')
    decide.reset()
    onClose()
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (deciding && !decide.isPending) decide.mutate({ ...deciding, note })
  }
  const r = deciding?.request
  const verb = deciding?.approve ? 'Approve' : 'Deny'
  return (
    <Modal open={deciding !== null} title={r ? `${verb} Promotion of ${r.user.name}` : 'Promotion'} onClose={close}>
      {r ? (
        <form className="pk-stack" onSubmit={submit} noValidate>
          <p className="pk-m0">
            {tierLabel(r.from_tier)} to {tierLabel(r.to_tier)}, requested by {r.requested_by.name}.
          </p>
          <div className="pk-field">
            <label htmlFor={noteId}>Note (optional)</label>
            <textarea id={noteId} className="ct-textarea" value={note} maxLength={4000} onChange={(e) => setNote(e.target.value)} />
          </div>
          {decide.isError ? <Alert>{errorMessage(decide.error, DECISION_FAILED)}</Alert> : null}
          <div className="pk-row pk-justify-end">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" variant={deciding?.approve ? 'primary' : 'danger'} aria-disabled={decide.isPending || undefined}>
              {decide.isPending ? 'Saving...' : verb}
            </Button>
          </div>
        </form>
      ) : null}
    </Modal>
  )
}

/** One pending request: who, from which tier to which, why, by whom, with Approve and Deny. */
export const PromotionItem = ({ request: r, onDecide }: { request: PromotionRequest; onDecide: (d: Deciding) => void }) => (
  <li className="ct-card">
    <h3 className="pk-m0 pk-fs-17">{r.user.name}</h3>
    <p className="pk-m0">
      {tierLabel(r.from_tier)} to <strong>{tierLabel(r.to_tier)}</strong>
      <span className="pk-muted">
        {' '}
        · {r.user.branch ?? 'Branch not set'} · {r.user.department ?? 'Department not set'}
      </span>
    </p>
    <p className="pk-m0 pk-pre-wrap">{r.justification}</p>
    <p className="pk-muted pk-m0">
      Requested by {r.requested_by.name} on {formatDate(r.requested_at)}
    </p>
    <div className="ct-actions">
      <Button size="small" aria-label={`Approve promotion of ${r.user.name}`} onClick={() => onDecide({ request: r, approve: true })}>
        Approve
      </Button>
      <Button size="small" variant="danger" aria-label={`Deny promotion of ${r.user.name}`} onClick={() => onDecide({ request: r, approve: false })}>
        Deny
      </Button>
    </div>
  </li>
)

/** Pending Promotion Requests (admins): the managers' requests awaiting a decision. */
export const PendingPromotions = () => {
  const pending = usePendingPromotions()
  const [deciding, setDeciding] = useState<Deciding | null>(null)
  const [notice, announce] = useAnnouncement()
  const headingRef = useRef<HTMLHeadingElement>(null)
  const [decided, setDecided] = useState<number | null>(null)
  const requests = pending.data?.requests ?? []
  // The decided request leaves the list with the button that had focus (the dialog hands focus back
  // to it on closing): once it is gone, the heading takes focus.
  const gone = decided !== null && !requests.some((r) => r.id === decided)
  useEffect(() => {
    if (!gone) return
    setDecided(null)
    headingRef.current?.focus()
  }, [gone])
  return (
    <section className="pk-card pk-stack" aria-labelledby="promotions-title">
      <h2 id="promotions-title" ref={headingRef} tabIndex={-1}>
        Pending Promotion Requests
      </h2>
      <Notice notice={notice} />
      {pending.isPending ? (
        <Spinner label="Loading promotion requests..." />
      ) : pending.isError ? (
        <LoadFailure error={pending.error} text={errorMessage(pending.error, LOAD_PROMOTIONS_FAILED)} onRetry={() => void pending.refetch()} size="small" />
      ) : requests.length === 0 ? (
        <EmptyState>No promotion requests are waiting.</EmptyState>
      ) : (
        <ul className="ct-cards">
          {requests.map((r) => (
            <PromotionItem key={r.id} request={r} onDecide={setDeciding} />
          ))}
        </ul>
      )}
      <DecisionDialog
        deciding={deciding}
        onClose={() => setDeciding(null)}
        onDone={(text) => {
          setDecided(deciding?.request.id ?? null)
          setDeciding(null)
          announce(text)
        }}
      />
    </section>
  )
}
