import { AuthSuccess, MessageResponse, VERIFICATION_CODE_TTL_MINUTES } from '@portal/contracts'
import { Alert, Button, TextField, api, errorMessage } from '@portal/ui-kit'
import { useState, type FormEvent } from 'react'
import { isCompleteVerificationCode, sanitizeVerificationCode } from './validation.ts'

export interface VerificationPanelProps {
  userId: string
  onVerified: (auth: AuthSuccess) => void
  onBack: () => void
}

/** Enter the 6-digit e-mail code; a correct code signs the user in (spec §2 Verification). */
export const VerificationPanel = ({ userId, onVerified, onBack }: VerificationPanelProps) => {
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [info, setInfo] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!isCompleteVerificationCode(code) || busy) return
    setBusy(true)
    setError(null)
    setInfo(null)
    try {
      onVerified(await api.post('/auth/verify-email', { userId, verificationCode: code }, AuthSuccess))
    } catch (err) {
      setError(errorMessage(err, 'Verification failed. Please try again.'))
      setBusy(false)
    }
  }

  const resend = async () => {
    setError(null)
    setInfo(null)
    try {
      const res = await api.post('/auth/resend-verification', { userId }, MessageResponse)
      setInfo(res.message || 'A new verification code has been sent to your email.')
    } catch (err) {
      setError(errorMessage(err, 'Failed to resend verification code.'))
    }
  }

  return (
    <section className="pk-card pk-auth pk-stack" aria-labelledby="verify-title">
      <h1 id="verify-title">Verify Your Email</h1>
      <p className="pk-muted">
        We sent a 6-digit verification code to your email address. The code expires in {VERIFICATION_CODE_TTL_MINUTES}{' '}
        minutes.
      </p>
      {error ? <Alert>{error}</Alert> : null}
      {info ? <Alert tone="success">{info}</Alert> : null}
      <form className="pk-stack" onSubmit={submit} noValidate>
        <TextField
          label="Verification Code"
          name="verificationCode"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          value={code}
          onChange={(e) => setCode(sanitizeVerificationCode(e.target.value))}
          autoFocus
        />
        <Button type="submit" disabled={!isCompleteVerificationCode(code) || busy}>
          {busy ? 'Verifying...' : 'Verify Email'}
        </Button>
      </form>
      <div className="pk-row" style={{ justifyContent: 'space-between' }}>
        <Button variant="secondary" onClick={resend}>
          Resend Code
        </Button>
        <Button variant="link" onClick={onBack}>
          Back to Registration
        </Button>
      </div>
    </section>
  )
}
