import { MESSAGES, MessageResponse } from '@portal/contracts'
import { Alert, Button, TextField, api, errorMessage, focusFirstInvalid } from '@portal/ui-kit'
import { useRef, useState, type FormEvent } from 'react'
import { flushSync } from 'react-dom'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { confirmPasswordError, newPasswordError } from './validation.ts'

const PasswordField = ({ label, value, onChange, error }: { label: string; value: string; onChange: (v: string) => void; error: string | null }) => {
  const [shown, setShown] = useState(false)
  return (
    <TextField
      label={label}
      type={shown ? 'text' : 'password'}
      autoComplete="new-password"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      required
      adornment={
        <Button variant="secondary" aria-pressed={shown} onClick={() => setShown((s) => !s)}>
          {shown ? 'Hide' : 'Show'}
        </Button>
      }
    />
  )
}

export const ResetPasswordPage = () => {
  const [params] = useSearchParams()
  const token = params.get('token')
  const navigate = useNavigate()
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [errors, setErrors] = useState<{ password: string | null; confirm: string | null }>({ password: null, confirm: null })
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [done, setDone] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)

  if (!token) {
    return (
      <section className="pk-card pk-auth pk-stack" aria-labelledby="reset-invalid">
        <h1 id="reset-invalid">Invalid Reset Link</h1>
        <p>{MESSAGES.invalidResetLink}</p>
        <Link to="/forgot-password">Request a new reset link</Link>
      </section>
    )
  }

  if (done) {
    return (
      <section className="pk-card pk-auth pk-stack" aria-labelledby="reset-done">
        <h1 id="reset-done">Password Reset Successful</h1>
        <p>Your password has been reset. You can now log in with your new password.</p>
        <Button onClick={() => navigate('/login')}>Go to Login</Button>
      </section>
    )
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const next = { password: newPasswordError(password), confirm: confirmPasswordError(password, confirm) }
    flushSync(() => setErrors(next))
    if (next.password || next.confirm) {
      focusFirstInvalid(formRef.current)
      return
    }
    setBusy(true)
    setError(null)
    try {
      await api.post('/auth/reset-password', { token, password }, MessageResponse)
      setDone(true)
    } catch (err) {
      setError(errorMessage(err, 'Failed to reset password. Please try again.'))
    }
    setBusy(false)
  }

  return (
    <section className="pk-card pk-auth pk-stack" aria-labelledby="reset-title">
      <h1 id="reset-title">Reset Password</h1>
      <p className="pk-muted">At least 8 characters, with a lowercase letter, an uppercase letter and a number.</p>
      {error ? <Alert>{error}</Alert> : null}
      <form ref={formRef} className="pk-stack" onSubmit={submit} noValidate>
        <PasswordField label="New Password" value={password} onChange={setPassword} error={errors.password} />
        <PasswordField label="Confirm Password" value={confirm} onChange={setConfirm} error={errors.confirm} />
        <Button type="submit" disabled={busy}>
          {busy ? 'Resetting...' : 'Reset Password'}
        </Button>
      </form>
      <Link to="/login">Back to Login</Link>
    </section>
  )
}
