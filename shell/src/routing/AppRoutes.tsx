import { RemoteSlot, Spinner } from '@portal/ui-kit'
import { Suspense, type ReactNode } from 'react'
import { Navigate, Route, Routes, useLocation, useNavigate, useParams } from 'react-router'
import { ForgotPasswordPage, LoginPage, RegisterPage, ResetPasswordPage, useAuth, type AuthState } from '../auth/index.ts'
import { announcePage, Layout, Titled } from '../layout/index.ts'
import { useLeaveGuards } from '../leave/index.ts'
import { DASHBOARD_PAGES } from './preload.ts'
import { decideAccess, decideExamResults, decideRoot, type Access, type AuthSnapshot, type GuardDecision } from './guards.ts'

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
    <RemoteSlot
      id={id}
      user={state.user}
      onUserUpdated={updateUser}
      navigate={navigate}
      params={params}
      locationState={location.state}
      registerLeaveGuard={register}
      announcePage={announcePage}
    />
  )
}

/** The whole route table of spec §2, each route titled (issue 15 item 4). */
export const AppRoutes = () => (
  <Routes>
    <Route element={<Layout />}>
      <Route index element={<Root />} />
      <Route
        path="login"
        element={
          <Titled title="Log In">
            <LoginPage />
          </Titled>
        }
      />
      <Route
        path="register"
        element={
          <Titled title="Register">
            <Suspense fallback={<Spinner />}>
              <RegisterPage />
            </Suspense>
          </Titled>
        }
      />
      <Route
        path="forgot-password"
        element={
          <Titled title="Forgot Password">
            <Suspense fallback={<Spinner />}>
              <ForgotPasswordPage />
            </Suspense>
          </Titled>
        }
      />
      <Route
        path="reset-password"
        element={
          <Titled title="Reset Password">
            <Suspense fallback={<Spinner />}>
              <ResetPasswordPage />
            </Suspense>
          </Titled>
        }
      />
      <Route
        path="user-dashboard"
        element={
          <Titled title="Dashboard">
            <Guard access="signed-in">
              <Remote id={DASHBOARD_PAGES['/user-dashboard']} />
            </Guard>
          </Titled>
        }
      />
      <Route
        path="admin-dashboard"
        element={
          <Titled title="Admin Dashboard">
            <Guard access="admin">
              <Remote id={DASHBOARD_PAGES['/admin-dashboard']} />
            </Guard>
          </Titled>
        }
      />
      <Route
        path="exam/:id"
        element={
          <Titled title="Exam">
            <Guard access="signed-in">
              <Remote id="mf_exams/ExamPage" />
            </Guard>
          </Titled>
        }
      />
      <Route
        path="exam-results"
        element={
          <Titled title="Exam Results">
            <Guard access="signed-in">
              <ExamResults />
            </Guard>
          </Titled>
        }
      />
      <Route
        path="technician/profile"
        element={
          <Titled title="Technician Profile">
            <Guard access="signed-in">
              <Remote id="mf_certifications/TechnicianProfile" />
            </Guard>
          </Titled>
        }
      />
      <Route
        path="manager/dashboard"
        element={
          <Titled title="Team Dashboard">
            <Guard access="manager">
              <Remote id="mf_certifications/TeamDashboard" />
            </Guard>
          </Titled>
        }
      />
      <Route
        path="manager/technician/:userId"
        element={
          <Titled title="Team Member">
            <Guard access="manager">
              <Remote id="mf_certifications/TeamMember" />
            </Guard>
          </Titled>
        }
      />
      <Route
        path="admin/technician/:userId"
        element={
          <Titled title="Technician Profile">
            <Guard access="admin">
              <Remote id="mf_certifications/TechnicianProfile" />
            </Guard>
          </Titled>
        }
      />
      <Route
        path="admin/certifications"
        element={
          <Titled title="Certification Management">
            <Guard access="admin">
              <Remote id="mf_certifications/CertificationManagement" />
            </Guard>
          </Titled>
        }
      />
      <Route
        path="admin/certification-notifications"
        element={
          <Titled title="Certification Notifications">
            <Guard access="admin">
              <Remote id="mf_certifications/CertificationNotifications" />
            </Guard>
          </Titled>
        }
      />
      <Route
        path="admin/revenue-entry"
        element={
          <Titled title="Revenue Entry">
            <Guard access="admin">
              <Remote id="mf_certifications/RevenueEntry" />
            </Guard>
          </Titled>
        }
      />
      <Route
        path="*"
        element={
          <Titled title="Page Not Found">
            <NotFound />
          </Titled>
        }
      />
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
