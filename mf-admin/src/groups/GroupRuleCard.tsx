import { UpdateNotificationRuleBody, type NotificationRule } from '@portal/contracts'
import { Alert, Button, errorMessage, formatDateTime, Switch } from '@portal/ui-kit'
import { useId, useRef, useState, type FormEvent } from 'react'
import { useSaveRecipients, useSendTestReport, useToggleRule } from './data/apiHooks.ts'
import { parseRecipients, scheduleLabel, trackedItemsOf } from './rule-view.ts'
import { TestReportProblem } from './TestReportOutcome.tsx'
import { TrackingDialog } from './TrackingDialog.tsx'

/** One group's notification rule: active switch, recipients, schedule, tracked items, tracking dialog and test report. */
export const GroupRuleCard = ({ rule, onNotice }: { rule: NotificationRule; onNotice: (message: string) => void }) => {
  const recipientsId = useId()
  const [editing, setEditing] = useState(false)
  const [recipients, setRecipients] = useState('')
  const [recipientsError, setRecipientsError] = useState<string | null>(null)
  const recipientsRef = useRef<HTMLTextAreaElement>(null)
  const [tracking, setTracking] = useState(false)
  const toggle = useToggleRule(rule.id, rule.is_active)
  const saveRecipients = useSaveRecipients(rule.id, () => {
    setEditing(false)
    onNotice(`Recipients of ${rule.user_group} saved.`)
  })
  const report = useSendTestReport(rule.user_group, onNotice)
  const items = trackedItemsOf(rule)
  const submitRecipients = (e: FormEvent) => {
    e.preventDefault()
    const list = parseRecipients(recipients)
    // The shared schema's check first: a mistyped address is marked on the field and focus goes there.
    const checked = UpdateNotificationRuleBody.safeParse({ recipient_emails: list })
    if (!checked.success) {
      setRecipientsError(checked.error.issues.map((i) => i.message).join('. '))
      recipientsRef.current?.focus()
      return
    }
    setRecipientsError(null)
    saveRecipients.mutate(list)
  }
  return (
    <section className="pk-card pk-stack pk-pad" aria-labelledby={`${recipientsId}-title`}>
      <div className="pk-row pk-between">
        <h3 id={`${recipientsId}-title`} className="pk-m0">
          {rule.user_group}
        </h3>
        <Switch text="Notifications" aria-label={`Notifications for ${rule.user_group}`} checked={rule.is_active} busy={toggle.isPending} onToggle={() => toggle.mutate()} />
      </div>
      {toggle.isError ? <Alert>{errorMessage(toggle.error, 'Failed to toggle notification rule')}</Alert> : null}
      <dl className="pk-stack pk-m0 pk-gap-xs">
        <div>
          <dt className="pk-inline pk-fw-semibold">Report: </dt>
          <dd className="pk-inline pk-m0">
            {scheduleLabel(rule)}
            {rule.last_report_sent ? `, last sent ${formatDateTime(rule.last_report_sent)}` : ', not sent yet'}
          </dd>
        </div>
        <div>
          <dt className="pk-inline pk-fw-semibold">Recipients: </dt>
          <dd className="pk-inline pk-m0">{rule.recipient_emails.length ? rule.recipient_emails.join(', ') : <span className="pk-muted">None yet</span>}</dd>
        </div>
        <div>
          <dt className="pk-inline pk-fw-semibold">Tracking: </dt>
          <dd className="pk-inline pk-m0">
            {items.length ? items.map((i) => `${i.name} (${i.type === 'exam' ? 'Exam' : 'Course'})`).join(', ') : <span className="pk-muted">Nothing tracked yet</span>}
          </dd>
        </div>
      </dl>
      {editing ? (
        <form className="pk-stack" onSubmit={submitRecipients} noValidate>
          <div className="pk-field">
            <label htmlFor={recipientsId}>Recipient emails of {rule.user_group}</label>
            <textarea
              ref={recipientsRef}
              id={recipientsId}
              rows={3}
              value={recipients}
              onChange={(e) => setRecipients(e.target.value)}
              aria-invalid={recipientsError ? true : undefined}
              aria-describedby={[recipientsError ? `${recipientsId}-error` : null, `${recipientsId}-hint`].filter(Boolean).join(' ')}
              autoFocus
            />
            <span id={`${recipientsId}-hint`} className="pk-hint">
              Separate addresses with commas or new lines.
            </span>
            {recipientsError ? (
              <span id={`${recipientsId}-error`} className="pk-error">
                {recipientsError}
              </span>
            ) : null}
          </div>
          {saveRecipients.isError ? <Alert>{errorMessage(saveRecipients.error, 'Failed to update notification rule')}</Alert> : null}
          <div className="pk-row">
            <Button size="small" type="submit" disabled={saveRecipients.isPending}>
              Save Recipients
            </Button>
            <Button size="small" variant="secondary" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
      {report.isError ? <TestReportProblem error={report.error} /> : null}
      <div className="pk-row">
        {!editing ? (
          <Button
            size="small"
            variant="secondary"
            aria-label={`Edit recipients of ${rule.user_group}`}
            onClick={() => {
              setRecipients(rule.recipient_emails.join(', '))
              setRecipientsError(null)
              setEditing(true)
            }}
          >
            Edit Recipients
          </Button>
        ) : null}
        <Button size="small" variant="secondary" aria-label={`Configure tracking of ${rule.user_group}`} onClick={() => setTracking(true)}>
          Configure Tracking
        </Button>
        <Button size="small" aria-label={`Send test report of ${rule.user_group}`} disabled={report.isPending} onClick={() => report.mutate()}>
          Send Test Report
        </Button>
      </div>
      {tracking ? (
        <TrackingDialog
          rule={rule}
          onClose={() => setTracking(false)}
          onSaved={(m) => {
            setTracking(false)
            onNotice(m)
          }}
        />
      ) : null}
    </section>
  )
}
