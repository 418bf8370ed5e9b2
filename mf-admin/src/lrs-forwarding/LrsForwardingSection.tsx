import type { LrsForwarding } from '@portal/contracts'
import { Alert, Button, Spinner, Switch, TextField, errorMessage, focusFirstInvalid, formatDateTime } from '@portal/ui-kit'
import { useId, useRef, useState, type FormEvent } from 'react'
import { useLrsForwarding, useSaveLrsForwarding, useTestLrsForwarding } from './data/apiHooks.ts'
import { checkForm, formOf, type LrsForm } from './lrs-form.ts'

/**
 * Learning Record Store (issue 26): the external LRS the portal's learning events go to as xAPI
 * statements (launched, completed, passed/failed with score). The password is write-only; Test
 * connection asks the saved LRS's `about` with the saved credentials.
 */
export const LrsForwardingSection = () => {
  const settings = useLrsForwarding()
  return (
    <section className="pk-stack" aria-labelledby="lrs-forwarding-heading">
      <h3 id="lrs-forwarding-heading" className="pk-m0">
        Learning Record Store
      </h3>
      <p className="pk-muted pk-m0">
        Send learning events (modules launched and completed, courses completed, exams and SCORM results passed or failed with their score) as xAPI statements to an external
        learning record store. Learners are sent by their portal id only, never their names or e-mail addresses.
      </p>
      {settings.isPending ? <Spinner label="Loading the learning record store settings..." /> : null}
      {settings.isError ? <Alert>{errorMessage(settings.error, 'Failed to fetch the learning record store settings')}</Alert> : null}
      {settings.data ? <LrsForwardingForm settings={settings.data} /> : null}
    </section>
  )
}

/** How many statements wait to be sent, and since when the oldest has. */
export const waitingText = (s: Pick<LrsForwarding, 'waiting' | 'oldest_waiting_since'>): string =>
  s.waiting === 0 ? 'None' : `${s.waiting.toLocaleString('en-US')} (the oldest since ${formatDateTime(s.oldest_waiting_since)})`

export const LrsForwardingForm = ({ settings }: { settings: LrsForwarding }) => {
  const [form, setForm] = useState<LrsForm>(() => formOf(settings))
  const [errors, setErrors] = useState<Partial<Record<keyof LrsForm, string>>>({})
  const [notice, setNotice] = useState<string | null>(null)
  const formRef = useRef<HTMLFormElement>(null)
  const switchHint = useId()
  const save = useSaveLrsForwarding((saved) => {
    setForm(formOf(saved))
    setNotice('Learning record store settings saved.')
  })
  const test = useTestLrsForwarding()
  const set = <K extends keyof LrsForm>(k: K, v: LrsForm[K]) => setForm((f) => ({ ...f, [k]: v }))
  const current = save.data ?? settings

  const submit = (e: FormEvent) => {
    e.preventDefault()
    save.reset()
    setNotice(null)
    const checked = checkForm(form)
    if (!checked.ok) {
      setErrors(checked.errors)
      // After the marks have rendered, focus goes to the first field in error (its message is read).
      requestAnimationFrame(() => focusFirstInvalid(formRef.current))
      return
    }
    setErrors({})
    save.mutate(checked.body)
  }

  return (
    <form ref={formRef} className="pk-stack" onSubmit={submit} noValidate aria-label="Learning record store">
      <TextField
        label="Endpoint"
        type="url"
        value={form.endpoint}
        error={errors.endpoint}
        hint="The LRS's xAPI address, e.g. https://lrs.example.com/xapi/ — statements are sent to its /statements"
        onChange={(e) => set('endpoint', e.target.value)}
      />
      <div className="pk-row pk-items-start">
        <div className="pk-grow-240">
          <TextField
            label="Username"
            autoComplete="off"
            value={form.username}
            error={errors.username}
            hint="The LRS's key or user (Basic auth)"
            onChange={(e) => set('username', e.target.value)}
          />
        </div>
        <div className="pk-grow-240">
          <TextField
            label="Password"
            type="password"
            autoComplete="new-password"
            value={form.password}
            error={errors.password}
            hint={current.has_password ? 'A password is stored. Leave blank to keep it.' : 'No password is stored.'}
            onChange={(e) => set('password', e.target.value)}
          />
        </div>
      </div>
      <div className="pk-stack">
        <Switch text="Send statements" aria-label="Send statements" aria-describedby={switchHint} checked={form.enabled} onToggle={() => set('enabled', !form.enabled)} />
        <span id={switchHint} className="pk-hint">
          Off: events are not sent (statements already waiting are kept until it is on again).
        </span>
      </div>
      <dl className="pk-m0">
        <dt>Last statement sent</dt>
        <dd>{formatDateTime(current.last_sent_at, 'Never')}</dd>
        <dt>Last error</dt>
        <dd>{current.last_error ? `${current.last_error} (${formatDateTime(current.last_error_at)})` : 'None'}</dd>
        <dt>Statements waiting</dt>
        <dd>{waitingText(current)}</dd>
      </dl>
      {Object.keys(errors).length > 0 ? <Alert>Please correct the fields marked above.</Alert> : null}
      {save.isError ? <Alert>{errorMessage(save.error, 'Failed to save the learning record store settings')}</Alert> : null}
      <div role="status" className="pk-live">
        {notice}
        {test.data ? (test.data.ok ? test.data.message : `Connection failed: ${test.data.message}`) : null}
        {test.isError ? errorMessage(test.error, 'Failed to test the connection') : null}
      </div>
      <div className="pk-row">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save'}
        </Button>
        <Button
          variant="secondary"
          disabled={test.isPending || !current.endpoint}
          onClick={() => {
            setNotice(null)
            test.mutate()
          }}
        >
          {test.isPending ? 'Testing...' : 'Test connection'}
        </Button>
        {!current.endpoint ? <span className="pk-muted">Save an endpoint to test it.</span> : null}
      </div>
    </form>
  )
}
