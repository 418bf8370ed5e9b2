import { RemoteSlot, Spinner } from '@portal/ui-kit'
import { Suspense, lazy, type ReactNode } from 'react'
import { Navigate, Route, Routes, useLocation, useNavigate, useParams } from 'react-router'
import { useAuth, type AuthState } from '../auth/AuthProvider.tsx'
import { LoginPage } from '../auth/LoginPage.tsx'
import { Layout } from '../layout/Layout.tsx'
import { useLeaveGuards } from '../leave/LeaveGuardProvider.tsx'
import { decideAccess, decideExamResults, decideRoot, type Access, type AuthSnapshot, type GuardDecision } from './guards.ts'

// Pages off the first-load path are split out to keep the login page light.
const RegisterPage = lazy(() => import('../auth/RegisterPage.tsx').then((m) => ({ default: m.RegisterPage })))
const ForgotPasswordPage = lazy(() =>
  import('../auth/ForgotPasswordPage.tsx').then((m) => ({ default: m.ForgotPasswordPage })),
)
const ResetPasswordPage = lazy(() =>
  import('../auth/ResetPasswordPage.tsx').then((m) => ({ default: m.ResetPasswordPage })),
)

const snapshot = (s: AuthState): AuthSnapshot =>
  s.status === 'authenticated' ? { status: s.status, isAdmin: s.user.is_admin, isManager: s.user.is_manager } : { status: s.status }

const Decision = ({ decision, children }: { decision: GuardDecision; children?: ReactNode }) => {
  if (decision.kind === 'spinner') return <Spinner />
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />
  return <>{children}</>
}

const Guard = ({ access, children }: { access: Access; children: ReactNode }) => {
  const { state } = useAuth()
  return <Decision decision={decideAccess(access, snapshot(state))}>{children}</Decision>
}

const Root = () => <Decision decision={decideRoot(snapshot(useAuth().state))} />

const ExamResults = () => {
  const { state } = useAuth()
  const location = useLocation()
  const isAdmin = state.status === 'authenticated' && state.user.is_admin
  return (
    <Decision decision={decideExamResults(location.state, isAdmin)}>
      <Remote id="mf_exams/ExamResultsPage" />
    </Decision>
  )
}

/** A remote's page, fed with the signed-in user and the route's navigation, parameters and state. */
const Remote = ({ id }: { id: string }) => {
  const { state, updateUser } = useAuth()
  const navigate = useNavigate()
  const params = useParams()
  const location = useLocation()
  const { register } = useLeaveGuards()
  if (state.status !== 'authenticated') return null
  return (
    <RemoteSlot id={id} user={state.user} onUserUpdated={updateUser} navigate={navigate} params={params} locationState={location.state} registerLeaveGuard={register} />
  )
}

/** The whole route table of spec §2. */
export const AppRoutes = () => (
  <Routes>
    <Route element={<Layout />}>
      <Route index element={<Root />} />
      <Route path="login" element={<LoginPage />} />
      <Route path="register" element={<Suspense fallback={<Spinner />}><RegisterPage /></Suspense>} />
      <Route path="forgot-password" element={<Suspense fallback={<Spinner />}><ForgotPasswordPage /></Suspense>} />
      <Route path="reset-password" element={<Suspense fallback={<Spinner />}><ResetPasswordPage /></Suspense>} />
      <Route
        path="user-dashboard"
        element={
          <Guard access="signed-in">
            <Remote id="mf_learner/UserDashboard" />
          </Guard>
        }
      />
      <Route
        path="admin-dashboard"
        element={
          <Guard access="admin">
            <Remote id="mf_admin/AdminDashboard" />
          </Guard>
        }
      />
      <Route path="exam/:id" element={<Guard access="signed-in"><Remote id="mf_exams/ExamPage" /></Guard>} />
      <Route path="exam-results" element={<Guard access="signed-in"><ExamResults /></Guard>} />
      <Route path="technician/profile" element={<Guard access="signed-in"><Remote id="mf_certifications/TechnicianProfile" /></Guard>} />
      <Route path="manager/dashboard" element={<Guard access="manager"><Remote id="mf_certifications/TeamDashboard" /></Guard>} />
      <Route path="manager/technician/:userId" element={<Guard access="manager"><Remote id="mf_certifications/TeamMember" /></Guard>} />
      <Route path="admin/technician/:userId" element={<Guard access="admin"><Remote id="mf_certifications/TechnicianProfile" /></Guard>} />
      <Route path="admin/certifications" element={<Guard access="admin"><Remote id="mf_certifications/CertificationManagement" /></Guard>} />
      <Route path="admin/certification-notifications" element={<Guard access="admin"><Remote id="mf_certifications/CertificationNotifications" /></Guard>} />
      <Route path="admin/revenue-entry" element={<Guard access="admin"><Remote id="mf_certifications/RevenueEntry" /></Guard>} />
      <Route path="*" element={<NotFound />} />
    </Route>
  </Routes>
)

const NotFound = () => (
  <section className="pk-card pk-stack">
    <h1>Page Not Found</h1>
    <p>
      There is no page at this address. <a href="/">Go to the start page</a>
    </p>
  </section>
)
