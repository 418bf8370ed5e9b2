import { AuthSuccess, ErrorBody } from '@portal/contracts'
import { Alert, ApiError, Button, TextField, api, errorMessage, hasIdentity } from '@portal/ui-kit'
import { useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { dashboardOf, useAuth } from './AuthProvider.tsx'
import { VerificationPanel } from './VerificationPanel.tsx'

const INVALID_USER = 'Invalid user data received from server'

export const LoginPage = () => {
  const { signIn } = useAuth()
  const navigate = useNavigate()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({})
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [pendingUserId, setPendingUserId] = useState<string | null>(null)

  const finish = (res: AuthSuccess) => {
    signIn(res.token, res.user)
    navigate(dashboardOf(res.user), { replace: true })
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const errs = { email: email.trim() ? undefined : 'Email is required', password: password ? undefined : 'Password is required' }
    setFieldErrors(errs)
    if (errs.email || errs.password) return
    setBusy(true)
    setError(null)
    try {
      const data = await api.post<{ token?: unknown; user?: unknown }>('/auth/login', { email: email.trim(), password })
      const parsed = AuthSuccess.safeParse(data)
      if (!hasIdentity(data?.user) || !parsed.success) {
        setError(INVALID_USER)
        setBusy(false)
        return
      }
      finish(parsed.data)
    } catch (err) {
      const body = err instanceof ApiError ? ErrorBody.safeParse(err.body) : null
      if (err instanceof ApiError && err.status === 403 && body?.success && body.data.requiresVerification && body.data.userId) {
        setPendingUserId(body.data.userId)
      } else {
        setError(errorMessage(err, 'Login failed. Please try again.'))
      }
      setBusy(false)
    }
  }

  if (pendingUserId) {
    return (
      <VerificationPanel
        userId={pendingUserId}
        email={email.trim()}
        codeJustSent={false}
        onVerified={finish}
        onBack={() => {
          setPendingUserId(null)
          navigate('/register')
        }}
      />
    )
  }

  return (
    <section className="pk-card pk-auth pk-stack" aria-labelledby="login-title">
      <h1 id="login-title">Log In</h1>
      {error ? <Alert>{error}</Alert> : null}
      <form className="pk-stack" onSubmit={submit} noValidate>
        <TextField label="Email" type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={fieldErrors.email} required />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fieldErrors.password}
          required
        />
        <Button type="submit" disabled={busy}>
          {busy ? 'Logging in...' : 'Log In'}
        </Button>
      </form>
      <div className="pk-row pk-between">
        <Link to="/forgot-password">Forgot your password?</Link>
        <Link to="/register">Create an account</Link>
      </div>
    </section>
  )
}
