import { TEAM_MESSAGES, tierLabel, todayIso, type TeamMemberDetail, type TierLevel } from '@portal/contracts'
import { Alert, Button, errorMessage, focusFirstInvalid, formatDate, Modal, Select, TextField } from '@portal/ui-kit'
import { useId, useRef, useState, type FormEvent } from 'react'
import { saveBlob } from '../shared/index.ts'
import { fetchMemberReport, sendReminder } from './api.ts'
import { useRequestPromotion, useUpdateRevPay } from './data/apiHooks.ts'
import { tiersAbove } from './team-view.ts'

export const REMINDER_FAILED = 'Failed to send the reminder'
export const REPORT_FAILED = 'Failed to generate the report'

/** A ratio typed in the field: a number with at most two decimals, or the §5 message. */
export function parseRatio(text: string): { ratio: number } | { error: string } {
  const t = text.trim()
  if (t === '') return { error: TEAM_MESSAGES.revPayRequired }
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return { error: 'Enter a number of 0 or more with at most two decimals' }
  return { ratio: Number(t) }
}

/** The member's rev/pay ratio, edited in place (learner §5: a non-empty number, step 0.01). */
const RevPayEditor = ({ userId, current, announce }: { userId: string; current: number | null; announce: (t: string) => void }) => {
  const [text, setText] = useState(current === null ? '' : current.toFixed(2))
  const [error, setError] = useState<string | null>(null)
  const formRef = useRef<HTMLFormElement>(null)
  const save = useUpdateRevPay(userId, (ratio) => announce(`Rev/pay ratio updated to ${ratio.toFixed(2)}.`))
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (save.isPending) return
    const parsed = parseRatio(text)
    if ('error' in parsed) {
      setError(parsed.error)
      // After the render that marks the field: it is read with its message.
      queueMicrotask(() => focusFirstInvalid(formRef.current))
      return
    }
    setError(null)
    save.mutate(parsed.ratio)
  }
  return (
    <form ref={formRef} className="pk-stack" onSubmit={submit} noValidate aria-labelledby="revpay-title">
      <h3 id="revpay-title" className="pk-m0 pk-fs-17">
        Rev/Pay Ratio
      </h3>
      <div className="pk-row pk-items-end">
        <div className="pk-w-200">
          <TextField
            label="Rev/Pay Ratio"
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0"
            value={text}
            error={error}
            onChange={(e) => {
              setText(e.target.value)
              setError(null)
            }}
          />
        </div>
        <Button type="submit" aria-disabled={save.isPending || undefined}>
          {save.isPending ? 'Saving...' : 'Update Ratio'}
        </Button>
      </div>
      {save.isError ? <Alert>{errorMessage(save.error, TEAM_MESSAGES.revPayFailed)}</Alert> : null}
    </form>
  )
}

