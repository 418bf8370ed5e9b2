import { AuthSuccess, ErrorBody, PublicSignInProvidersResponse, type PublicSignInProvider } from '@portal/contracts'
import { Alert, ApiError, Button, Spinner, TextField, api, errorMessage, focusFirstInvalid, getStoredUser, hasIdentity, refreshSession } from '@portal/ui-kit'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { flushSync } from 'react-dom'
import { Link, useLocation, useNavigate } from 'react-router'
import { dashboardOf, useAuth } from './AuthProvider.tsx'
import { CompanySignIn, ProviderSignOutOffer } from './CompanySignIn.tsx'
import { isSignInDone, noticeOf } from './company-sign-in.ts'
import { VerificationPanel } from './VerificationPanel.tsx'

const INVALID_USER = 'Invalid user data received from server'

const SIGN_IN_INCOMPLETE = 'Signing in did not complete. Please try again.'

export const LoginPage = () => {
  const { signIn, state } = useAuth()
  const navigate = useNavigate()
  const { search } = useLocation()
  // The company's sign-in options (null while they load; none when the list cannot be read).
  const [providers, setProviders] = useState<PublicSignInProvider[] | null>(null)
  // Back from a company sign-in: the session is in the refresh cookie, fetched once here.
  const [finishing, setFinishing] = useState(() => isSignInDone(search))
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({})
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [pendingUserId, setPendingUserId] = useState<string | null>(null)
  const formRef = useRef<HTMLFormElement>(null)

  const finish = (res: AuthSuccess) => {
    signIn(res.token, res.user)
    navigate(dashboardOf(res.user), { replace: true })
  }

  useEffect(() => {
    let cancelled = false
    api
      .get('/auth/oidc/providers', PublicSignInProvidersResponse)
      .then((r) => !cancelled && setProviders(r.providers))
      .catch(() => !cancelled && setProviders([]))
    return () => {
      cancelled = true
    }
  }, [])

  useEffect(() => {
    if (!isSignInDone(search)) return
    let cancelled = false
    void refreshSession('/api', null, (...a) => globalThis.fetch(...a)).then((outcome) => {
      if (cancelled) return
      const user = typeof outcome === 'object' ? getStoredUser() : null
      if (typeof outcome === 'object' && user) return finish({ token: outcome.token, user })
      setFinishing(false)
      setError(SIGN_IN_INCOMPLETE)
      navigate('/login', { replace: true })
    })
    return () => {
      cancelled = true
    }
  }, [search]) // once per arrival at /login?sso=done

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const errs = { email: email.trim() ? undefined : 'Email is required', password: password ? undefined : 'Password is required' }
    // Each empty field says so under itself, and focus goes to the first (WCAG 3.3.1).
    flushSync(() => setFieldErrors(errs))
    if (errs.email || errs.password) {
      focusFirstInvalid(formRef.current)
      return
    }
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

  if (finishing) return <Spinner label="Signing you in..." />

  const notice = noticeOf(search, providers)
  const providerSignOut = state.status === 'anonymous' ? state.providerSignOut : undefined

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
      {providerSignOut ? <ProviderSignOutOffer offer={providerSignOut} /> : null}
      {notice && !error ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
      {error ? <Alert>{error}</Alert> : null}
      <CompanySignIn providers={providers ?? []} />
      <form ref={formRef} className="pk-stack" onSubmit={submit} noValidate>
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
