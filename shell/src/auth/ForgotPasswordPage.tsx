import { MessageResponse } from '@portal/contracts'
import { Alert, Button, TextField, api, errorMessage, focusFirstInvalid } from '@portal/ui-kit'
import { useRef, useState, type FormEvent } from 'react'
import { flushSync } from 'react-dom'
import { Link } from 'react-router'

export const ForgotPasswordPage = () => {
  const [email, setEmail] = useState('')
  const [fieldError, setFieldError] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [sentTo, setSentTo] = useState<string | null>(null)
  const formRef = useRef<HTMLFormElement>(null)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!email.trim()) {
      flushSync(() => setFieldError('Email is required'))
      focusFirstInvalid(formRef.current)
      return
    }
    setFieldError(null)
    setBusy(true)
    setError(null)
    try {
      await api.post('/auth/forgot-password', { email: email.trim() }, MessageResponse)
      setSentTo(email.trim())
    } catch (err) {
      setError(errorMessage(err, 'Failed to send password reset email. Please try again.'))
    }
    setBusy(false)
  }

  if (sentTo) {
    return (
      <section className="pk-card pk-auth pk-stack" aria-labelledby="forgot-done">
        <h1 id="forgot-done">Check Your Email</h1>
        <p>
          If an account exists for <strong>{sentTo}</strong>, we have sent a password reset link to it. The link expires in 1 hour.
        </p>
        <Link to="/login">Back to Login</Link>
      </section>
    )
  }

  return (
    <section className="pk-card pk-auth pk-stack" aria-labelledby="forgot-title">
      <h1 id="forgot-title">Forgot Password</h1>
      <p className="pk-muted">Enter your email address and we will send you a link to reset your password.</p>
      {error ? <Alert>{error}</Alert> : null}
      <form ref={formRef} className="pk-stack" onSubmit={submit} noValidate>
        <TextField label="Email" type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={fieldError} required />
        <Button type="submit" disabled={busy}>
          {busy ? 'Sending...' : 'Send Reset Link'}
        </Button>
      </form>
      <Link to="/login">Back to Login</Link>
    </section>
  )
}
