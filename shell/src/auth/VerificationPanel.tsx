import { AuthSuccess, MessageResponse, VERIFICATION_CODE_TTL_MINUTES, VERIFICATION_RESEND_SECONDS } from '@portal/contracts'
import { Alert, ApiError, Button, TextField, api, errorMessage, focusFirstInvalid } from '@portal/ui-kit'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { flushSync } from 'react-dom'
import { isCompleteVerificationCode, resendHint, sanitizeVerificationCode } from './validation.ts'

export interface VerificationPanelProps {
  userId: string
  /** The address the code goes to, named on the screen. */
  email: string
  /** A code was sent just now (registration): Resend Code waits until the server would take it. */
  codeJustSent: boolean
  onVerified: (auth: AuthSuccess) => void
  onBack: () => void
}

/** Seconds until `untilMs`, ticking each second; 0 once passed. */
const useCountdown = (untilMs: number) => {
  const left = () => Math.max(0, Math.ceil((untilMs - Date.now()) / 1000))
  const [seconds, setSeconds] = useState(left)
  useEffect(() => {
    setSeconds(left())
    const t = setInterval(() => setSeconds(left()), 1000)
    return () => clearInterval(t)
  }, [untilMs])
  return seconds
}

/** Under the code field when Verify Email is pressed before six digits are in. */
export const INCOMPLETE_CODE = 'Enter the 6-digit code from the email'

/** Enter the 6-digit e-mail code; a correct code signs the user in (spec §2 Verification). */
export const VerificationPanel = ({ userId, email, codeJustSent, onVerified, onBack }: VerificationPanelProps) => {
  const [code, setCode] = useState('')
  // What is wrong with the code (too short, or refused by the server): said under the field.
  const [codeError, setCodeError] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const formRef = useRef<HTMLFormElement>(null)
  const [info, setInfo] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // The server takes a new request this long after the last code was sent.
  const [resendAt, setResendAt] = useState(() => (codeJustSent ? Date.now() + VERIFICATION_RESEND_SECONDS * 1000 : 0))
  const wait = useCountdown(resendAt)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (busy) return
    if (!isCompleteVerificationCode(code)) return markCode(INCOMPLETE_CODE)
    setBusy(true)
    setCodeError(null)
    setError(null)
    setInfo(null)
    try {
      onVerified(await api.post('/auth/verify-email', { userId, verificationCode: code }, AuthSuccess))
    } catch (err) {
      const message = errorMessage(err, 'Verification failed. Please try again.')
      // A refusal (a wrong or expired code) is about the code; a failure to reach the server is not.
      if (err instanceof ApiError && err.status >= 400 && err.status < 500) return markCode(message)
      setError(message)
      setBusy(false)
    }
  }

  // The message goes under the code field, and focus back to it (WCAG 3.3.1).
  const markCode = (message: string) => {
    flushSync(() => {
      setCodeError(message)
      setBusy(false)
    })
    focusFirstInvalid(formRef.current)
  }

  const resend = async () => {
    if (wait > 0) return
    setError(null)
    setInfo(null)
    setResendAt(Date.now() + VERIFICATION_RESEND_SECONDS * 1000)
    try {
      const res = await api.post('/auth/resend-verification', { userId }, MessageResponse)
      setInfo(res.message || `A new verification code has been sent to ${email}.`)
    } catch (err) {
      setError(errorMessage(err, 'Failed to resend verification code.'))
    }
  }

  return (
    <section className="pk-card pk-auth pk-stack" aria-labelledby="verify-title">
      <h1 id="verify-title">Verify Your Email</h1>
      <p className="pk-muted">
        {codeJustSent ? 'We sent a 6-digit verification code to ' : 'Enter the 6-digit verification code we sent to '}
        <strong className="pk-text-body pk-break">{email}</strong>. The code expires in {VERIFICATION_CODE_TTL_MINUTES} minutes.
      </p>
      {error ? <Alert>{error}</Alert> : null}
      {info ? <Alert tone="success">{info}</Alert> : null}
      <form ref={formRef} className="pk-stack" onSubmit={submit} noValidate>
        <TextField
          label="Verification Code"
          name="verificationCode"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          value={code}
          onChange={(e) => setCode(sanitizeVerificationCode(e.target.value))}
          error={codeError}
          autoFocus
        />
        <Button type="submit" disabled={busy}>
          {busy ? 'Verifying...' : 'Verify Email'}
        </Button>
      </form>
      <div className="pk-stack pk-gap-s">
        <div className="pk-row pk-between">
          {/* aria-disabled, not disabled: it stays focusable and its hint is read while it waits. */}
          <Button variant="secondary" onClick={resend} aria-disabled={wait > 0 || undefined} aria-describedby="verify-resend-hint">
            Resend Code
          </Button>
          <Button variant="link" onClick={onBack}>
            Back to Registration
          </Button>
        </div>
        <span id="verify-resend-hint" className="pk-muted pk-fs-14">
          {resendHint(wait)}
        </span>
      </div>
    </section>
  )
}
