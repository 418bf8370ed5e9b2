import { AuthSuccess, PublicConfig, RegisterResponse } from '@portal/contracts'
import { Alert, ApiError, Button, TextField, api, errorMessage, focusFirstInvalid } from '@portal/ui-kit'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { flushSync } from 'react-dom'
import { Link, useNavigate } from 'react-router'
import { dashboardOf, useAuth } from './AuthProvider.tsx'
import { VerificationPanel } from './VerificationPanel.tsx'
import { companyEmailError, liveCompanyEmailError, registrationPasswordError } from './validation.ts'

interface FieldErrors {
  name?: string | null
  email?: string | null
  password?: string | null
  adminCode?: string | null
}

/** The field a refusal of the server is about, by its code: its message goes under that field. */
const REFUSED_FIELD: Readonly<Record<string, keyof FieldErrors>> = { email_domain_not_allowed: 'email', invalid_admin_code: 'adminCode' }

let configCache: Promise<PublicConfig> | null = null

/** The public settings (company domain, admin registration); read once per page load. */
const usePublicConfig = (): PublicConfig | null => {
  const [config, setConfig] = useState<PublicConfig | null>(null)
  useEffect(() => {
    let live = true
    configCache ??= api.get('/auth/config', PublicConfig).catch((err: unknown) => {
      configCache = null
      throw err
    })
    // Without the config the server still checks the domain; the form just cannot warn early.
    configCache.then((c) => live && setConfig(c)).catch(() => undefined)
    return () => {
      live = false
    }
  }, [])
  return config
}

export const RegisterPage = () => {
  const { signIn } = useAuth()
  const navigate = useNavigate()
  const config = usePublicConfig()
  const domain = config?.companyEmailDomain
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [isAdmin, setIsAdmin] = useState(false)
  const [adminCode, setAdminCode] = useState('')
  const [errors, setErrors] = useState<FieldErrors>({})
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [pendingUserId, setPendingUserId] = useState<string | null>(null)
  const formRef = useRef<HTMLFormElement>(null)

  const finish = (res: AuthSuccess) => {
    signIn(res.token, res.user)
    navigate(dashboardOf(res.user), { replace: true })
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const next: FieldErrors = {
      name: name.trim() ? null : 'Full name is required',
      email: email.trim() ? companyEmailError(email, domain) : 'Email is required',
      password: registrationPasswordError(password),
      adminCode: isAdmin && !adminCode.trim() ? 'Admin code is required' : null,
    }
    // Each field says what is wrong under itself, and focus goes to the first of them (WCAG 3.3.1).
    flushSync(() => setErrors(next))
    if (Object.values(next).some(Boolean)) {
      focusFirstInvalid(formRef.current)
      return
    }
    setBusy(true)
    setError(null)
    try {
      const res = await api.post('/auth/register', { name: name.trim(), email: email.trim(), password, isAdmin, ...(isAdmin ? { adminCode } : {}) }, RegisterResponse)
      if ('requiresVerification' in res) setPendingUserId(res.userId)
      else finish(res)
    } catch (err) {
      const field = err instanceof ApiError ? REFUSED_FIELD[err.code] : undefined
      if (field) {
        flushSync(() => {
          setErrors((x) => ({ ...x, [field]: errorMessage(err, 'Registration failed. Please try again.') }))
          setBusy(false)
        })
        focusFirstInvalid(formRef.current)
        return
      }
      setError(errorMessage(err, 'Registration failed. Please try again.'))
    }
    setBusy(false)
  }

  if (pendingUserId) {
    return <VerificationPanel userId={pendingUserId} email={email.trim()} codeJustSent onVerified={finish} onBack={() => setPendingUserId(null)} />
  }

  return (
    <section className="pk-card pk-auth pk-stack" aria-labelledby="register-title">
      <h1 id="register-title">Register for the Exam Platform</h1>
      <p className="pk-muted">{domain ? `Use your company email address (@${domain}).` : 'Use your company email address.'}</p>
      {error ? <Alert>{error}</Alert> : null}
      <form ref={formRef} className="pk-stack" onSubmit={submit} noValidate>
        <TextField label="Full Name" name="name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} required />
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value)
            setErrors((x) => ({ ...x, email: liveCompanyEmailError(e.target.value, domain) }))
          }}
          error={errors.email}
          required
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
          hint="At least 8 characters, with an uppercase letter, a lowercase letter and a number."
          required
        />
        {config?.adminRegistrationEnabled ? (
          <>
            <label className="pk-check">
              <input
                type="checkbox"
                checked={isAdmin}
                onChange={(e) => {
                  setIsAdmin(e.target.checked)
                  if (!e.target.checked) {
                    setAdminCode('')
                    setErrors((x) => ({ ...x, adminCode: null }))
                  }
                }}
              />
              Register as Admin
            </label>
            {isAdmin ? (
              <TextField
                label="Admin Code"
                type="password"
                name="adminCode"
                autoComplete="off"
                value={adminCode}
                onChange={(e) => setAdminCode(e.target.value)}
                error={errors.adminCode}
                required
              />
            ) : null}
          </>
        ) : null}
        <Button type="submit" disabled={busy}>
          {busy ? 'Registering...' : 'Register'}
        </Button>
      </form>
      <p>
        Already have an account? <Link to="/login">Log in</Link>
      </p>
    </section>
  )
}