/** Request Tier Promotion: only tiers above the current one, a justification required (learner §4, §5). */
const PromotionDialog = ({
  open,
  userId,
  name,
  current,
  onClose,
  onSubmitted,
}: {
  open: boolean
  userId: string
  name: string
  current: TierLevel
  onClose: () => void
  onSubmitted: (text: string) => void
}) => {
  const options = tiersAbove(current)
  const [tier, setTier] = useState(options[0]?.value ?? '')
  const [justification, setJustification] = useState('')
  const [error, setError] = useState<string | null>(null)
  const justId = useId()
  const formRef = useRef<HTMLFormElement>(null)
  const send = useRequestPromotion(userId, () => {
    setJustification('')
    onSubmitted(TEAM_MESSAGES.promotionSubmitted)
  })
  const close = () => {
    setJustification('')
    setError(null)
    send.reset()
    onClose()
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (send.isPending) return
    if (justification.trim() === '') {
      setError(TEAM_MESSAGES.justificationRequired)
      // After the render that marks the field, so it is read as invalid with its message.
      queueMicrotask(() => focusFirstInvalid(formRef.current))
      return
    }
    send.mutate({ newTier: Number(tier) as TierLevel, justification: justification.trim() })
  }
  return (
    <Modal open={open} title="Request Tier Promotion" onClose={close}>
      <form ref={formRef} className="pk-stack" onSubmit={submit} noValidate>
        <p className="pk-m0">
          {name} is {tierLabel(current)}. An admin approves or denies the request.
        </p>
        <Select label="New Tier" options={options} value={tier} onChange={(e) => setTier(e.target.value)} />
        <div className="pk-field">
          <label htmlFor={justId}>Justification</label>
          <textarea
            id={justId}
            className="ct-textarea"
            required
            maxLength={4000}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${justId}-error` : undefined}
            value={justification}
            onChange={(e) => {
              setJustification(e.target.value)
              setError(null)
            }}
          />
          {error ? (
            <span id={`${justId}-error`} className="pk-error">
              {error}
            </span>
          ) : null}
        </div>
        {send.isError ? <Alert>{errorMessage(send.error, TEAM_MESSAGES.promotionFailed)}</Alert> : null}
        <div className="pk-row pk-justify-end">
          <Button variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button type="submit" aria-disabled={send.isPending || undefined}>
            {send.isPending ? 'Submitting...' : 'Submit Request'}
          </Button>
        </div>
      </form>
    </Modal>
  )
}

/** Send Reminder and Generate Report: a button that runs once at a time and says how it went. */
const useQuickAction = (run: () => Promise<string>, failure: string, announce: (t: string) => void) => {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null })
  const go = async () => {
    if (state.busy) return
    setState({ busy: true, error: null })
    try {
      announce(await run())
      setState({ busy: false, error: null })
    } catch (e) {
      setState({ busy: false, error: errorMessage(e, failure) })
    }
  }
  return { ...state, go }
}

const fileSafe = (name: string) =>
  name
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase() || 'technician'

/** Manager Controls of the member detail (learner §2): ratio, promotion, Send Reminder, Generate Report. */
export const ManagerControls = ({ detail, announce }: { detail: TeamMemberDetail; announce: (t: string) => void }) => {
  const { user, tier } = detail.profile
  const [promoting, setPromoting] = useState(false)
  const pending = detail.promotion_requests.find((r) => r.status === 'pending')
  const reminder = useQuickAction(
    async () => {
      const sent = await sendReminder(user.id)
      return `Reminder sent to ${user.name}: ${sent.open_requirements} open ${sent.open_requirements === 1 ? 'requirement' : 'requirements'}.`
    },
    REMINDER_FAILED,
    announce,
  )
  const report = useQuickAction(
    async () => {
      const name = `technician-report-${fileSafe(user.employee_id ?? user.name)}-${todayIso()}.xlsx`
      saveBlob(await fetchMemberReport(user.id), name)
      return `Report ${name} downloaded.`
    },
    REPORT_FAILED,
    announce,
  )
  return (
    <section className="pk-card pk-stack" aria-labelledby="controls-title">
      <h2 id="controls-title">Manager Controls</h2>
      <RevPayEditor key={tier.rev_pay_ratio ?? 'none'} userId={user.id} current={tier.rev_pay_ratio} announce={announce} />
      <div className="pk-stack pk-gap-m">
        <h3 className="pk-m0 pk-fs-17">Tier Promotion</h3>
        <p className="pk-m0">
          Current tier: <strong>{tierLabel(tier.current_tier)}</strong>
        </p>
        {pending ? (
          <p className="pk-muted pk-m0">
            Pending: {tierLabel(pending.to_tier)} requested by {pending.requested_by.name} on {formatDate(pending.requested_at)}.
          </p>
        ) : null}
        {detail.promotion_requests
          .filter((r) => r.status !== 'pending')
          .slice(0, 1)
          .map((r) => (
            <p key={r.id} className="pk-muted pk-m0">
              Last request: {tierLabel(r.to_tier)} {r.status === 'approved' ? 'approved' : 'denied'}
              {r.decided_by ? ` by ${r.decided_by.name}` : ''}
              {r.decision_note ? `: ${r.decision_note}` : '.'}
            </p>
          ))}
        {tier.current_tier >= 3 ? (
          <p className="pk-muted pk-m0">{tierLabel(3)} is the highest tier.</p>
        ) : pending ? null : (
          <div>
            <Button variant="secondary" onClick={() => setPromoting(true)}>
              Request Tier Promotion
            </Button>
          </div>
        )}
      </div>
      <div className="pk-stack pk-gap-m">
        <h3 className="pk-m0 pk-fs-17">Quick Actions</h3>
        <div className="pk-row">
          <Button variant="secondary" aria-disabled={reminder.busy || undefined} onClick={() => void reminder.go()}>
            {reminder.busy ? 'Sending...' : 'Send Reminder'}
          </Button>
          <Button variant="secondary" aria-disabled={report.busy || undefined} onClick={() => void report.go()}>
            {report.busy ? 'Generating...' : 'Generate Report'}
          </Button>
        </div>
        {reminder.error ? <Alert>{reminder.error}</Alert> : null}
        {report.error ? <Alert>{report.error}</Alert> : null}
      </div>
      {tier.current_tier < 3 ? (
        <PromotionDialog
          key={tier.current_tier}
          open={promoting}
          userId={user.id}
          name={user.name}
          current={tier.current_tier}
          onClose={() => setPromoting(false)}
          onSubmitted={(text) => {
            setPromoting(false)
            announce(text)
          }}
        />
      ) : null}
    </section>
  )
}
